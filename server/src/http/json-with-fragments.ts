/*
 * A JSON answer whose array member is already-serialized fragments (pre-shaped Search products): the fragments
 * are joined as they are, not parsed and serialized again. The member comes first in the object.
 */
export function jsonWithFragments(key: string, fragments: readonly string[], rest: object): Response {
  const others = JSON.stringify(rest);
  const body = `{${JSON.stringify(key)}:[${fragments.join(",")}]${others.length > 2 ? `,${others.slice(1)}` : "}"}`;
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
}
