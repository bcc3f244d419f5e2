import { lookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { isPublicAddress } from "../../http/outbound-address.ts";

/*
 * Fetches a store-supplied image URL for analysis. The URL comes from a product feed, so it is untrusted: it must
 * not make the service a proxy into its own network (loopback, private ranges, the cloud metadata address). The
 * host is resolved here, every address it has is checked, and the connection goes to the checked address with the
 * URL's host as Host header and TLS server name (resolve, then pin), so a second DNS answer (rebinding) is never
 * used. Redirects are followed up to MAX_REDIRECTS, each target checked like the first URL (image CDNs redirect).
 * One deadline covers every lookup, connection and byte of the whole chain. Expected failures are results, not
 * exceptions, so a worker can record why an image was skipped.
 */

export const DEFAULT_MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_IMAGE_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 3;

/** Media types the colour extraction decodes; anything else (HTML error pages, PDFs) is refused before reading. */
export const IMAGE_CONTENT_TYPES: readonly string[] = ["image/jpeg", "image/png", "image/webp", "image/svg+xml"];

export type ImageFetchFailureReason =
  | "private-address"
  | "too-large"
  | "timeout"
  | "bad-content-type"
  | "http-status"
  | "redirect"
  | "bad-url"
  | "network";

export interface ImageFetchFailure {
  ok: false;
  reason: ImageFetchFailureReason;
  detail: string;
}

export interface ImageFetched {
  ok: true;
  bytes: Buffer;
  /** The media type without parameters, lowercase: one of IMAGE_CONTENT_TYPES. */
  contentType: string;
  /** The URL the image came from (after redirects). */
  url: string;
}

export type ImageFetchResult = ImageFetched | ImageFetchFailure;

export interface ImageFetchOptions {
  /** Loopback and private addresses may be fetched (ENRICHMENT_ALLOW_PRIVATE_NETWORKS; the demo serves its own images). */
  allowPrivateNetworks?: boolean;
  /** Largest body read; a larger Content-Length is refused at once, a longer stream is cut off. */
  maxBytes?: number;
  /** Deadline for the whole fetch, redirects included. */
  timeoutMs?: number;
  /** 0 makes any redirect a failure. */
  maxRedirects?: number;
  /**
   * Which resolved addresses may be connected to. Tests only (a local server standing in for a public host);
   * the default is isPublicAddress, or any address with allowPrivateNetworks.
   */
  addressAllowed?: (ip: string) => boolean;
}

const fail = (reason: ImageFetchFailureReason, detail: string): ImageFetchFailure => ({ ok: false, reason, detail });

/** Thrown inside a hop to end the whole fetch with a typed failure. */
class Failed extends Error {
  constructor(readonly failure: ImageFetchFailure) {
    super(failure.detail);
  }
}

export async function fetchImage(url: string, opts: ImageFetchOptions = {}): Promise<ImageFetchResult> {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_IMAGE_BYTES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS;
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;
  const allowed = opts.addressAllowed ?? (opts.allowPrivateNetworks ? () => true : isPublicAddress);

  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<ImageFetchFailure>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(fail("timeout", `no complete image within ${timeoutMs} ms`));
    }, timeoutMs);
  });

  const chain = async (): Promise<ImageFetchResult> => {
    let current = url;
    for (let hop = 0; ; hop++) {
      const target = parseTarget(current);
      if (!target.ok) return target;
      const outcome = await fetchOnce(target.url, allowed, maxBytes, controller.signal);
      if (outcome.kind === "done") return outcome.result;
      if (hop >= maxRedirects) return fail("redirect", `redirect to ${outcome.location} not followed (${maxRedirects} allowed)`);
      current = outcome.location;
    }
  };

  try {
    return await Promise.race([chain().catch((e: unknown) => (e instanceof Failed ? e.failure : fail("network", String(e)))), deadline]);
  } finally {
    clearTimeout(timer);
    controller.abort(); // whatever is still open (a slow lookup, a socket) is closed
  }
}

