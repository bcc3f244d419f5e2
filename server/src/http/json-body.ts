import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from "../errors.ts";

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

function positionOf(error: Error, text: string): string {
  const at = /position (\d+)/.exec(error.message)?.[1];
  if (at === undefined) return "";
  const offset = Number(at);
  const line = text.slice(0, offset).split("\n").length;
  return ` at line ${line}, character ${offset - text.lastIndexOf("\n", offset - 1)}`;
}

/** Reads a JSON request body with the service's media-type and size rules. */
export async function readJsonBody(request: Request, opts: JsonBodyOptions): Promise<unknown> {
  return (await readJsonText(request, opts)).value;
}

/**
 * The same, with the body's text and bytes as sent: a route may keep them instead of serialising the value again
 * (bytes are stored without being encoded again).
 */
export async function readJsonText(request: Request, opts: JsonBodyOptions): Promise<{ value: unknown; text: string; bytes: Uint8Array }> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const accepted = type === "application/json" || (opts.allowTextPlain && type === "text/plain");
  if (!accepted) {
    throw new UnsupportedMediaTypeError(
      `Send the body as application/json${opts.allowTextPlain ? " (or text/plain holding JSON)" : ""}; got ${type || "no Content-Type"}`,
    );
  }
  const bytes = await readCapped(request, opts.maxBytes);
  const text = bytes.toString("utf8");
  if (text.trim() === "") throw new InvalidJsonError("The body is empty; send a JSON object or array");
  try {
    return { value: JSON.parse(text), text, bytes };
  } catch (error) {
    throw new InvalidJsonError(`The body is not valid JSON${positionOf(error as Error, text)}`, [
      { path: "body", problem: (error as Error).message },
    ]);
  }
}
