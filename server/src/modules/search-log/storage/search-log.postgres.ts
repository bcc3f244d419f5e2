import { stableHash } from "../../../engine/stable-hash.ts";
import type { ImportedQuery, PopularQuery, SearchLogEntry, SearchLogRepository } from "./search-log-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Log rows per INSERT: nine parameters each, far below PostgreSQL's 65,535 per statement. */
const INSERT_CHUNK = 2000;

/** The search log and the per-query statistics on PostgreSQL. */
export class PostgresSearchLogRepo implements SearchLogRepository {
  constructor(private readonly sql: Sql) {}

  async append(entries: readonly SearchLogEntry[], minShoppers: number): Promise<void> {
    const rows = entries.map((e) => ({
      store_id: e.storeId,
      at: e.at,
      query: e.query,
      collection: e.collection,
      result_count: e.resultCount,
      fallback: e.fallback ? 1 : 0,
      user_id: e.userId,
      session_id: e.sessionId,
      preprod: e.preprod ? 1 : 0,
    }));
    await this.sql.begin(async (tx) => {
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx`INSERT INTO search_log ${tx(rows.slice(i, i + INSERT_CHUNK))}`;
      for (const e of entries) {
        if (e.shadowAnswer && e.query) {
          await tx`
            INSERT INTO query_answers (store_id, source, query, total, product_ids, at)
            VALUES (${e.storeId}, 'ours', ${e.query}, ${e.shadowAnswer.total}, ${JSON.stringify(e.shadowAnswer.productIds)}, ${e.at})
            ON CONFLICT (store_id, source, query) DO UPDATE SET total = excluded.total, product_ids = excluded.product_ids, at = excluded.at`;
        }
        if (!e.query || !e.teaches) continue;
        const shopper = e.userId ?? e.sessionId;
        let added = 0;
        if (shopper !== null) {
          const fresh = await tx`
            INSERT INTO query_shoppers (store_id, query, shopper, at)
            SELECT ${e.storeId}, ${e.query}, ${stableHash(shopper)}, ${e.at}
            WHERE coalesce((SELECT shoppers FROM query_stats WHERE store_id = ${e.storeId} AND query = ${e.query}), 0) < ${minShoppers}
            ON CONFLICT DO NOTHING`;
          added = fresh.count;
        }
        const [stats] = await tx<{ shoppers: number }[]>`
          INSERT INTO query_stats (store_id, query, searches, shoppers, result_count, last_at)
          VALUES (${e.storeId}, ${e.query}, 1, ${added}, ${e.resultCount}, ${e.at})
          ON CONFLICT (store_id, query) DO UPDATE SET searches = query_stats.searches + 1, shoppers = query_stats.shoppers + excluded.shoppers,
            result_count = CASE WHEN ${e.filtered} THEN GREATEST(query_stats.result_count, excluded.result_count) ELSE excluded.result_count END,
            last_at = excluded.last_at
          RETURNING shoppers`;
        if (added && stats!.shoppers >= minShoppers)
          await tx`DELETE FROM query_shoppers WHERE store_id = ${e.storeId} AND query = ${e.query}`;
      }
    });
  }

  async importQueries(storeId: string, queries: readonly ImportedQuery[], at: number): Promise<void> {
    await this.sql.begin(async (tx) => {
      for (const q of queries) {
        const ledTo = q.ledTo?.length ? JSON.stringify(q.ledTo) : null;
        await tx`
          INSERT INTO query_stats (store_id, query, searches, shoppers, result_count, last_at, led_to) VALUES (${storeId}, ${q.query}, ${q.searches}, ${q.searches}, ${q.resultCount}, ${at}, ${ledTo})
          ON CONFLICT (store_id, query) DO UPDATE SET searches = GREATEST(query_stats.searches, excluded.searches),
            shoppers = GREATEST(query_stats.shoppers, excluded.shoppers), result_count = excluded.result_count,
            led_to = COALESCE(excluded.led_to, query_stats.led_to)`;
      }
    });
  }

  async queryEvidence(storeId: string, limit: number): Promise<{ query: string; searches: number; ledTo: string[] }[]> {
    const rows = await this.sql<{ query: string; searches: number; led_to: string }[]>`
      SELECT query, searches, led_to FROM query_stats WHERE store_id = ${storeId} AND led_to IS NOT NULL ORDER BY searches DESC, query LIMIT ${limit}`;
    return rows.map((r) => ({ query: r.query, searches: Number(r.searches), ledTo: JSON.parse(r.led_to) as string[] }));
  }

  async popularQueries(storeId: string, minShoppers: number, limit: number): Promise<PopularQuery[]> {
    return [
      ...(await this.sql<PopularQuery[]>`
        SELECT query, searches, result_count AS "resultCount" FROM query_stats
        WHERE store_id = ${storeId} AND result_count > 0 AND shoppers >= ${minShoppers} ORDER BY searches DESC, query LIMIT ${limit}`),
    ];
  }

  async deleteBefore(storeId: string, before: number, limit: number): Promise<number> {
    return this.sql.begin(async (tx) => {
      await tx`DELETE FROM query_shoppers WHERE store_id = ${storeId} AND at < ${before}`;
      return (
        await tx`
          DELETE FROM search_log WHERE seq IN (SELECT seq FROM search_log WHERE store_id = ${storeId} AND at < ${before} ORDER BY at LIMIT ${limit})`
      ).count;
    });
  }

  async count(storeId: string): Promise<number> {
    const [row] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM search_log WHERE store_id = ${storeId}`;
    return row!.n;
  }
}
