import * as catalog from "../schema/catalog.ts";
import { SQLITE_DIALECT as d } from "../schema/dialect.ts";
import * as enrichment from "../schema/enrichment.ts";
import * as events from "../schema/events.ts";
import * as experiments from "../schema/experiments.ts";
import * as looks from "../schema/looks.ts";
import * as merchandising from "../schema/merchandising.ts";
import * as ranking from "../schema/ranking.ts";
import * as recommendations from "../schema/recommendations.ts";
import * as reports from "../schema/reports.ts";
import * as searchLog from "../schema/search-log.ts";
import * as stores from "../schema/stores.ts";
import { addColumns, createTable, keyedByStore, migration, type Table, withoutColumns } from "../schema/table.ts";
import * as webhooks from "../schema/webhooks.ts";

/*
 * The service's durable state in the embedded database: its history of migrations, rendered from the tables
 * described once in platform/schema/ with SQLite's dialect. The runner counts applied migrations by position
 * (connection.ts, PRAGMA user_version), so append new ones and never edit, reorder or remove one: migration N must
 * create what it created when it was first applied. Where a table's first shape here differs from its description
 * (columns a later migration added or dropped), the migration says so. What only SQLite has is written here.
 */

/** The first products table: WITHOUT ROWID, which migration 2 left for a rowid table (large rows are slow there). */
const firstProducts: Table = { ...catalog.products(d), key: "PRIMARY KEY (store_id, id)", options: d.withoutRowid };

/** What a bulk POST /products dropped or refused, kept with its task since migration 3. */
const TASK_REPORT = ["warnings", "rejected_count", "rejected"];

/** The first tasks table held each task's payload (moved to task_payloads by migration 5) and no bulk report. */
function firstTasks(): Table {
  const columns = withoutColumns(catalog.tasks(d), TASK_REPORT).columns;
  const at = columns.findIndex((c) => c.startsWith("item_count"));
  return { ...catalog.tasks(d), columns: [...columns.slice(0, at), "payload  TEXT NOT NULL", ...columns.slice(at)] };
}

/** Distinct users and sessions per day, until migration 11 replaced them by sketches (reports.reportSketches). */
const reportVisitors: Table = keyedByStore(d, "report_visitors", {
  key: [
    "day       TEXT NOT NULL",
    "kind      TEXT NOT NULL CHECK (kind IN ('user', 'session'))",
    "visitor   TEXT NOT NULL",
    ...reports.DIMENSIONS,
  ],
});

/**
 * How many times a store's shaped Search products changed, counted by the database itself for every writer (the
 * service, the CLI, a cascade from deleting the store): a copy kept in memory is good while the count stays
 * (modules/catalog/shape-cache.ts). Not tied to stores, so a store created again counts on. A shape added is not
 * counted: a shape kept for an id with no row had its row deleted since, which counted.
 */
const shapeEpochs: Table = {
  name: "shape_epochs",
  columns: ["store_id  TEXT PRIMARY KEY", "epoch     INTEGER NOT NULL"],
  options: d.withoutRowid,
};
const countShapeChange = (trigger: string, when: string, row: "NEW" | "OLD") =>
  `CREATE TRIGGER ${trigger} ${when} BEGIN
    INSERT INTO shape_epochs (store_id, epoch) VALUES (${row}.store_id, 1) ON CONFLICT (store_id) DO UPDATE SET epoch = epoch + 1;
  END`;

