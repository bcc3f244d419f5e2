import type { Database } from "bun:sqlite";
import {
  type RawProductRow,
  scopeArgs,
  withRevenue,
  visitorCounts,
  type ProductOrder,
  type ProductRow,
  type QueryOrder,
  type QueryRow,
  type ReportScope,
  type ReportsRepository,
  type ShadowQueryRow,
  type VisitorCounts,
} from "./reports-repository.ts";
import { positionsOf } from "../../analytics/storage/analytics-state-repository.ts";

/** The scope as SQL: the same WHERE for every aggregate table (the dimension filters use one index each way). */
const inScope = (t = "") =>
  `${t}store_id = ?1 AND ${t}day BETWEEN ?2 AND ?3 AND (?4 IS NULL OR ${t}region = ?4) AND (?5 IS NULL OR ${t}language = ?5)
   AND (?6 IS NULL OR ${t}currency = ?6)`;
const SCOPE = inScope();

/** Reads of the report aggregates on SQLite. */
export class SqliteReportsRepo implements ReportsRepository {
  constructor(private readonly db: Database) {}

  async dailyCounts(scope: ReportScope): Promise<{ day: string; metric: string; value: number }[]> {
    return this.db
      .query(
        `SELECT day, metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric NOT LIKE 'position:%' GROUP BY day, metric`,
      )
      .all(...scopeArgs(scope)) as { day: string; metric: string; value: number }[];
  }

  async dailyRevenue(scope: ReportScope): Promise<{ day: string; currency: string; value: number }[]> {
    return this.db
      .query(`SELECT day, currency, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric = 'revenue' GROUP BY day, currency`)
      .all(...scopeArgs(scope)) as { day: string; currency: string; value: number }[];
  }

  async positions(scope: ReportScope): Promise<Map<number, number>> {
    return positionsOf(
      this.db
        .query(`SELECT metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric LIKE 'position:%' GROUP BY metric`)
        .all(...scopeArgs(scope)) as { metric: string; value: number }[],
    );
  }

  async visitors(scope: ReportScope): Promise<VisitorCounts> {
    return visitorCounts(
      this.db.query(`SELECT day, kind, registers FROM report_sketches WHERE ${SCOPE}`).all(...scopeArgs(scope)) as {
        day: string;
        kind: "user" | "session";
        registers: Uint8Array;
      }[],
    );
  }

  async queries(scope: ReportScope, order: QueryOrder, limit: number): Promise<QueryRow[]> {
    const having = { searches: "", "no-results": "HAVING noResults > 0", "no-clicks": "HAVING searches > noResults AND clicked = 0" }[
      order
    ];
    const orderBy = order === "no-results" ? "noResults DESC" : "searches DESC";
    return this.db
      .query(
        `SELECT query, SUM(searches) AS searches, SUM(no_results) AS noResults, SUM(clicked) AS clicked, SUM(converted) AS converted,
           SUM(position_sum) AS positionSum, SUM(positions) AS positions
         FROM report_queries WHERE ${SCOPE} AND query != '' GROUP BY query ${having} ORDER BY ${orderBy}, query LIMIT ?7`,
      )
      .all(...scopeArgs(scope), limit) as QueryRow[];
  }

  /** One pass over the scope. */
  async products(scope: ReportScope, order: ProductOrder, limit: number): Promise<(ProductRow & { revenue: Record<string, number> })[]> {
    const rows = this.db
      .query(
        `SELECT productId, SUM(clicks) AS clicks, SUM(carts) AS carts, SUM(purchases) AS purchases,
           json_group_object(currency, revenue) FILTER (WHERE revenue != 0) AS revenue
         FROM (SELECT product_id AS productId, currency, SUM(clicks) AS clicks, SUM(carts) AS carts, SUM(purchases) AS purchases,
                 SUM(revenue) AS revenue
               FROM report_products WHERE ${SCOPE} GROUP BY product_id, currency)
         GROUP BY productId HAVING ${order} > 0 ORDER BY ${order} DESC, productId LIMIT ?7`,
      )
      .all(...scopeArgs(scope), limit) as RawProductRow[];
    return rows.map(withRevenue);
  }

  async shadowQueries(scope: ReportScope): Promise<ShadowQueryRow[]> {
    return this.db
      .query(
        `SELECT q.query, SUM(q.searches) AS searches, SUM(q.no_results) AS noResults, a.total AS ourTotal, a.product_ids AS ourIds,
           t.product_ids AS theirIds
         FROM report_queries q
         JOIN query_answers a ON a.store_id = q.store_id AND a.source = 'ours' AND a.query = q.query
         LEFT JOIN query_answers t ON t.store_id = q.store_id AND t.source = 'theirs' AND t.query = q.query
         WHERE ${inScope("q.")} AND q.query != ''
         GROUP BY q.query ORDER BY searches DESC, q.query`,
      )
      .all(...scopeArgs(scope)) as ShadowQueryRow[];
  }

  async shadowClicks(scope: ReportScope): Promise<{ query: string; productId: string; clicks: number }[]> {
    return this.db
      .query(
        `SELECT query, product_id AS productId, SUM(clicks) AS clicks FROM report_query_clicks
         WHERE ${SCOPE} AND query IN (SELECT query FROM query_answers WHERE store_id = ?1 AND source = 'ours')
         GROUP BY query, product_id`,
      )
      .all(...scopeArgs(scope)) as { query: string; productId: string; clicks: number }[];
  }

  async searchesWithQuery(scope: ReportScope): Promise<number> {
    return (
      (
        this.db.query(`SELECT SUM(searches) AS n FROM report_queries WHERE ${SCOPE} AND query != ''`).get(...scopeArgs(scope)) as {
          n: number | null;
        }
      ).n ?? 0
    );
  }
}
