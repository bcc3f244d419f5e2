import { promisify } from "node:util";
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from "node:zlib";

/*
 * Response compression. Text and JSON bodies go out compressed when the client accepts it. Dynamic bodies
 * (search, events) are compressed per response at the fastest levels that still shrink a search answer well:
 * zstd 1 when the client takes it (Chrome 123+, Firefox 126+ and Bun's fetch send `zstd`), else brotli 1 or
 * gzip 2. On a 68-77 KB search answer with facets, zstd 1 took 0.15-0.21 ms for 16.5 % of the bytes, brotli 1
 * 0.19-0.30 ms for 17.5 % and gzip 2 0.22-0.44 ms for 17.6 %; the codec is one of the largest costs of an answer
 * outside the engine. Brotli 4 and gzip 6 cost as much as the engine's whole search for 2-3 % fewer bytes
 * (server/bench/compression-bench.ts).
 * Static assets (the head script) are compressed once per build, at the highest levels, by precompressed();
 * brotli comes first for them, being the smallest at those levels.
 */

export type Encoding = "zstd" | "br" | "gzip";
type Bytes = Uint8Array<ArrayBuffer>;

/** Codings in the order the server prefers them when the client weighs them equally. */
export const DYNAMIC_ENCODINGS: readonly Encoding[] = ["zstd", "br", "gzip"];
export const STATIC_ENCODINGS: readonly Encoding[] = ["br", "zstd", "gzip"];

const COMPRESSIBLE_TYPE = /^\s*(text\/(?!event-stream)|application\/(json|javascript|[\w.-]+\+json)\s*(;|$))/i;
/** Below this a compressed body saves less than a packet and costs a compressor run. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Larger bodies are sent as they are: per-request cost grows with size (12-15 ms per MiB of JSON), and only a
 * rare admin page of events or a static file (the 3.5 MB docs bundle) gets there.
 */
export const MAX_DYNAMIC_COMPRESS_BYTES = 1024 * 1024;

const LEVELS = {
  dynamic: { zstd: 1, br: 1, gzip: 2 },
  static: { zstd: 19, br: constants.BROTLI_MAX_QUALITY, gzip: 9 },
} as const;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/**
 * Brotli and gzip bodies up to this size are compressed on the event loop: at the dynamic levels that takes at
 * most about 0.3 ms, and handing a search answer to zlib's thread pool cost as much event-loop time again as
 * compressing it (Node's stream machinery) and twice the CPU. Static bodies and larger ones go to the thread
 * pool, so that a big body does not hold up other requests while it is compressed. zstd always goes to the
 * pool: Bun's own asynchronous zstd costs the event loop 7-10 µs for a 60 KB search answer instead of 83-113 µs
 * (for 20-40% more CPU in all, on the other core), so a busy server answers more searches per second.
 */
const MAX_INLINE_COMPRESS_BYTES = 128 * 1024;

function compress(body: Uint8Array, encoding: Encoding, strength: keyof typeof LEVELS): Bytes | Promise<Bytes> {
  const inline = strength === "dynamic" && body.length <= MAX_INLINE_COMPRESS_BYTES;
  if (encoding === "zstd") {
    // Bun types its result over ArrayBufferLike; it is a plain (non-shared) Buffer, as zlib's are.
    return Bun.zstdCompress(body, { level: LEVELS[strength].zstd }) as Promise<Bytes>;
  }
  if (encoding === "gzip") {
    const options = { level: LEVELS[strength].gzip };
    return inline ? gzipSync(body, options) : gzipAsync(body, options);
  }
  const options = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: LEVELS[strength].br,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  };
  return inline ? brotliCompressSync(body, options) : brotliAsync(body, options);
}

const Q_VALUE = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

/**
 * The coding to send, from Accept-Encoding (RFC 9110 12.5.3): of the codings `offered` (in the server's order of
 * preference), the one the client weighs highest, the earliest on a tie; `*` stands for the codings not named;
 * q=0 (or a malformed q) refuses one; null: identity.
 */