export const MIGRATIONS: readonly string[] = [
  migration(
    createTable(stores.stores(d)),
    createTable(stores.apiKeys(d)),
    stores.apiKeysStoreIndex,
    createTable(firstProducts),
    createTable(firstTasks()),
    catalog.sqlitePendingTasksIndex,
    createTable(events.events(d)),
    events.eventsStoreTimeIndex,
  ),
  migration(
    createTable(searchLog.searchLog(d)),
    searchLog.searchLogStoreTimeIndex,
    createTable(withoutColumns(searchLog.queryStats(d), ["shoppers", "led_to"])),
    createTable(events.productSignals(d)),
    createTable(events.countedOrders(d)),
  ),
  migration(
    createTable({ ...catalog.products(d), name: "products_v2" }),
    `INSERT INTO products_v2 (store_id, id, version, content_hash, doc, deleted, updated_at)
    SELECT store_id, id, version, content_hash, doc, deleted, updated_at FROM products`,
    "DROP TABLE products",
    "ALTER TABLE products_v2 RENAME TO products",
  ),
  migration(addColumns(catalog.tasks(d), TASK_REPORT)),
  migration(stores.apiKeysHashIndex),
  migration(
    createTable(catalog.taskPayloads(d)),
    "INSERT INTO task_payloads (seq, payload) SELECT seq, payload FROM tasks WHERE status = 'pending'",
    "ALTER TABLE tasks DROP COLUMN payload",
  ),
  // Rows from before suggestions needed several shoppers count each search as one shopper.
  migration(
    addColumns(searchLog.queryStats(d), ["shoppers"]),
    "UPDATE query_stats SET shoppers = searches",
    createTable(searchLog.queryShoppers(d)),
  ),
  migration(createTable(catalog.searchProducts(d))),
  migration(createTable(looks.lookPairs(d)), createTable(looks.lookClicks(d)), createTable(looks.pinnedLooks(d))),
  migration(
    ...reports.createDailyReportTables(d),
    createTable(reportVisitors),
    createTable(reports.reportOrders(d)),
    ...reports.createAttributionTables(d, reports.sqliteSessionSearchesIndex),
    createTable(searchLog.queryAnswers(d)),
  ),
  migration(
    createTable(ranking.behaviourSeen(d)),
    createTable(ranking.behaviourScores(d)),
    events.eventsUserIndex,
    searchLog.searchLogUserIndex,
    createTable(ranking.shopperAffinities(d)),
  ),
  migration("DROP TABLE report_visitors", createTable(events.purchaseBuyers(d)), createTable(reports.reportSketches(d))),
  migration(...webhooks.createWebhookTables(d, webhooks.sqliteInFlightIndex)),
  migration(
    createTable(withoutColumns(enrichment.enrichmentJobs(d), ["claimed_at"])),
    enrichment.enrichmentJobsDueIndex,
    createTable(withoutColumns(enrichment.productEnrichment(d), ["search_synced"])),
  ),
  migration(addColumns(enrichment.productEnrichment(d), ["search_synced"]), enrichment.productEnrichmentUnsyncedIndex),
  migration(createTable(merchandising.synonyms(d))),
  migration(createTable(merchandising.queryRules(d))),
  migration(addColumns(enrichment.enrichmentJobs(d), ["claimed_at"])),
  migration(
    createTable(shapeEpochs),
    countShapeChange("search_products_updated", "AFTER UPDATE ON search_products", "NEW"),
    countShapeChange("search_products_deleted", "AFTER DELETE ON search_products", "OLD"),
  ),
  // Each product's Search product JSON in the product's own row: indexing wrote two rows per product, each with its
  // own unique index, and the second row cost the main thread ~8 us per product of a bulk. Search reads the shape by
  // the same (store_id, id) index; a row of a product and its shape (3-4 KB) still fits a page.
  migration(
    "ALTER TABLE products ADD COLUMN shaping TEXT",
    "ALTER TABLE products ADD COLUMN shaped TEXT",
    `UPDATE products SET shaping = s.shaping, shaped = s.json
    FROM search_products AS s WHERE s.store_id = products.store_id AND s.id = products.id AND products.deleted = 0`,
    "DROP TABLE search_products",
    countShapeChange("products_shape_changed", "AFTER UPDATE OF shaped ON products WHEN OLD.shaped IS NOT NULL", "NEW"),
    countShapeChange("products_shape_deleted", "AFTER DELETE ON products WHEN OLD.shaped IS NOT NULL", "OLD"),
  ),
  migration(addColumns(searchLog.queryStats(d), ["led_to"])),
  migration(
    createTable(experiments.experiments(d)),
    createTable(withoutColumns(experiments.experimentShoppers(d), ["credits_a", "credits_b"])),
  ),
  migration(addColumns(experiments.experimentShoppers(d), ["credits_a", "credits_b"])),
  migration(
    createTable(recommendations.productInterest(d)),
    createTable(recommendations.productOrders(d)),
    createTable(recommendations.coPurchases(d)),
    createTable(recommendations.shopperProducts(d)),
  ),
];