function parseTarget(raw: string): { ok: true; url: URL } | ImageFetchFailure {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail("bad-url", "not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return fail("bad-url", `scheme ${url.protocol} is not http or https`);
  if (url.hostname === "") return fail("bad-url", "no host");
  return { ok: true, url };
}

/** Every address the host has must be allowed (a client could pick any of them); returns the one to connect to. */
async function resolveChecked(host: string, allowed: (ip: string) => boolean): Promise<{ address: string; family: 4 | 6 }> {
  const literal = isIP(host);
  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
    } catch (error) {
      throw new Failed(fail("network", `${host} does not resolve: ${(error as NodeJS.ErrnoException).code ?? String(error)}`));
    }
    if (addresses.length === 0) throw new Failed(fail("network", `${host} has no address`));
  }
  const refused = addresses.find((a) => !allowed(a.address));
  if (refused) throw new Failed(fail("private-address", `${host} resolves to ${refused.address}, which is not a public address`));
  return addresses.find((a) => a.family === 4) ?? addresses[0]!;
}

type HopOutcome = { kind: "done"; result: ImageFetchResult } | { kind: "redirect"; location: string };

async function fetchOnce(url: URL, allowed: (ip: string) => boolean, maxBytes: number, signal: AbortSignal): Promise<HopOutcome> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const address = await resolveChecked(host, allowed);
  if (signal.aborted) throw new Failed(fail("timeout", "deadline passed"));
  const https = url.protocol === "https:";
  const request = https ? httpsRequest : httpRequest;

  return new Promise<HopOutcome>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: HopOutcome | Failed) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      req.destroy();
      if (outcome instanceof Failed) reject(outcome);
      else resolve(outcome);
    };
    const onAbort = () => settle(new Failed(fail("timeout", "deadline passed")));
    signal.addEventListener("abort", onAbort);

    const req = request(
      {
        // The checked address, never the name: nothing resolves it again.
        host: address.address,
        family: address.family,
        port: url.port ? Number(url.port) : https ? 443 : 80,
        method: "GET",
        path: url.pathname + url.search,
        headers: { host: url.host, accept: IMAGE_CONTENT_TYPES.join(", "), "user-agent": "storefront-search-image-analysis" },
        // Certificates are checked against the URL's name (an IP literal: against the address itself).
        ...(https ? { servername: isIP(host) ? undefined : host, rejectUnauthorized: true } : {}),
        agent: false,
      },
      (res) => onResponse(res),
    );
    req.on("error", (error: Error & { code?: string }) =>
      settle(new Failed(fail("network", error.code ? `${error.code}: ${error.message}` : error.message))),
    );
    req.end();

    function onResponse(res: IncomingMessage): void {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && status !== 304) {
        const location = res.headers.location;
        if (!location) return settle(new Failed(fail("http-status", `HTTP ${status} without a Location`)));
        let next: string;
        try {
          next = new URL(location, url).toString();
        } catch {
          return settle(new Failed(fail("redirect", `HTTP ${status} to an unreadable Location`)));
        }
        return settle({ kind: "redirect", location: next });
      }
      if (status < 200 || status >= 300) return settle(new Failed(fail("http-status", `HTTP ${status}`)));
      const contentType = (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
      if (!IMAGE_CONTENT_TYPES.includes(contentType)) {
        return settle(
          new Failed(
            fail("bad-content-type", `Content-Type ${JSON.stringify(res.headers["content-type"] ?? "")} is not an image type we decode`),
          ),
        );
      }
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > maxBytes) {
        return settle(new Failed(fail("too-large", `Content-Length ${declared} is over ${maxBytes} bytes`)));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        // Stop reading at once: a body that never ends must not fill memory.
        if (size > maxBytes) return settle(new Failed(fail("too-large", `body over ${maxBytes} bytes`)));
        chunks.push(chunk);
      });
      res.on("end", () => settle({ kind: "done", result: { ok: true, bytes: Buffer.concat(chunks), contentType, url: url.toString() } }));
      // After "end" this finds the hop settled; before it, the body was cut short.
      res.on("close", () => settle(new Failed(fail("network", "connection closed before the body ended"))));
      res.on("error", (error) => settle(new Failed(fail("network", error.message))));
    }
  });
}
