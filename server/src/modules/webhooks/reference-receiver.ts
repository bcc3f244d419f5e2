import { existsSync, readFileSync } from "node:fs";
import { appendFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "./verify-webhook.ts";

/*
 * The reference webhook receiver (npm run webhook-receiver): what a store's endpoint has to do, in plain
 * node:https. It answers 403 to a call whose signature (or age) does not check out, 500 when handling a genuine
 * call failed (the service then retries it), 2xx otherwise. A call whose x-service-delivery-id was handled
 * already gets 200 again without being handled twice (the service retries when an answer was lost), and each
 * handled call is appended to a JSON-lines file, which is also where the handled ids are read back from after
 * a restart. It imports nothing from the service but the verify helper.
 */

export interface ReceivedCall {
  receivedAt: string;
  deliveryId: string | null;
  webhookId: string;
  storeId: string;
  topic: string;
  ts: number;
  apiVersion: string | null;
  body: unknown;
}

export interface ReceiverOptions {
  /** The subscription's secret; a function is asked on every call (a secret kept elsewhere, rotated). */
  secret: string | (() => string);
  /** The JSON-lines file handled calls are appended to. */
  outFile: string;
  /** Calls whose x-service-ts is further than this from now are refused (403); default 5 minutes. */
  maxAgeMs?: number;
  /** Larger bodies answer 413; default 1 MiB. */
  maxBodyBytes?: number;
  /** What the store does with a genuine call, before it is recorded; throwing makes the answer 500. */
  onCall?: (call: ReceivedCall) => void | Promise<void>;
}

const DEFAULT_MAX_AGE_MS = 5 * 60 * 1000;
const DEFAULT_MAX_BODY = 1024 * 1024;

function handledIds(outFile: string): Set<string> {
  const ids = new Set<string>();
  if (!existsSync(outFile)) return ids;
  for (const line of readFileSync(outFile, "utf8").split("\n")) {
    if (!line.trim()) continue;
    try {
      const id = (JSON.parse(line) as ReceivedCall).deliveryId;
      if (id) ids.add(id);
    } catch {
      // A line cut short by a crash: its call was not acknowledged, so it comes again.
    }
  }
  return ids;
}

function answer(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** The request handler, for node:https (or node:http behind a TLS-terminating proxy). */
export function webhookReceiver(opts: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const handled = handledIds(opts.outFile);
  const inProgress = new Set<string>();
  const maxBody = opts.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const maxAgeMs = opts.maxAgeMs ?? DEFAULT_MAX_AGE_MS;

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: Buffer) => {
    // The raw bytes as received: parsing and serialising again would change what was signed.
    const secret = typeof opts.secret === "function" ? opts.secret() : opts.secret;
    if (!verifyWebhook(secret, req.headers, raw, { maxAgeMs })) return answer(res, 403, { error: "signature does not match" });
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const deliveryId = header("x-service-delivery-id") ?? null;
    if (deliveryId && handled.has(deliveryId)) return answer(res, 200, { ok: true, duplicate: true });
    // The service never sends one delivery twice at once; if it happens anyway, the second waits for a retry.
    if (deliveryId && inProgress.has(deliveryId)) return answer(res, 409, { error: "this delivery is being handled" });
    let body: unknown;
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch {
      return answer(res, 400, { error: "body is not JSON" });
    }
    const call: ReceivedCall = {
      receivedAt: new Date().toISOString(),
      deliveryId,
      webhookId: header("x-service-webhook-id")!,
      storeId: header("x-service-store-id")!,
      topic: header("x-service-topic")!,
      ts: Number(header("x-service-ts")),
      apiVersion: header("x-service-api-version") ?? null,
      body,
    };
    if (deliveryId) inProgress.add(deliveryId);
    try {
      await opts.onCall?.(call);
      await appendFile(opts.outFile, JSON.stringify(call) + "\n");
      if (deliveryId) handled.add(deliveryId);
    } catch (error) {
      return answer(res, 500, { error: `handling failed: ${(error as Error).message}` });
    } finally {
      if (deliveryId) inProgress.delete(deliveryId);
    }
    answer(res, 200, { ok: true });
  };

  return (req, res) => {
    if (req.method !== "POST") return answer(res, 405, { error: "webhook calls are POST" });
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > maxBody) {
        refused = true;
        answer(res, 413, { error: `body over ${maxBody} bytes` });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (refused) return;
      handle(req, res, Buffer.concat(chunks)).catch((error: Error) => {
        if (!res.headersSent) answer(res, 500, { error: error.message });
      });
    });
  };
}

export interface RunningReceiver {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/** The receiver on HTTPS with the given certificate and key (PEM). */
export async function startWebhookReceiver(
  opts: ReceiverOptions & { cert: string | Buffer; key: string | Buffer; port?: number; host?: string },
): Promise<RunningReceiver> {
  const server = createServer({ cert: opts.cert, key: opts.key }, webhookReceiver(opts));
  const host = opts.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `https://${host.includes(":") ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
