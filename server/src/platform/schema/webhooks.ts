import type { Dialect } from "./dialect.ts";
import { createTable, STORE_ID, type Table } from "./table.ts";

/* Webhook subscriptions (modules/webhooks/) and the outbox of calls to make. */

/**
 * The secret is kept as it is (calls are signed with it) and is only ever shown in the answers that create or
 * rotate it. A deleted subscription stays as a tombstone.
 */
export const webhookSubscriptions = (d: Dialect): Table => ({
  name: "webhook_subscriptions",
  columns: [
    "id          TEXT PRIMARY KEY",
    STORE_ID,
    "url         TEXT NOT NULL",
    "topic       TEXT NOT NULL",
    "secret      TEXT NOT NULL",
    `created_at  ${d.bigint} NOT NULL`,
    "deleted     INTEGER NOT NULL DEFAULT 0",
  ],
});

export const webhookSubscriptionsStoreIndex =
  "CREATE INDEX webhook_subscriptions_store ON webhook_subscriptions(store_id, topic) WHERE deleted = 0";

/**
 * One row per call to make, written in the transaction of what it reports. next_attempt_at is set while it waits
 * (pending, failed), NULL while an attempt is in flight (in_flight: its number, in_flight_at: when it was claimed)
 * and once it is done (succeeded, dead). round_attempts counts the attempts since it was queued or redelivered (the
 * retry schedule's position); attempts holds every attempt's { at, status, durationMs, error }.
 */
export const webhookDeliveries = (d: Dialect): Table => ({
  name: "webhook_deliveries",
  columns: [
    `seq              ${d.autoId}`,
    "id               TEXT NOT NULL UNIQUE",
    "subscription_id  TEXT NOT NULL REFERENCES webhook_subscriptions(id) ON DELETE CASCADE",
    STORE_ID,
    "product_id       TEXT NOT NULL",
    `product_version  ${d.bigint} NOT NULL`,
    "stage            TEXT NOT NULL",
    "body             TEXT NOT NULL",
    "status           TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'dead'))",
    "attempts         TEXT NOT NULL DEFAULT '[]'",
    "round_attempts   INTEGER NOT NULL DEFAULT 0",
    `next_attempt_at  ${d.bigint}`,
    "in_flight        INTEGER",
    `in_flight_at     ${d.bigint}`,
    `created_at       ${d.bigint} NOT NULL`,
    `finished_at      ${d.bigint}`,
  ],
});

export const webhookDeliveriesDueIndex =
  "CREATE INDEX webhook_deliveries_due ON webhook_deliveries(subscription_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL";
export const webhookDeliveriesListedIndex = "CREATE INDEX webhook_deliveries_listed ON webhook_deliveries(subscription_id, seq)";
export const webhookDeliveriesProductIndex =
  "CREATE INDEX webhook_deliveries_product ON webhook_deliveries(subscription_id, product_id, seq)";
export const webhookDeliveriesFinishedIndex =
  "CREATE INDEX webhook_deliveries_finished ON webhook_deliveries(finished_at) WHERE finished_at IS NOT NULL";

/** SQLite's one process releases every delivery in flight when it starts. */
export const sqliteInFlightIndex = "CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries(in_flight) WHERE in_flight IS NOT NULL";
/** PostgreSQL's replicas claim a delivery again once its claim's lease, counted from in_flight_at, ran out. */
export const postgresInFlightIndex =
  "CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries(in_flight_at) WHERE in_flight IS NOT NULL";

/** The subscriptions and the outbox with their indexes, as each database created them: in one migration. */
export const createWebhookTables = (d: Dialect, inFlightIndex: string): string[] => [
  createTable(webhookSubscriptions(d)),
  webhookSubscriptionsStoreIndex,
  createTable(webhookDeliveries(d)),
  webhookDeliveriesDueIndex,
  inFlightIndex,
  webhookDeliveriesListedIndex,
  webhookDeliveriesProductIndex,
  webhookDeliveriesFinishedIndex,
];