export function negotiateEncoding<E extends Encoding>(acceptEncoding: string | null, offered: readonly E[]): E | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  // Real headers are a few dozen characters; the cap bounds the work a hostile one can cause.
  for (const member of acceptEncoding.slice(0, 1024).split(",")) {
    const [name = "", ...params] = member.split(";").map((p) => p.trim());
    const coding = name.toLowerCase() === "x-gzip" ? "gzip" : name.toLowerCase();
    if (!coding || weights.has(coding)) continue;
    const q = params.find((p) => /^q\s*=/i.test(p))?.replace(/\s+/g, "");
    weights.set(coding, q === undefined ? 1 : Q_VALUE.test(q) ? Number(q.slice(2)) : 0);
  }
  let best: E | null = null;
  let bestWeight = 0;
  for (const coding of offered) {
    const weight = weights.get(coding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) [best, bestWeight] = [coding, weight];
  }
  return best;
}

/** A Vary header value with `field` added once, keeping the fields already there (such as Origin). */
export function withVary(vary: string | null | undefined, field: string): string {
  const fields = (vary ?? "")
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  if (fields.some((f) => f === "*" || f.toLowerCase() === field.toLowerCase())) return fields.join(", ");
  return [...fields, field].join(", ");
}

/**
 * The response as the client should receive it: compressed when its type is text or JSON, its body is big
 * enough, it is not encoded already, and the client accepts an encoding. Vary names Accept-Encoding on every
 * response of a compressible type, compressed or not, so caches keep the representations apart. A strong ETag
 * becomes weak on a compressed body: the bytes differ, the content does not; routes compare If-None-Match
 * weakly (etag.ts), so the weak tag revalidates too.
 */
export async function compressResponse(request: Request, response: Response): Promise<Response> {
  const type = response.headers.get("content-type");
  if (
    request.method === "HEAD" ||
    response.status === 204 ||
    response.status === 304 ||
    !type ||
    !COMPRESSIBLE_TYPE.test(type) ||
    response.headers.has("content-encoding") ||
    /(^|,)\s*no-transform\s*(,|$)/i.test(response.headers.get("cache-control") ?? "")
  ) {
    return response;
  }
  const encoding = negotiateEncoding(request.headers.get("accept-encoding"), DYNAMIC_ENCODINGS);
  // A response is sent as it is unless it is compressed: its body is neither read nor copied here.
  response.headers.set("vary", withVary(response.headers.get("vary"), "Accept-Encoding"));
  if (!encoding) return response;
  // A file-backed body stays a file reference here: its size is known without reading it.
  const body = await response.blob();
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (body.size < MIN_COMPRESS_BYTES || body.size > MAX_DYNAMIC_COMPRESS_BYTES) return new Response(body, init);
  init.headers.set("content-encoding", encoding);
  init.headers.delete("content-length");
  const etag = init.headers.get("etag");
  if (etag && !etag.startsWith("W/")) init.headers.set("etag", `W/${etag}`);
  return new Response(await compress(await body.bytes(), encoding, "dynamic"), init);
}

/** For Elysia's wrap(): every response of the app, its plugins and routes added later passes compressResponse. */
export function compressingHandler(handle: (request: Request) => unknown) {
  // Elysia's composed request handler, typed loosely by Elysia: it always settles to the Response to send.
  return async (request: Request) => compressResponse(request, (await handle(request)) as Response);
}

export type Precompressed = Readonly<Record<Encoding, Bytes>>;

/** Static bodies by content hash: every app in the process (tests start many) compresses a given build once. */
const precompressedCache = new Map<string, Promise<Precompressed>>();
const PRECOMPRESSED_KEPT = 8;

/**
 * A static body compressed at the highest levels (brotli 11 takes about 200 ms for the head script, in zlib's
 * thread pool), cached by `contentHash`. Start it when the body is loaded; requests await the same promise.
 */
export function precompressed(contentHash: string, body: Bytes): Promise<Precompressed> {
  let encoded = precompressedCache.get(contentHash);
  if (!encoded) {
    encoded = Promise.all(STATIC_ENCODINGS.map(async (encoding) => [encoding, await compress(body, encoding, "static")] as const)).then(
      (all) => Object.fromEntries(all) as Precompressed,
    );
    precompressedCache.set(contentHash, encoded);
    // Builds replace each other only across deployments; the bound keeps a long test run from hoarding them.
    if (precompressedCache.size > PRECOMPRESSED_KEPT) precompressedCache.delete(precompressedCache.keys().next().value!);
  }
  return encoded;
}
