import type { Database } from "bun:sqlite";
import { newDeliveryId, TAGS_TOPIC } from "../webhook-outbox.ts";
import {
  DELIVERY_COLUMNS,
  SUBSCRIPTION_COLUMNS,
  settleAttempt,
  toDelivery,
  toSubscription,
  type AttemptOutcome,
  type AttemptRecord,
  type DeliveryFilter,
  type DeliveryRow,
  type NewDeliveries,
  type RawDelivery,
  type RawSubscription,
  type SubscriptionRow,
  type WebhooksRepository,
} from "./webhooks-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** Webhook subscriptions and the outbox in the embedded database. */
export class SqliteWebhooksRepo implements WebhooksRepository {
  constructor(private readonly db: Database) {}

  async createSubscriptionWithin(s: SubscriptionRow, max: number): Promise<boolean> {
    return writeTransaction(this.db, () => {
      const live = this.db.query("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE store_id = ? AND deleted = 0").get(s.storeId) as {
        n: number;
      };
      if (live.n >= max) return false;
      this.db
        .query("INSERT INTO webhook_subscriptions (id, store_id, url, topic, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .run(s.id, s.storeId, s.url, s.topic, s.secret, s.createdAt);
      return true;
    })();
  }

  async subscriptions(storeId: string): Promise<SubscriptionRow[]> {
    const rows = this.db
      .query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE store_id = ? AND deleted = 0 ORDER BY created_at, id`)
      .all(storeId) as RawSubscription[];
    return rows.map(toSubscription);
  }

  async subscription(storeId: string, id: string): Promise<SubscriptionRow | null> {
    const row = this.db
      .query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND store_id = ? AND deleted = 0`)
      .get(id, storeId) as RawSubscription | null;
    return row ? toSubscription(row) : null;
  }

  async activeSubscriptions(): Promise<SubscriptionRow[]> {
    return (this.db.query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE deleted = 0`).all() as RawSubscription[]).map(
      toSubscription,
    );
  }

  async setSecret(storeId: string, id: string, secret: string): Promise<boolean> {
    return (
      this.db.query("UPDATE webhook_subscriptions SET secret = ? WHERE id = ? AND store_id = ? AND deleted = 0").run(secret, id, storeId)
        .changes > 0
    );
  }

  async deleteSubscription(storeId: string, id: string, now: number): Promise<boolean> {
    return writeTransaction(this.db, () => {
      const deleted =
        this.db.query("UPDATE webhook_subscriptions SET deleted = 1 WHERE id = ? AND store_id = ? AND deleted = 0").run(id, storeId)
          .changes > 0;
      if (deleted) {
        this.db
          .query(
            "UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, finished_at = ? WHERE subscription_id = ? AND next_attempt_at IS NOT NULL",
          )
          .run(now, id);
      }
      return deleted;
    })();
  }

  async enqueue(d: NewDeliveries): Promise<number> {
    return writeTransaction(this.db, () => enqueueDeliveriesIn(this.db, d))();
  }

  async deliveries(subscriptionId: string, filter: DeliveryFilter): Promise<DeliveryRow[]> {
    const where = ["subscription_id = ?"];
    const args: (string | number)[] = [subscriptionId];
    if (filter.status) {
      where.push("status = ?");
      args.push(filter.status);
    }
    if (filter.productId !== undefined) {
      where.push("product_id = ?");
      args.push(filter.productId);
    }
    if (filter.beforeSeq !== undefined) {
      where.push("seq < ?");
      args.push(filter.beforeSeq);
    }
    args.push(filter.limit);
    const rows = this.db
      .query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT ?`)
      .all(...args) as RawDelivery[];
    return rows.map(toDelivery);
  }

  async delivery(subscriptionId: string, id: string): Promise<DeliveryRow | null> {
    return this.deliveryNow(subscriptionId, id);
  }

  async claimDue(subscriptionId: string, now: number, limit: number): Promise<DeliveryRow[]> {
    // One writer at a time (the database's lock): a row still waiting when its UPDATE runs is this caller's.
    return writeTransaction(this.db, () => {
      const due = this.db
        .query(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
           WHERE subscription_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
           ORDER BY next_attempt_at, seq LIMIT ?`,
        )
        .all(subscriptionId, now, limit) as RawDelivery[];
      const claim = this.db.query(
        `UPDATE webhook_deliveries SET in_flight = round_attempts + 1, in_flight_at = ?, next_attempt_at = NULL
         WHERE id = ? AND next_attempt_at IS NOT NULL AND in_flight IS NULL`,
      );
      return due
        .filter((r) => claim.run(now, r.id).changes > 0)
        .map((r) => toDelivery({ ...r, in_flight: r.round_attempts + 1, in_flight_at: now, next_attempt_at: null }));
    })();
  }

  async earliestDue(subscriptionId: string): Promise<number | null> {
    const row = this.db
      .query("SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE subscription_id = ? AND next_attempt_at IS NOT NULL")
      .get(subscriptionId) as { at: number | null };
    return row.at;
  }

  async inFlight(startedBefore: number): Promise<DeliveryRow[]> {
    const rows = this.db
      .query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE in_flight IS NOT NULL AND in_flight_at < ?`)
      .all(startedBefore) as RawDelivery[];
    return rows.map(toDelivery);
  }

  async finishAttempt(id: string, attempt: number, record: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
    return writeTransaction(this.db, () => {
      const row = this.db
        .query(
          `SELECT d.attempts, s.deleted FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
           WHERE d.id = ? AND d.in_flight = ?`,
        )
        .get(id, attempt) as { attempts: string; deleted: number } | null;
      if (!row) return false;
      const settled = settleAttempt(row.attempts, row.deleted !== 0, record, outcome);
      this.db
        .query(
          `UPDATE webhook_deliveries SET attempts = ?, round_attempts = ?, status = ?, next_attempt_at = ?, finished_at = ?,
             in_flight = NULL, in_flight_at = NULL
           WHERE id = ?`,
        )
        .run(settled.attempts, attempt, settled.outcome.status, settled.outcome.nextAttemptAt, settled.outcome.finishedAt, id);
      return true;
    })();
  }

  async redeliver(subscriptionId: string, id: string, now: number): Promise<DeliveryRow | "in_flight" | null> {
    return writeTransaction(this.db, () => {
      const row = this.deliveryNow(subscriptionId, id);
      if (!row) return null;
      if (row.inFlight !== null) return "in_flight";
      this.db
        .query("UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = ?, finished_at = NULL WHERE id = ?")
        .run(now, id);
      return { ...row, status: "pending" as const, roundAttempts: 0, nextAttemptAt: now };
    })();
  }

  async pruneFinished(before: number, limit: number): Promise<number> {
    return this.db
      .query(
        "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < ? LIMIT ?)",
      )
      .run(before, limit).changes;
  }

  private deliveryNow(subscriptionId: string, id: string): DeliveryRow | null {
    const row = this.db
      .query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND subscription_id = ?`)
      .get(id, subscriptionId) as RawDelivery | null;
    return row ? toDelivery(row) : null;
  }
}

/**
 * Queues one delivery per subscription of the store for `topic` ("tags"), inside the caller's open transaction.
 * Returns how many. `body` is the call's JSON body, sent byte for byte as given (and signed as it is); `now`
 * (ms) is when the first attempt is due.
 */
export function enqueueDeliveriesIn(db: Database, d: NewDeliveries): number {
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
