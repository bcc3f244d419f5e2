/** A character outside Latin-1 that JSON writes as it is (not escaped), one UTF-16 unit. */
const WIDE = "\u2013";
const WIDE_PREFIX = `[${JSON.stringify(WIDE)},`.length;

/**
 * JSON.stringify(value), kept on JavaScriptCore's fast path. That path writes Latin-1 until it meets a string
 * with a wider character; met past the start of its output, it hands the whole value to the generic serialiser,
 * 3-4× slower. Answers with facets meet one late as a rule: price ranges are named "10 – 20", and brands such
 * as "Levi’s" have one (33 KB of a broad query's facets: 168 µs against 47; a whole 68 KB similar-products
 * answer: 0.68 ms against 0.22). Given a wide string first, the fast path writes UTF-16 from the start instead,
 * at no measurable cost, and the answer is the same. Every object or array a route answers is written so.
 */
export function stringifyOnFastPath(value: object): string {
  return JSON.stringify([WIDE, value]).slice(WIDE_PREFIX, -1);
}
