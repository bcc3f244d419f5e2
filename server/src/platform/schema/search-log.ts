import type { Dialect } from "./dialect.ts";
import { keyedByStore, STORE_ID, type Table } from "./table.ts";

/* Every search, and what is learned from past queries: suggestions, and the preprod report's answers. */

export const searchLog = (d: Dialect): Table => ({
  name: "search_log",
  columns: [
    `seq           ${d.autoId}`,
    STORE_ID,
    `at            ${d.bigint} NOT NULL`,
    "query         TEXT",
    "collection    TEXT",
    `result_count  ${d.bigint} NOT NULL`,
    "fallback      INTEGER NOT NULL",
    "user_id       TEXT",
    "session_id    TEXT",
    "preprod       INTEGER NOT NULL",
  ],
});

export const searchLogStoreTimeIndex = "CREATE INDEX search_log_store_time ON search_log(store_id, at)";
/** Erasing a user finds their searches without reading every search. */
export const searchLogUserIndex = "CREATE INDEX search_log_user ON search_log(store_id, user_id) WHERE user_id IS NOT NULL";

/**
 * Past queries by normalized text: how often searched, by how many distinct shoppers, and how many results they
 * last had (suggestions). A past query becomes a public suggestion only once several distinct shoppers searched it.
 * led_to: what an imported query led to under the store's previous search provider (the categories its searches
 * found), as a JSON array: evidence of what the query means (modules/meaning).
 */
export const queryStats = (d: Dialect): Table =>
  keyedByStore(d, "query_stats", {
    key: [`query         ${d.sortedText} NOT NULL`],
    values: [
      `searches      ${d.bigint} NOT NULL`,
      `shoppers      ${d.bigint} NOT NULL DEFAULT 0`,
      `result_count  ${d.bigint} NOT NULL`,
      `last_at       ${d.bigint} NOT NULL`,
      "led_to        TEXT",
    ],
  });

/** Hashed shopper ids per query, held only until the query has enough of them to be suggested. */
export const queryShoppers = (d: Dialect): Table =>
  keyedByStore(d, "query_shoppers", {
    key: ["query     TEXT NOT NULL", `shopper   ${d.bigint} NOT NULL`],
    values: [`at        ${d.bigint} NOT NULL`],
  });

/**
 * The latest first page per query: the store's own search (from its Search events) and ours (from preprod=true
 * searches), for the preprod report.
 */
export const queryAnswers = (d: Dialect): Table =>
  keyedByStore(d, "query_answers", {
    key: ["source       TEXT NOT NULL CHECK (source IN ('theirs', 'ours'))", "query        TEXT NOT NULL"],
    values: [`total        ${d.bigint} NOT NULL`, "product_ids  TEXT NOT NULL", `at           ${d.bigint} NOT NULL`],
  });
