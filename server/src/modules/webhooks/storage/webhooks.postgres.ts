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
import type postgres from "postgres";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Webhook subscriptions and the outbox on PostgreSQL, shared by every replica. */
export class PostgresWebhooksRepo implements WebhooksRepository {
  constructor(private readonly sql: Sql) {}

  async createSubscriptionWithin(s: SubscriptionRow, max: number): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      // The store's row locked: replicas creating subscriptions for one store at once take turns, so the count holds.
      await tx`SELECT 1 FROM stores WHERE id = ${s.storeId} FOR UPDATE`;
      const [live] = await tx<
        { n: number }[]
      >`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE store_id = ${s.storeId} AND deleted = 0`;
      if (live!.n >= max) return false;
      await tx`
        INSERT INTO webhook_subscriptions (id, store_id, url, topic, secret, created_at)
        VALUES (${s.id}, ${s.storeId}, ${s.url}, ${s.topic}, ${s.secret}, ${s.createdAt})`;
      return true;
    });
  }

  async subscriptions(storeId: string): Promise<SubscriptionRow[]> {
    const rows = await this.sql.unsafe<RawSubscription[]>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE store_id = $1 AND deleted = 0 ORDER BY created_at, id`,
      [storeId],
    );
    return rows.map(toSubscription);
  }

  async subscription(storeId: string, id: string): Promise<SubscriptionRow | null> {
    const [row] = await this.sql.unsafe<RawSubscription[]>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE id = $1 AND store_id = $2 AND deleted = 0`,
      [id, storeId],
    );
    return row ? toSubscription(row) : null;
  }

  async activeSubscriptions(): Promise<SubscriptionRow[]> {
    return (await this.sql.unsafe<RawSubscription[]>(`SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE deleted = 0`)).map(
      toSubscription,
    );
  }

  async setSecret(storeId: string, id: string, secret: string): Promise<boolean> {
    return (
      (await this.sql`UPDATE webhook_subscriptions SET secret = ${secret} WHERE id = ${id} AND store_id = ${storeId} AND deleted = 0`)
        .count > 0
    );
  }

  async deleteSubscription(storeId: string, id: string, now: number): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const deleted =
        (await tx`UPDATE webhook_subscriptions SET deleted = 1 WHERE id = ${id} AND store_id = ${storeId} AND deleted = 0`).count > 0;
      if (deleted) {
        await tx`
          UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, finished_at = ${now}
          WHERE subscription_id = ${id} AND next_attempt_at IS NOT NULL`;
      }
      return deleted;
    });
  }

  async enqueue(d: NewDeliveries): Promise<number> {
    return this.sql.begin((tx) => enqueueDeliveriesIn(tx, d));
  }

  async deliveries(subscriptionId: string, filter: DeliveryFilter): Promise<DeliveryRow[]> {
    const rows = await this.sql.unsafe<RawDelivery[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
       WHERE subscription_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR product_id = $3) AND ($4::bigint IS NULL OR seq < $4)
       ORDER BY seq DESC LIMIT $5`,
      [subscriptionId, filter.status ?? null, filter.productId ?? null, filter.beforeSeq ?? null, filter.limit],
    );
    return rows.map(toDelivery);
  }

  async delivery(subscriptionId: string, id: string): Promise<DeliveryRow | null> {
    const [row] = await this.sql.unsafe<RawDelivery[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2`,
      [id, subscriptionId],
    );
    return row ? toDelivery(row) : null;
  }

  async claimDue(subscriptionId: string, now: number, limit: number): Promise<DeliveryRow[]> {
    // Rows another replica is claiming right now are skipped, not waited for: it takes them, this one the next.
    const rows = await this.sql.unsafe<(RawDelivery & { due_at: number })[]>(
      `WITH due AS (
         SELECT seq AS due_seq, next_attempt_at AS due_at FROM webhook_deliveries
         WHERE subscription_id = $1 AND next_attempt_at IS NOT NULL AND next_attempt_at <= $2 AND in_flight IS NULL
         ORDER BY next_attempt_at, seq LIMIT $3
         FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries SET in_flight = round_attempts + 1, in_flight_at = $2, next_attempt_at = NULL
       FROM due WHERE seq = due.due_seq
       RETURNING ${DELIVERY_COLUMNS}, due.due_at`,
      [subscriptionId, now, limit],
    );
    // The longest waiting first, as they were due.
    return rows.sort((a, b) => a.due_at - b.due_at || a.seq - b.seq).map(toDelivery);
  }

  async earliestDue(subscriptionId: string): Promise<number | null> {
    const [row] = await this.sql<{ at: number | null }[]>`
      SELECT MIN(next_attempt_at) AS at FROM webhook_deliveries WHERE subscription_id = ${subscriptionId} AND next_attempt_at IS NOT NULL`;
    return row!.at;
  }

  async inFlight(startedBefore: number): Promise<DeliveryRow[]> {
    // Infinity (one process: everything) is no BIGINT: no bound then.
    const bound = Number.isFinite(startedBefore) ? startedBefore : null;
    const rows = await this.sql.unsafe<RawDelivery[]>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE in_flight IS NOT NULL AND ($1::bigint IS NULL OR in_flight_at < $1)`,
      [bound],
    );
    return rows.map(toDelivery);
  }

  async finishAttempt(id: string, attempt: number, record: AttemptRecord, outcome: AttemptOutcome): Promise<boolean> {
    return this.sql.begin(async (tx) => {
      const [row] = await tx<{ attempts: string; deleted: number }[]>`
        SELECT d.attempts, s.deleted FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id
        WHERE d.id = ${id} AND d.in_flight = ${attempt}
        FOR UPDATE OF d`;
      if (!row) return false;
      const settled = settleAttempt(row.attempts, row.deleted !== 0, record, outcome);
      await tx`
        UPDATE webhook_deliveries SET attempts = ${settled.attempts}, round_attempts = ${attempt}, status = ${settled.outcome.status},
          next_attempt_at = ${settled.outcome.nextAttemptAt}, finished_at = ${settled.outcome.finishedAt}, in_flight = NULL, in_flight_at = NULL
        WHERE id = ${id}`;
      return true;
    });
  }

  async redeliver(subscriptionId: string, id: string, now: number): Promise<DeliveryRow | "in_flight" | null> {
    return this.sql.begin(async (tx) => {
      const [raw] = await tx.unsafe<RawDelivery[]>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = $1 AND subscription_id = $2 FOR UPDATE`,
        [id, subscriptionId],
      );
      if (!raw) return null;
      const row = toDelivery(raw);
      if (row.inFlight !== null) return "in_flight";
      await tx`UPDATE webhook_deliveries SET status = 'pending', round_attempts = 0, next_attempt_at = ${now}, finished_at = NULL WHERE id = ${id}`;
      return { ...row, status: "pending" as const, roundAttempts: 0, nextAttemptAt: now };
    });
  }

  async pruneFinished(before: number, limit: number): Promise<number> {
    return (
      await this.sql`
        DELETE FROM webhook_deliveries WHERE seq IN (
          SELECT seq FROM webhook_deliveries WHERE finished_at IS NOT NULL AND finished_at < ${before} LIMIT ${limit})`
    ).count;
  }
}

/** Queues one delivery per subscription of the store to the tags topic, inside the caller's transaction; returns how many. */
export async function enqueueDeliveriesIn(tx: postgres.TransactionSql, d: NewDeliveries): Promise<number> {
  const subscriptions = await tx<{ id: string }[]>`
    SELECT id FROM webhook_subscriptions WHERE store_id = ${d.storeId} AND topic = ${TAGS_TOPIC} AND deleted = 0`;
  if (subscriptions.length === 0) return 0;
  const rows = subscriptions.map((s) => ({
    id: newDeliveryId(),
    subscription_id: s.id,
    store_id: d.storeId,
    product_id: d.productId,
    product_version: d.productVersion,
    stage: d.stage,
    body: d.body,
    status: "pending",
    next_attempt_at: d.now,
    created_at: d.now,
  }));
  await tx`INSERT INTO webhook_deliveries ${tx(rows)}`;
  return rows.length;
}
