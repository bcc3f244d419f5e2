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
import type { Sql } from "../../../platform/postgres/connection.ts";

/** The scope as SQL, with its parameters $1 to $6: the same WHERE for every aggregate table. */
const inScope = (t = "") =>
  `${t}store_id = $1 AND ${t}day BETWEEN $2 AND $3 AND ($4::text IS NULL OR ${t}region = $4) AND ($5::text IS NULL OR ${t}language = $5)
   AND ($6::text IS NULL OR ${t}currency = $6)`;
const SCOPE = inScope();

/** Reads of the report aggregates on PostgreSQL. Sums come back as float8: postgres.js gives NUMERIC as text. */
export class PostgresReportsRepo implements ReportsRepository {
  constructor(private readonly sql: Sql) {}

  async dailyCounts(scope: ReportScope): Promise<{ day: string; metric: string; value: number }[]> {
    return this.rows(
      `SELECT day, metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric NOT LIKE 'position:%' GROUP BY day, metric`,
      scope,
    );
  }

  async dailyRevenue(scope: ReportScope): Promise<{ day: string; currency: string; value: number }[]> {
    return this.rows(
      `SELECT day, currency, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric = 'revenue' GROUP BY day, currency`,
      scope,
    );
  }

  async positions(scope: ReportScope): Promise<Map<number, number>> {
    return positionsOf(
      await this.rows(
        `SELECT metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric LIKE 'position:%' GROUP BY metric`,
        scope,
      ),
    );
  }

  async visitors(scope: ReportScope): Promise<VisitorCounts> {
    return visitorCounts(await this.rows(`SELECT day, kind, registers FROM report_sketches WHERE ${SCOPE}`, scope));
  }

  async queries(scope: ReportScope, order: QueryOrder, limit: number): Promise<QueryRow[]> {
    const having = {
      searches: "",
      "no-results": "HAVING SUM(no_results) > 0",
      "no-clicks": "HAVING SUM(searches) > SUM(no_results) AND SUM(clicked) = 0",
    }[order];
    const orderBy = order === "no-results" ? `"noResults" DESC` : "searches DESC";
    return this.rows(
      `SELECT query, SUM(searches)::float8 AS searches, SUM(no_results)::float8 AS "noResults", SUM(clicked)::float8 AS clicked,
         SUM(converted)::float8 AS converted, SUM(position_sum) AS "positionSum", SUM(positions)::float8 AS positions
       FROM report_queries WHERE ${SCOPE} AND query != '' GROUP BY query ${having} ORDER BY ${orderBy}, query LIMIT $7`,
      scope,
      [limit],
    );
  }

  async products(scope: ReportScope, order: ProductOrder, limit: number): Promise<(ProductRow & { revenue: Record<string, number> })[]> {
    const rows = await this.rows<RawProductRow>(
      `SELECT "productId", SUM(clicks)::float8 AS clicks, SUM(carts)::float8 AS carts, SUM(purchases) AS purchases,
         (json_object_agg(currency, revenue) FILTER (WHERE revenue != 0))::text AS revenue
       FROM (SELECT product_id AS "productId", currency, SUM(clicks) AS clicks, SUM(carts) AS carts, SUM(purchases) AS purchases, SUM(revenue) AS revenue
             FROM report_products WHERE ${SCOPE} GROUP BY product_id, currency) per_currency
       GROUP BY "productId" HAVING SUM(${order}) > 0 ORDER BY ${order} DESC, "productId" LIMIT $7`,
      scope,
      [limit],
    );
    return rows.map(withRevenue);
  }

  async shadowQueries(scope: ReportScope): Promise<ShadowQueryRow[]> {
    return this.rows(
      `SELECT q.query, SUM(q.searches)::float8 AS searches, SUM(q.no_results)::float8 AS "noResults", a.total AS "ourTotal", a.product_ids AS "ourIds",
         t.product_ids AS "theirIds"
       FROM report_queries q
       JOIN query_answers a ON a.store_id = q.store_id AND a.source = 'ours' AND a.query = q.query
       LEFT JOIN query_answers t ON t.store_id = q.store_id AND t.source = 'theirs' AND t.query = q.query
       WHERE ${inScope("q.")} AND q.query != ''
       GROUP BY q.query, a.total, a.product_ids, t.product_ids ORDER BY searches DESC, q.query`,
      scope,
    );
  }

  async shadowClicks(scope: ReportScope): Promise<{ query: string; productId: string; clicks: number }[]> {
    return this.rows(
      `SELECT query, product_id AS "productId", SUM(clicks)::float8 AS clicks FROM report_query_clicks
       WHERE ${SCOPE} AND query IN (SELECT query FROM query_answers WHERE store_id = $1 AND source = 'ours')
       GROUP BY query, product_id`,
      scope,
    );
  }

  async searchesWithQuery(scope: ReportScope): Promise<number> {
    const [row] = await this.rows<{ n: number | null }>(
      `SELECT SUM(searches)::float8 AS n FROM report_queries WHERE ${SCOPE} AND query != ''`,
      scope,
    );
    return row?.n ?? 0;
  }

  private async rows<T>(query: string, scope: ReportScope, more: unknown[] = []): Promise<T[]> {
    return [...(await this.sql.unsafe<T[]>(query, [...scopeArgs(scope), ...more] as never[]))];
  }
}
