import type { Database } from "bun:sqlite";
import { randomBytes } from "node:crypto";

/*
 * The producers' side of webhooks: a stage that found something about a product queues its calls here, in the
 * transaction that commits what it found. The dispatcher (webhook-dispatcher.ts) sends them; it also polls for
 * due rows every 250 ms, so rows written by another connection or process are picked up without a wake().
 */

/** The one topic so far: features and generated content of a product (the spec's tag generation). */
export const TAGS_TOPIC = "tags";
export const WEBHOOK_TOPICS: readonly string[] = [TAGS_TOPIC];

export const newDeliveryId = () => `whd_${randomBytes(12).toString("hex")}`;

/**
 * Queues one delivery per subscription of the store for `topic` ("tags"), inside the caller's open transaction.
 * Returns how many. `body` is the call's JSON body, sent byte for byte as given (and signed as it is); `now`
 * (ms) is when the first attempt is due.
 */
export function enqueueDeliveries(
  db: Database,
  d: { storeId: string; productId: string; productVersion: number; stage: string; body: string; now: number },
): number {
  const subscriptions = db
    .query("SELECT id FROM webhook_subscriptions WHERE store_id = ? AND topic = ? AND deleted = 0")
    .all(d.storeId, TAGS_TOPIC) as { id: string }[];
  if (subscriptions.length === 0) return 0;
  const insert = db.query(
    `INSERT INTO webhook_deliveries (id, subscription_id, store_id, product_id, product_version, stage, body, status, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  );
  for (const s of subscriptions) insert.run(newDeliveryId(), s.id, d.storeId, d.productId, d.productVersion, d.stage, d.body, d.now, d.now);
  return subscriptions.length;
}
