import * as catalog from "../schema/catalog.ts";
import { POSTGRES_DIALECT as d } from "../schema/dialect.ts";
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
import { addColumns, createTable, migration, type Table, withoutColumns } from "../schema/table.ts";
import * as webhooks from "../schema/webhooks.ts";

/*
 * The service's durable state on PostgreSQL (DATABASE_URL): its history of migrations, rendered from the tables
 * described once in platform/schema/ with PostgreSQL's dialect. Tables came here as their repositories gained a
 * PostgreSQL implementation, mostly in their current shape. The runner counts applied migrations by position
 * (connection.ts, schema_migrations), so append new ones and never edit, reorder or remove one. What only
 * PostgreSQL has is written here.
 */

/** A store's products changed since a time (the catalog's changedSince), found without reading the whole catalog. */
const productsChangedIndex = "CREATE INDEX products_changed ON products(store_id, updated_at)";

/** Which replica applies a store's indexing tasks, until when (a lease; see tasks-repository.ts). */
const indexingLeases: Table = {
  name: "indexing_leases",
  columns: [
    "store_id  TEXT PRIMARY KEY REFERENCES stores(id) ON DELETE CASCADE",
    "holder    TEXT NOT NULL",
    `until     ${d.bigint} NOT NULL`,
  ],
};

export const POSTGRES_MIGRATIONS: readonly string[] = [
  migration(createTable(stores.stores(d)), createTable(stores.apiKeys(d)), stores.apiKeysStoreIndex, stores.apiKeysHashIndex),
  migration(createTable(merchandising.synonyms(d))),
  migration(createTable(merchandising.queryRules(d))),
  migration(
    createTable(events.events(d)),
    events.eventsStoreTimeIndex,
    events.eventsUserIndex,
    createTable(events.productSignals(d)),
    createTable(events.countedOrders(d)),
    createTable(events.purchaseBuyers(d)),
    createTable(looks.lookPairs(d)),
    createTable(looks.lookClicks(d)),
  ),
  migration(...webhooks.createWebhookTables(d, webhooks.postgresInFlightIndex)),
  migration(createTable(looks.pinnedLooks(d))),
  migration(
    createTable(searchLog.searchLog(d)),
    searchLog.searchLogStoreTimeIndex,
    searchLog.searchLogUserIndex,
    createTable(withoutColumns(searchLog.queryStats(d), ["led_to"])),
    createTable(searchLog.queryShoppers(d)),
    createTable(searchLog.queryAnswers(d)),
  ),
  migration(
    createTable(catalog.products(d)),
    productsChangedIndex,
    createTable(catalog.searchProducts(d)),
    createTable(catalog.tasks(d)),
    catalog.postgresPendingTasksIndex,
    createTable(catalog.taskPayloads(d)),
    createTable(indexingLeases),
    createTable(enrichment.enrichmentJobs(d)),
    enrichment.enrichmentJobsDueIndex,
    createTable(enrichment.productEnrichment(d)),
    enrichment.productEnrichmentUnsyncedIndex,
  ),
  migration(
    ...reports.createDailyReportTables(d),
    createTable(reports.reportSketches(d)),
    createTable(reports.reportOrders(d)),
    ...reports.createAttributionTables(d, reports.postgresSessionSearchesIndex),
    createTable(ranking.behaviourSeen(d)),
    createTable(ranking.behaviourScores(d)),
    createTable(ranking.shopperAffinities(d)),
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
