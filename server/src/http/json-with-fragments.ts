/*
 * A JSON answer some of whose members are already JSON text (pre-shaped Search products, facets written by
 * facetsJson): joined as they are, not parsed and serialized again. Those members come first in the object.
 */
export function jsonWithFragments(raw: Readonly<Record<string, string>>, rest: object): Response {
  const members = Object.entries(raw).map(([key, json]) => `${JSON.stringify(key)}:${json}`);
  const others = JSON.stringify(rest);
  if (others.length > 2) members.push(others.slice(1, -1));
  return new Response(`{${members.join(",")}}`, { headers: { "content-type": "application/json; charset=utf-8" } });
}

/** Already-serialized elements as a JSON array. */
export const jsonArray = (elements: readonly string[]): string => `[${elements.join(",")}]`;
