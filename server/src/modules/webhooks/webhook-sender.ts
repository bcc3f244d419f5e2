import { request } from "node:https";
import { isIP } from "node:net";
import { rootCertificates } from "node:tls";
import { readFileSync } from "node:fs";
import { RefusedAddressError, resolvePublic, UnresolvedHostError, type ResolvedAddress } from "../../http/outbound-address.ts";

/*
 * One webhook call over HTTPS, through node:https (Bun's fetch ignores a custom agent, and its own DNS lookup
 * could not be pinned). The host is resolved and checked first, then the connection goes to that address with
 * the URL's host name as TLS server name and Host header (resolve, then pin). Redirects are not followed (a 3xx
 * is a failure), a failure's answer is read up to 64 KiB, and there is one deadline for the whole attempt.
 */

/** At most this much of an answer is read; the rest is not waited for. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** How much of a failed answer's body is kept with the attempt, for the store to see why. */
const ERROR_SNIPPET_CHARS = 200;

export interface SendResult {
  ok: boolean;
  /** The receiver's status, or null when it gave none. */
  status: number | null;
  durationMs: number;
  error: string | null;
  /** The attempt was cut short by the service stopping: its outcome is unknown. */
  interrupted: boolean;
}

export interface SendOptions {
  url: URL;
  headers: Record<string, string>;
  body: string;
  /** Trusted CAs: the usual roots plus WEBHOOK_CA_FILE's; undefined: the usual roots. */
  ca?: string[];
  allowPrivateNetworks: boolean;
  timeoutMs: number;
  /** Aborting it (the service stops) ends the attempt as interrupted. */
  signal: AbortSignal;
}

/** The CAs to trust: the usual roots, plus the PEM file's certificates when one is configured. */
export function trustedCas(caFile: string | null): string[] | undefined {
  return caFile ? [...rootCertificates, readFileSync(caFile, "utf8")] : undefined;
}

function snippet(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return clean.length > ERROR_SNIPPET_CHARS ? clean.slice(0, ERROR_SNIPPET_CHARS) + "…" : clean;
}

function describe(error: Error & { code?: string }): string {
  const message = error.message || String(error);
  return error.code && !message.includes(error.code) ? `${error.code}: ${message}` : message;
}

export async function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const hostname = opts.url.hostname.replace(/^\[|\]$/g, "");
  const timeoutError = `timeout: no answer within ${opts.timeoutMs / 1000} s`;
  const interrupted: SendResult = {
    ok: false,
    status: null,
    durationMs: 0,
    error: "interrupted: the service stopped before the receiver answered",
    interrupted: true,
  };
  if (opts.signal.aborted) return { ...interrupted, durationMs: elapsed() };

  let address: ResolvedAddress;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    address = await Promise.race([
      resolvePublic(hostname, opts.allowPrivateNetworks),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(timeoutError)), opts.timeoutMs);
      }),
    ]);
  } catch (error) {
    const message =
      error instanceof RefusedAddressError
        ? `refused: ${error.message}`
        : error instanceof UnresolvedHostError
          ? `dns: ${error.message}`
          : (error as Error).message;
    return { ok: false, status: null, durationMs: elapsed(), error: message, interrupted: false };
  } finally {
    clearTimeout(timer);
  }

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let status: number | null = null;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      opts.signal.removeEventListener("abort", onAbort);
      req.destroy();
      resolve({ ...result, durationMs: elapsed() });
    };
    const body = Buffer.from(opts.body, "utf8");
    const req = request(
      {
        host: address.address,
        family: address.family,
        port: opts.url.port ? Number(opts.url.port) : 443,
        method: "POST",
        path: opts.url.pathname + opts.url.search,
        // Certificates are checked against the URL's name (an IP literal: against the address itself).
        servername: isIP(hostname) ? undefined : hostname,
        headers: { ...opts.headers, host: opts.url.host, "content-type": "application/json", "content-length": String(body.length) },
        ca: opts.ca,
        rejectUnauthorized: true,
        agent: false,
      },
      (res) => {
        status = res.statusCode ?? null;
        const ok = status !== null && status >= 200 && status < 300;
        const error =
          status === null
            ? "no status in the answer"
            : ok
              ? null
              : status >= 300 && status < 400
                ? `HTTP ${status}: redirects are not followed`
                : `HTTP ${status}`;
        // The status decides. A success's body is not waited for; a failure's is read (capped, within the
        // deadline) only to show why it failed.
        if (ok) return finish({ ok, status, error: null, interrupted: false });
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = snippet(Buffer.concat(chunks).toString("utf8"));
          finish({ ok, status, error: error && text ? `${error}: ${text}` : error, interrupted: false });
        };
        res.on("data", (chunk: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
          size += chunk.length;
          if (size >= MAX_RESPONSE_BYTES) done();
        });
        res.on("end", done);
        res.on("close", done);
        res.on("error", done);
      },
    );
    const deadline = setTimeout(
      () => {
        // After a failure's status arrived, its slow body does not change the outcome.
        if (status !== null) finish({ ok: false, status, error: `HTTP ${status}`, interrupted: false });
        else finish({ ok: false, status: null, error: timeoutError, interrupted: false });
      },
      Math.max(1, opts.timeoutMs - elapsed()),
    );
    const onAbort = () => finish({ ...interrupted });
    opts.signal.addEventListener("abort", onAbort);
    req.on("error", (error: Error & { code?: string }) => finish({ ok: false, status, error: describe(error), interrupted: false }));
    req.end(body);
  });
}
