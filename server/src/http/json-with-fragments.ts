import { stringifyOnFastPath } from "./fast-json.ts";

/*
 * A JSON answer whose array member is already-serialized fragments (pre-shaped Search products): the fragments
 * are joined as they are, not parsed and serialized again. The member comes first in the object.
 */

/** One such object's text, in two parts: the fragments' Latin-1 text and the rest are encoded apart. */
function objectParts(key: string, fragments: readonly string[], rest: object): [string, string] {
  const others = stringifyOnFastPath(rest);
  const head = `{${JSON.stringify(key)}:[${fragments.join(",")}]`;
  const tail = others.length > 2 ? `,${others.slice(1)}` : "}";
  return [head, tail];
}

/** Encoded apart, into one buffer: joined as one string, the fragments' Latin-1 text would be widened to UTF-16 with the rest's. */
function jsonResponse(parts: readonly string[]): Response {
  const body = Buffer.allocUnsafe(parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0));
  let at = 0;
  for (const part of parts) at += body.write(part, at);
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
}

export function jsonWithFragments(key: string, fragments: readonly string[], rest: object): Response {
  return jsonResponse(objectParts(key, fragments, rest));
}

/** `{ "<listKey>": [ <object>, … ] }`, each object as jsonWithFragments makes it. */
export function jsonListWithFragments(
  listKey: string,
  key: string,
  items: readonly { fragments: readonly string[]; rest: object }[],
): Response {
  const parts = [`{${JSON.stringify(listKey)}:[`];
  items.forEach((item, i) => {
    if (i > 0) parts.push(",");
    parts.push(...objectParts(key, item.fragments, item.rest));
  });
  parts.push("]}");
  return jsonResponse(parts);
}
