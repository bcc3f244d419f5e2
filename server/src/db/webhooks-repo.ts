import type { Database } from "bun:sqlite";

/* Webhook subscriptions and their outbox of deliveries (modules/webhooks/). */

export interface SubscriptionRow {
  id: string;
  storeId: string;
  url: string;
  topic: string;
  /** Signs the calls; never part of a read answer. */
  secret: string;
  createdAt: number;
}

export type DeliveryStatus = "pending" | "succeeded" | "failed" | "dead";
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "succeeded", "failed", "dead"];

export interface AttemptRecord {
  /** When the attempt started (ms). */
  at: number;
  /** The receiver's HTTP status, or null when there was none (time-out, connection failure, interruption). */
  status: number | null;
  /** Null when unknown (an attempt a stopped process left in flight). */
  durationMs: number | null;
  error: string | null;
}

export interface DeliveryRow {
  seq: number;
  id: string;
  subscriptionId: string;
  storeId: string;
  productId: string;
  productVersion: number;
  stage: string;
  body: string;
  status: DeliveryStatus;
  attempts: AttemptRecord[];
  /** Attempts since the delivery was queued or redelivered: its position in the retry schedule. */
  roundAttempts: number;
  nextAttemptAt: number | null;
  /** The number of the attempt in flight, or null. */
  inFlight: number | null;
  inFlightAt: number | null;
  createdAt: number;
}

interface RawSubscription {
  id: string;
  store_id: string;
  url: string;
  topic: string;
  secret: string;
  created_at: number;
}

interface RawDelivery {
  seq: number;
  id: string;
  subscription_id: string;
  store_id: string;
  product_id: string;
  product_version: number;
  stage: string;
  body: string;
  status: DeliveryStatus;
  attempts: string;
  round_attempts: number;
  next_attempt_at: number | null;
  in_flight: number | null;
  in_flight_at: number | null;
  created_at: number;
}

const SUBSCRIPTION_COLUMNS = "id, store_id, url, topic, secret, created_at";
const DELIVERY_COLUMNS =
  "seq, id, subscription_id, store_id, product_id, product_version, stage, body, status, attempts, round_attempts, next_attempt_at, in_flight, in_flight_at, created_at";

/** A delivery keeps the history of its last attempts only (redeliveries could grow it without end). */
export const MAX_KEPT_ATTEMPTS = 100;

const toSubscription = (r: RawSubscription): SubscriptionRow => ({
  id: r.id,
  storeId: r.store_id,
  url: r.url,
  topic: r.topic,
  secret: r.secret,
  createdAt: r.created_at,
});

const toDelivery = (r: RawDelivery): DeliveryRow => ({
  seq: r.seq,
  id: r.id,
  subscriptionId: r.subscription_id,
  storeId: r.store_id,
  productId: r.product_id,
  productVersion: r.product_version,
  stage: r.stage,
  body: r.body,
  status: r.status,
  attempts: JSON.parse(r.attempts) as AttemptRecord[],
  roundAttempts: r.round_attempts,
  nextAttemptAt: r.next_attempt_at,
  inFlight: r.in_flight,
  inFlightAt: r.in_flight_at,
  createdAt: r.created_at,
});

export interface DeliveryFilter {
  status?: DeliveryStatus;
  productId?: string;
  /** Only deliveries older than this seq (the previous page's cursor). */
  beforeSeq?: number;
  limit: number;
}

/** How a finished attempt changes its delivery. */
export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number | null;
  /** Set when the delivery is done (succeeded or dead). */
  finishedAt: number | null;
}

export class WebhooksRepo {
  constructor(private readonly db: Database) {}

  createSubscription(s: SubscriptionRow): void {
    this.db
      .query("INSERT INTO webhook_subscriptions (id, store_id, url, topic, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(s.id, s.storeId, s.url, s.topic, s.secret, s.createdAt);
  }

  /** Creates the subscription unless the store has `max` already; false when it has (checked and written in one transaction). */
  createSubscriptionWithin(s: SubscriptionRow, max: number): boolean {
    return this.db.transaction(() => {
      if (this.countSubscriptions(s.storeId) >= max) return false;
      this.createSubscription(s);
      return true;
    })();
  }

  countSubscriptions(storeId: string): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM webhook_subscriptions WHERE store_id = ? AND deleted = 0").get(storeId) as { n: number }).n;
  }

