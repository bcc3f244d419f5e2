import { PayloadTooLargeError, UnsupportedMediaTypeError } from "../errors.ts";
import { parseJsonText } from "../json-text.ts";
import { textOf } from "../utf8-text.ts";

export interface JsonBodyOptions {
  maxBytes: number;
  /** sendBeacon cannot send application/json without a CORS preflight, so tracking also takes text/plain. */
  allowTextPlain?: boolean;
}

async function readCapped(request: Request, maxBytes: number): Promise<Buffer> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) {
    throw new PayloadTooLargeError(`The body is ${declared} bytes; the limit is ${maxBytes}`);
  }
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    // A chunked upload has no length up front: stop reading as soon as it passes the limit.
    if (size > maxBytes) throw new PayloadTooLargeError(`The body is over the limit of ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Reads a request body with the service's media-type and size rules, as bytes. */
export async function readJsonBytes(request: Request, opts: JsonBodyOptions): Promise<Uint8Array> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const accepted = type === "application/json" || (opts.allowTextPlain && type === "text/plain");
  if (!accepted) {
    throw new UnsupportedMediaTypeError(
      `Send the body as application/json${opts.allowTextPlain ? " (or text/plain holding JSON)" : ""}; got ${type || "no Content-Type"}`,
    );
  }
  return readCapped(request, opts.maxBytes);
}

/** Reads a JSON request body with the service's media-type and size rules. */
export async function readJsonBody(request: Request, opts: JsonBodyOptions): Promise<unknown> {
  return parseJsonText(textOf(await readJsonBytes(request, opts)));
}
