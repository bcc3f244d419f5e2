import type { Database } from "bun:sqlite";
import { stableHash } from "../../../engine/stable-hash.ts";
import type { ImportedQuery, PopularQuery, SearchLogEntry, SearchLogRepository } from "./search-log-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** The search log and the per-query statistics in the embedded database. */
export class SqliteSearchLogRepo implements SearchLogRepository {
  constructor(private readonly db: Database) {}

  async append(entries: readonly SearchLogEntry[], minShoppers: number): Promise<void> {
    const log = this.db.query(
      "INSERT INTO search_log (store_id, at, query, collection, result_count, fallback, user_id, session_id, preprod) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const newShopper = this.db.query(
      `INSERT OR IGNORE INTO query_shoppers (store_id, query, shopper, at)
       SELECT ?1, ?2, ?3, ?4 WHERE coalesce((SELECT shoppers FROM query_stats WHERE store_id = ?1 AND query = ?2), 0) < ?5`,
    );
    const stats = this.db.query(
      `INSERT INTO query_stats (store_id, query, searches, shoppers, result_count, last_at) VALUES (?1, ?2, 1, ?3, ?4, ?5)
       ON CONFLICT (store_id, query) DO UPDATE SET searches = searches + 1, shoppers = shoppers + excluded.shoppers,
         result_count = CASE WHEN ?6 THEN max(result_count, excluded.result_count) ELSE excluded.result_count END,
         last_at = excluded.last_at
       RETURNING shoppers`,
    );
    const forgetShoppers = this.db.query("DELETE FROM query_shoppers WHERE store_id = ? AND query = ?");
    writeTransaction(this.db, () => {
      for (const e of entries) {
        log.run(e.storeId, e.at, e.query, e.collection, e.resultCount, e.fallback ? 1 : 0, e.userId, e.sessionId, e.preprod ? 1 : 0);
        if (e.shadowAnswer && e.query)
          saveAnswer(this.db, { storeId: e.storeId, source: "ours", query: e.query, ...e.shadowAnswer, at: e.at });
        if (!e.query || !e.teaches) continue;
        const shopper = e.userId ?? e.sessionId;
        const added = shopper === null ? 0 : newShopper.run(e.storeId, e.query, stableHash(shopper), e.at, minShoppers).changes;
        const { shoppers } = stats.get(e.storeId, e.query, added, e.resultCount, e.at, e.filtered ? 1 : 0) as { shoppers: number };
        if (added && shoppers >= minShoppers) forgetShoppers.run(e.storeId, e.query);
      }
    })();
  }

  async importQueries(storeId: string, queries: readonly ImportedQuery[], at: number): Promise<void> {
    const stats = this.db.query(
      `INSERT INTO query_stats (store_id, query, searches, shoppers, result_count, last_at, led_to) VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6)
       ON CONFLICT (store_id, query) DO UPDATE SET searches = max(searches, excluded.searches),
         shoppers = max(shoppers, excluded.shoppers), result_count = excluded.result_count, led_to = coalesce(excluded.led_to, led_to)`,
    );
    writeTransaction(this.db, () => {
      for (const q of queries) stats.run(storeId, q.query, q.searches, q.resultCount, at, q.ledTo?.length ? JSON.stringify(q.ledTo) : null);
    })();
  }

  async queryEvidence(storeId: string, limit: number): Promise<{ query: string; searches: number; ledTo: string[] }[]> {
    const rows = this.db
      .query(
        "SELECT query, searches, led_to FROM query_stats WHERE store_id = ? AND led_to IS NOT NULL ORDER BY searches DESC, query LIMIT ?",
      )
      .all(storeId, limit) as { query: string; searches: number; led_to: string }[];
    return rows.map((r) => ({ query: r.query, searches: r.searches, ledTo: JSON.parse(r.led_to) as string[] }));
  }

  async popularQueries(storeId: string, minShoppers: number, limit: number): Promise<PopularQuery[]> {
    return this.db
      .query(
        `SELECT query, searches, result_count AS resultCount FROM query_stats
         WHERE store_id = ? AND result_count > 0 AND shoppers >= ? ORDER BY searches DESC, query LIMIT ?`,
      )
      .all(storeId, minShoppers, limit) as PopularQuery[];
  }

  async deleteBefore(storeId: string, before: number, limit: number): Promise<number> {
    this.db.query("DELETE FROM query_shoppers WHERE store_id = ? AND at < ?").run(storeId, before);
    return this.db
      .query("DELETE FROM search_log WHERE seq IN (SELECT seq FROM search_log WHERE store_id = ? AND at < ? ORDER BY at LIMIT ?)")
      .run(storeId, before, limit).changes;
  }

  async count(storeId: string): Promise<number> {
    return (this.db.query("SELECT count(*) AS n FROM search_log WHERE store_id = ?").get(storeId) as { n: number }).n;
  }
}

/**
 * Keeps the latest first page a search gave for a query: the store's own (theirs, from its Search events) or
 * ours (a preprod search). The preprod report compares them.
 */
function saveAnswer(
  db: Database,
  a: { storeId: string; source: "theirs" | "ours"; query: string; total: number; productIds: readonly string[]; at: number },
): void {
  db.query(
    `INSERT INTO query_answers (store_id, source, query, total, product_ids, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET total = excluded.total, product_ids = excluded.product_ids, at = excluded.at`,
  ).run(a.storeId, a.source, a.query, a.total, JSON.stringify(a.productIds), a.at);
}
