import { stringifyOnFastPath } from "./fast-json.ts";

/*
 * A JSON answer whose array member is already-serialized fragments (pre-shaped Search products): the fragments
 * are joined as they are, not parsed and serialized again. The member comes first in the object.
 */
export function jsonWithFragments(key: string, fragments: readonly string[], rest: object): Response {
  const others = stringifyOnFastPath(rest);
  const head = `{${JSON.stringify(key)}:[${fragments.join(",")}]`;
  const tail = others.length > 2 ? `,${others.slice(1)}` : "}";
  // Encoded apart, into one buffer: joined as one string, the fragments' Latin-1 text would be widened to UTF-16
  // with the rest's.
  const headBytes = Buffer.byteLength(head);
  const body = Buffer.allocUnsafe(headBytes + Buffer.byteLength(tail));
  body.write(head, 0);
  body.write(tail, headBytes);
  return new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } });
}
