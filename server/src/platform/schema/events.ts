import type { Dialect } from "./dialect.ts";
import { keyedByStore, STORE_ID, type Table } from "./table.ts";

/* Shopper events, appended as received, and the purchase signals counted from them (sortBy=purchase). */

/** seq is the events' arrival order, which the analytics worker reads them in. */
export const events = (d: Dialect): Table => ({
  name: "events",
  columns: [
    `seq          ${d.autoId}`,
    STORE_ID,
    "type         TEXT NOT NULL",
    `received_at  ${d.bigint} NOT NULL`,
    "user_id      TEXT",
    "session_id   TEXT",
    "api_version  TEXT NOT NULL",
    "data         TEXT NOT NULL",
  ],
});

export const eventsStoreTimeIndex = "CREATE INDEX events_store_time ON events(store_id, received_at, seq)";
/** Erasing a user (DELETE /users/{userId}) finds their events without reading every event. */
export const eventsUserIndex = "CREATE INDEX events_user ON events(store_id, user_id) WHERE user_id IS NOT NULL";

export const productSignals = (d: Dialect): Table =>
  keyedByStore(d, "product_signals", {
    key: ["product_id  TEXT NOT NULL"],
    values: [`purchases   ${d.double} NOT NULL DEFAULT 0`],
  });

/** Orders already counted, so OrderComplete and Purchase of one order count once. */
export const countedOrders = (d: Dialect): Table =>
  keyedByStore(d, "counted_orders", {
    key: ["order_id  TEXT NOT NULL"],
  });

/** sortBy=purchase counts like behaviour ranking: one shopper (user id, else session id) buys a product once a day. */
export const purchaseBuyers = (d: Dialect): Table =>
  keyedByStore(d, "purchase_buyers", {
    key: ["day         TEXT NOT NULL", "actor       TEXT NOT NULL", "product_id  TEXT NOT NULL"],
  });
