import type { Dialect } from "./dialect.ts";
import { STORE_ID, type Table } from "./table.ts";

/*
 * The catalog, the source of truth for products (the engine can always be rebuilt from it), and the indexing
 * queue that carries changes from the API to the engine.
 */

/**
 * Deleted products stay as tombstones so versions keep increasing. On SQLite a row also holds the product's shaped
 * Search product (shaping, shaped: added by its own migrations), where PostgreSQL keeps search_products.
 */
export const products = (d: Dialect): Table => ({
  name: "products",
  columns: [
    STORE_ID,
    `id            ${d.sortedText} NOT NULL`,
    `version       ${d.bigint} NOT NULL`,
    "content_hash  TEXT",
    "doc           TEXT",
    `deleted       ${d.smallint} NOT NULL DEFAULT 0`,
    `updated_at    ${d.bigint} NOT NULL`,
  ],
  key: `${d.largeRowKey} (store_id, id)`,
});

/**
 * Each product's Search product JSON, shaped once (at indexing, or on first view after the shaping settings
 * changed) so a results page sends stored fragments. "shaping" names the settings and code version it was shaped
 * with; a row with another one is shaped again when next read. SQLite has since moved these into the products row
 * (see its migrations); PostgreSQL keeps them here.
 */
export const searchProducts = (d: Dialect): Table => ({
  name: "search_products",
  columns: [STORE_ID, `id        ${d.sortedText} NOT NULL`, "shaping   TEXT NOT NULL", "json      TEXT NOT NULL"],
  key: `${d.largeRowKey} (store_id, id)`,
});

/**
 * Indexing tasks. seq orders them; cursor is how many payload items were applied (bulk tasks apply in chunks);
 * warnings counts the null optionals and blank strings a bulk dropped, rejected lists the first products it refused.
 * Each database has its own index of pending tasks.
 */
export const tasks = (d: Dialect): Table => ({
  name: "tasks",
  columns: [
    `seq             ${d.autoId}`,
    "id              TEXT NOT NULL UNIQUE",
    STORE_ID,
    "kind            TEXT NOT NULL CHECK (kind IN ('upsert', 'delete'))",
    "status          TEXT NOT NULL CHECK (status IN ('pending', 'complete', 'error'))",
    `item_count      ${d.bigint} NOT NULL`,
    `cursor          ${d.bigint} NOT NULL DEFAULT 0`,
    `attempts        ${d.bigint} NOT NULL DEFAULT 0`,
    `next_run_at     ${d.bigint} NOT NULL DEFAULT 0`,
    "message         TEXT",
    `warnings        ${d.bigint} NOT NULL DEFAULT 0`,
    `rejected_count  ${d.bigint} NOT NULL DEFAULT 0`,
    "rejected        TEXT NOT NULL DEFAULT '[]'",
    `created_at      ${d.bigint} NOT NULL`,
    `updated_at      ${d.bigint} NOT NULL`,
  ],
});

/** SQLite's one process takes pending tasks in order, whatever their store. */
export const sqlitePendingTasksIndex = "CREATE INDEX tasks_pending ON tasks(seq) WHERE status = 'pending'";
/** PostgreSQL's replicas take pending tasks store by store (one replica holds a store's lease), each store's in order. */
export const postgresPendingTasksIndex = "CREATE INDEX tasks_pending ON tasks(store_id, seq) WHERE status = 'pending'";

/**
 * Task payloads in their own table, kept until the task ends. In the tasks row, every progress update rewrote a
 * bulk task's whole payload (19 MB for 10,000 products, once per batch: 54 ms), and reading any column stored after
 * it (cursor, status reports) walked its overflow pages (11 ms per task poll).
 */
export const taskPayloads = (d: Dialect): Table => ({
  name: "task_payloads",
  columns: [`seq      ${d.bigint} PRIMARY KEY REFERENCES tasks(seq) ON DELETE CASCADE`, "payload  TEXT NOT NULL"],
});
