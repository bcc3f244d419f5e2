import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/platform/sqlite/connection.ts";
import { webhookReceiver, type ReceivedCall, type ReceiverOptions } from "../../src/modules/webhooks/reference-receiver.ts";
import { enqueueDeliveriesIn } from "../../src/modules/webhooks/storage/webhooks.sqlite.ts";
import type { TestCerts } from "./test-certs.ts";

/* Webhook test helpers: the reference receiver on HTTPS with what it saw, and queuing deliveries from outside. */

export interface CallSeen {
  deliveryId: string | null;
  /** performance.now() when the handler started and ended (ends are set when the receiver answered). */
  start: number;
  end: number | null;
  status: number | null;
}

export interface TestReceiver {
  url: string;
  port: number;
  /** Every request, in arrival order, with the status the receiver answered. */
  calls: CallSeen[];
  close(): Promise<void>;
}

/** The reference receiver (in this process) on 127.0.0.1 with the test certificate, recording every request. */
export async function startTestReceiver(certs: TestCerts, opts: ReceiverOptions): Promise<TestReceiver> {
  const handler = webhookReceiver(opts);
  const calls: CallSeen[] = [];
  const server = createServer(
    { cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) },
    (req: IncomingMessage, res: ServerResponse) => {
      const id = req.headers["x-service-delivery-id"];
      const seen: CallSeen = { deliveryId: typeof id === "string" ? id : null, start: performance.now(), end: null, status: null };
      calls.push(seen);
      res.on("finish", () => {
        seen.end = performance.now();
        seen.status = res.statusCode;
      });
      handler(req, res);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://localhost:${port}`,
    port,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Queues deliveries in the server's database file from this process, as the enrichment stage would. */
export function enqueueFromOutside(
  dataDir: string,
  items: { storeId: string; productId: string; productVersion?: number; stage?: string; body: string }[],
): number {
  const db = openDatabase(join(dataDir, "service.db"), { synchronous: "NORMAL" });
  try {
    return db.transaction(() =>
      items.reduce(
        (n, i) =>
          n +
          enqueueDeliveriesIn(db, {
            storeId: i.storeId,
            productId: i.productId,
            productVersion: i.productVersion ?? 1,
            stage: i.stage ?? "text",
            body: i.body,
            now: Date.now(),
          }),
        0,
      ),
    )();
  } finally {
    db.close();
  }
}

/** A body of the spec's shape for a product. */
export function tagsBody(productId: string, version = 1): string {
  return JSON.stringify({
    id: `sp_${productId}`,
    productId,
    category: "Shirts",
    attributes: {
      colour: {
        displayName: { en: "Colour", de: "Farbe" },
        attributesValues: [
          { navy: { displayName: { en: "Navy", de: "Marineblau" }, synonyms: [{ dark_blue: { displayName: { en: "Dark blue" } } }] } },
        ],
      },
    },
    productVersion: version,
    generatedContent: [{ fieldName: "title", values: { en: "Navy shirt — Ünïcode ✓", de: "Marineblaues Hemd" } }],
  });
}

export async function until<T>(check: () => T | Promise<T>, timeoutMs: number, what: string): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await Bun.sleep(20);
  }
}

export type { ReceivedCall };
