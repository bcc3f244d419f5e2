import type { Dialect } from "./dialect.ts";
import { createTable, keyedByStore, STORE_ID, type Table } from "./table.ts";

/*
 * Reports: aggregates per store and UTC day, with the shopper's region, language and currency ('' when unknown) as
 * dimensions, built by the analytics worker from the events table, and the attribution state that links clicks and
 * orders to the searches before them.
 */

/** The shopper's region, language and currency ('' when unknown): what every report can be narrowed to. */
export const DIMENSIONS = ["region    TEXT NOT NULL", "language  TEXT NOT NULL", "currency  TEXT NOT NULL"];

/** How far each consumer of the events table has read. */
export const analyticsProgress = (d: Dialect): Table => ({
  name: "analytics_progress",
  columns: ["consumer  TEXT PRIMARY KEY", `last_seq  ${d.bigint} NOT NULL`],
  options: d.withoutRowid,
});

/** Counters by name (searches, clickedSearches, revenue, position:3, ...). */
export const reportDaily = (d: Dialect): Table =>
  keyedByStore(d, "report_daily", {
    key: [`day       ${d.sortedText} NOT NULL`, ...DIMENSIONS, "metric    TEXT NOT NULL"],
    values: [`value     ${d.double} NOT NULL`],
  });

export const reportQueries = (d: Dialect): Table =>
  keyedByStore(d, "report_queries", {
    key: [`day           ${d.sortedText} NOT NULL`, `query         ${d.sortedText} NOT NULL`, ...DIMENSIONS],
    values: [
      `searches      ${d.bigint} NOT NULL DEFAULT 0`,
      `no_results    ${d.bigint} NOT NULL DEFAULT 0`,
      `clicked       ${d.bigint} NOT NULL DEFAULT 0`,
      `converted     ${d.bigint} NOT NULL DEFAULT 0`,
      `position_sum  ${d.double} NOT NULL DEFAULT 0`,
      `positions     ${d.bigint} NOT NULL DEFAULT 0`,
    ],
  });

export const reportProducts = (d: Dialect): Table =>
  keyedByStore(d, "report_products", {
    key: [`day         ${d.sortedText} NOT NULL`, `product_id  ${d.sortedText} NOT NULL`, ...DIMENSIONS],
    values: [
      `clicks      ${d.bigint} NOT NULL DEFAULT 0`,
      `carts       ${d.bigint} NOT NULL DEFAULT 0`,
      `purchases   ${d.double} NOT NULL DEFAULT 0`,
      `revenue     ${d.double} NOT NULL DEFAULT 0`,
    ],
  });

/** Clicks per query and product: which of the store's clicked products our shadow answers hold (preprod). */
export const reportQueryClicks = (d: Dialect): Table =>
  keyedByStore(d, "report_query_clicks", {
    key: [
      `day         ${d.sortedText} NOT NULL`,
      `query       ${d.sortedText} NOT NULL`,
      `product_id  ${d.sortedText} NOT NULL`,
      ...DIMENSIONS,
    ],
    values: [`clicks      ${d.bigint} NOT NULL`],
  });

/**
 * Distinct users and sessions as HyperLogLog sketches per day and dimensions (lib/hyperloglog.ts):
 * a range's distinct count from merged sketches, as daily distinct counts cannot be summed.
 */
export const reportSketches = (d: Dialect): Table =>
  keyedByStore(d, "report_sketches", {
    key: [`day        ${d.sortedText} NOT NULL`, ...DIMENSIONS, "kind       TEXT NOT NULL CHECK (kind IN ('user', 'session'))"],
    values: [`registers  ${d.bytes} NOT NULL`],
  });

/** Orders already in the reports (OrderComplete and Purchase of one order, and repeats, count once). */
export const reportOrders = (d: Dialect): Table =>
  keyedByStore(d, "report_orders", {
    key: ["order_id  TEXT NOT NULL"],
  });

/**
 * Recent searches per session, until their clicks and conversions can no longer arrive. The writer may take ids
 * ahead of a batch (its clicks name the searches it adds), hence an id the database numbers only by default.
 */
export const attributionSearches = (d: Dialect): Table => ({
  name: "attribution_searches",
  columns: [
    `id            ${d.defaultId}`,
    STORE_ID,
    "session_id    TEXT NOT NULL",
    "query         TEXT NOT NULL",
    `at            ${d.bigint} NOT NULL`,
    "day           TEXT NOT NULL",
    ...DIMENSIONS,
    `with_results  ${d.smallint} NOT NULL`,
    `clicked       ${d.smallint} NOT NULL DEFAULT 0`,
    `carted        ${d.smallint} NOT NULL DEFAULT 0`,
    `converted     ${d.smallint} NOT NULL DEFAULT 0`,
  ],
});

/** A session's searches since a time. SQLite's index was made with the query before the time, and stays so. */
export const sqliteSessionSearchesIndex =
  "CREATE INDEX attribution_searches_session ON attribution_searches(store_id, session_id, query, at)";
export const postgresSessionSearchesIndex = "CREATE INDEX attribution_searches_session ON attribution_searches(store_id, session_id, at)";
export const attributionSearchesAtIndex = "CREATE INDEX attribution_searches_at ON attribution_searches(at)";

/** Products clicked from those searches: a later purchase of one converts the search. */
export const attributionClicks = (d: Dialect): Table => ({
  name: "attribution_clicks",
  columns: [
    "store_id    TEXT NOT NULL",
    "session_id  TEXT NOT NULL",
    "product_id  TEXT NOT NULL",
    `search_id   ${d.bigint} NOT NULL REFERENCES attribution_searches(id) ON DELETE CASCADE`,
  ],
  key: "PRIMARY KEY (store_id, session_id, product_id, search_id)",
  options: d.withoutRowid,
});

export const attributionClicksSearchIndex = "CREATE INDEX attribution_clicks_search ON attribution_clicks(search_id)";

/** Each session's last known region, language and currency: orders carry none of their own. */
export const attributionSessions = (d: Dialect): Table =>
  keyedByStore(d, "attribution_sessions", {
    key: ["session_id  TEXT NOT NULL"],
    values: [...DIMENSIONS, `at          ${d.bigint} NOT NULL`],
  });

/** The analytics worker's progress and the daily aggregates, as each database created them first: in one migration. */
export const createDailyReportTables = (d: Dialect): string[] =>
  [analyticsProgress(d), reportDaily(d), reportQueries(d), reportProducts(d), reportQueryClicks(d)].map(createTable);

/** The attribution state with its indexes, as each database created it: in one migration. */
export const createAttributionTables = (d: Dialect, sessionSearchesIndex: string): string[] => [
  createTable(attributionSearches(d)),
  sessionSearchesIndex,
  attributionSearchesAtIndex,
  createTable(attributionClicks(d)),
  attributionClicksSearchIndex,
  createTable(attributionSessions(d)),
];