  subscriptions(storeId: string): SubscriptionRow[] {
    const rows = this.db
      .query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE store_id = ? AND deleted = 0 ORDER BY created_at, id`)
      .all(storeId) as RawSubscription[];
    return rows.map(toSubscription);
  }

  subscription(storeId: string, id: string): SubscriptionRow | null {
    const row = this.db
      .query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = ? AND store_id = ? AND deleted = 0`)
      .get(id, storeId) as RawSubscription | null;
    return row ? toSubscription(row) : null;
  }

  /** Every live subscription of every store (the dispatcher's round). */
  activeSubscriptions(): SubscriptionRow[] {
    return (this.db.query(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE deleted = 0`).all() as RawSubscription[]).map(toSubscription);
  }

  setSecret(storeId: string, id: string, secret: string): boolean {
    return this.db.query("UPDATE webhook_subscriptions SET secret = ? WHERE id = ? AND store_id = ? AND deleted = 0").run(secret, id, storeId).changes > 0;
  }

  /** Marks the subscription deleted and gives up its waiting deliveries (one in flight finishes as it goes). */
  deleteSubscription(storeId: string, id: string, now: number): boolean {
    return this.db.transaction(() => {
      const deleted = this.db.query("UPDATE webhook_subscriptions SET deleted = 1 WHERE id = ? AND store_id = ? AND deleted = 0").run(id, storeId).changes > 0;
      if (deleted) {
        this.db
          .query("UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, finished_at = ? WHERE subscription_id = ? AND next_attempt_at IS NOT NULL")
          .run(now, id);
      }
      return deleted;
    })();
  }

  deliveries(subscriptionId: string, filter: DeliveryFilter): DeliveryRow[] {
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

  delivery(subscriptionId: string, id: string): DeliveryRow | null {
    const row = this.db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ? AND subscription_id = ?`).get(id, subscriptionId) as RawDelivery | null;
    return row ? toDelivery(row) : null;
  }

  /** Up to `limit` deliveries of a subscription due at `now`, the longest waiting first. */
  due(subscriptionId: string, now: number, limit: number): DeliveryRow[] {
    const rows = this.db
      .query(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
         WHERE subscription_id = ? AND next_attempt_at IS NOT NULL AND next_attempt_at <= ?
         ORDER BY next_attempt_at, seq LIMIT ?`,
      )
      .all(subscriptionId, now, limit) as RawDelivery[];
    return rows.map(toDelivery);
  }

  /** When a subscription's next delivery is due, or null when none waits. */
  earliestDue(subscriptionId: string): number | null {
    const row = this.db
      .query("SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE subscription_id = ? AND next_attempt_at IS NOT NULL")
      .get(subscriptionId) as { at: number | null };
    return row.at;
  }

  /**
   * Marks a waiting delivery in flight with its attempt's number, committed before the call is made: only one
   * caller can win it, and a process that dies leaves a row that says so. False when it was not waiting any more.
   */
  claim(id: string, attempt: number, now: number): boolean {
    return (
      this.db
        .query(
          `UPDATE webhook_deliveries SET in_flight = ?, in_flight_at = ?, next_attempt_at = NULL
           WHERE id = ? AND next_attempt_at IS NOT NULL AND in_flight IS NULL AND round_attempts = ?`,
        )
        .run(attempt, now, id, attempt - 1).changes > 0
    );
  }

  /** Deliveries left in flight (by a process that stopped or died before recording the answer). */
  inFlight(): DeliveryRow[] {
    return (this.db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE in_flight IS NOT NULL`).all() as RawDelivery[]).map(toDelivery);
  }

  /**
   * Records attempt `attempt` of a delivery and its consequence, if that attempt is still the one in flight.
   * False when it was not (recorded already).
   */
  finishAttempt(id: string, attempt: number, record: AttemptRecord, outcome: AttemptOutcome): boolean {
    return this.db.transaction(() => {
      const row = this.db
        .query(
          `SELECT d.attempts, s.deleted FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
           WHERE d.id = ? AND d.in_flight = ?`,
        )
        .get(id, attempt) as { attempts: string; deleted: number } | null;
      if (!row) return false;
      const attempts = [...(JSON.parse(row.attempts) as AttemptRecord[]), record].slice(-MAX_KEPT_ATTEMPTS);
      // The subscription was deleted during the call: no retry.
      if (row.deleted && outcome.status === "failed") outcome = { status: "dead", nextAttemptAt: null, finishedAt: record.at + (record.durationMs ?? 0) };
      this.db
        .query(
          `UPDATE webhook_deliveries SET attempts = ?, round_attempts = ?, status = ?, next_attempt_at = ?, finished_at = ?,
             in_flight = NULL, in_flight_at = NULL
           WHERE id = ?`,
        )
        .run(JSON.stringify(attempts), attempt, outcome.status, outcome.nextAttemptAt, outcome.finishedAt, id);
      return true;
    })();
  }

  /**
   * Queues a delivery again from the start of the retry schedule, due at `now`. "in_flight" when an attempt is
   * being made right now; null when there is no such delivery.
   */
  redeliver(subscriptionId: string, id: string, now: number): DeliveryRow | "in_flight" | null {
    return this.db.transaction(() => {
      const row = this.delivery(subscriptionId, id);
      if (!row) return null;
      if (row.inFlight !== null) return "in_flight";
      this.db
        .query("UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = ?, finished_at = NULL WHERE id = ?")
        .run(now, id);
      return { ...row, status: "pending" as const, roundAttempts: 0, nextAttemptAt: now };
    })();
  }

  /** Deletes up to `limit` deliveries finished before `before`; returns how many. */
  pruneFinished(before: number, limit: number): number {
    return this.db
      .query("DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < ? LIMIT ?)")
      .run(before, limit).changes;
  }
}
