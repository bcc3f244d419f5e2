import type { Database } from "bun:sqlite";
import type { QueryCounts } from "./analytics-state-repository.ts";
import { emptySketch, estimate, mergeInto, unpackSketch } from "../modules/analytics/hyperloglog.ts";

/** A report's rows: one store, days [from, to] (inclusive, "YYYY-MM-DD"), and optional dimension values. */
export interface ReportScope {
  storeId: string;
  from: string;
  to: string;
  region: string | null;
  language: string | null;
  currency: string | null;
}

/** A query's counts summed over a scope. */
export type QueryRow = QueryCounts & { query: string };

export interface ProductRow {
  productId: string;
  clicks: number;
  carts: number;
  purchases: number;
}

export type QueryOrder = "searches" | "no-results" | "no-clicks";
export type ProductOrder = "clicks" | "carts" | "purchases";

/** The scope as SQL: the same WHERE for every aggregate table (the dimension filters use one index each way). */
const inScope = (t = "") =>
  `${t}store_id = ?1 AND ${t}day BETWEEN ?2 AND ?3 AND (?4 IS NULL OR ${t}region = ?4) AND (?5 IS NULL OR ${t}language = ?5)
   AND (?6 IS NULL OR ${t}currency = ?6)`;
const SCOPE = inScope();
const scopeArgs = (s: ReportScope) => [s.storeId, s.from, s.to, s.region, s.language, s.currency] as const;

/** Reads of the report aggregates (written by the analytics worker, analytics-state-repo.ts): sums over a scope, never raw events. */
export class ReportsRepo {
  constructor(private readonly db: Database) {}

  /** Counter sums per day (metric names as ReportCounter writes them), positions excluded. */
  dailyCounts(scope: ReportScope): { day: string; metric: string; value: number }[] {
    return this.db
      .query(`SELECT day, metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric NOT LIKE 'position:%' GROUP BY day, metric`)
      .all(...scopeArgs(scope)) as { day: string; metric: string; value: number }[];
  }

  /** Revenue per day and currency. */
  dailyRevenue(scope: ReportScope): { day: string; currency: string; value: number }[] {
    return this.db
      .query(`SELECT day, currency, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric = 'revenue' GROUP BY day, currency`)
      .all(...scopeArgs(scope)) as { day: string; currency: string; value: number }[];
  }

  /** Clicks per position (positions 1 to MAX_COUNTED_POSITION). */
  positions(scope: ReportScope): Map<number, number> {
    const rows = this.db
      .query(`SELECT metric, SUM(value) AS value FROM report_daily WHERE ${SCOPE} AND metric LIKE 'position:%' GROUP BY metric`)
      .all(...scopeArgs(scope)) as { metric: string; value: number }[];
    return new Map(rows.map((r) => [Number(r.metric.slice("position:".length)), r.value]));
  }

  /** Distinct users and sessions over the whole scope, and per day (HyperLogLog estimates). */
  visitors(scope: ReportScope): { total: Record<"user" | "session", number>; daily: { day: string; kind: "user" | "session"; n: number }[] } {
    const rows = this.db
      .query(`SELECT day, kind, registers FROM report_sketches WHERE ${SCOPE}`)
      .all(...scopeArgs(scope)) as { day: string; kind: "user" | "session"; registers: Uint8Array }[];
    const total = { user: emptySketch(), session: emptySketch() };
    const perDay = new Map<string, Uint8Array>();
    for (const r of rows) {
      const sketch = unpackSketch(r.registers);
      mergeInto(total[r.kind], sketch);
      const key = `${r.day}\u0000${r.kind}`;
      const day = perDay.get(key);
      if (day) mergeInto(day, sketch);
      else perDay.set(key, sketch);
    }
    return {
      total: { user: estimate(total.user), session: estimate(total.session) },
      daily: [...perDay].map(([key, sketch]) => {
        const [day, kind] = key.split("\u0000") as [string, "user" | "session"];
        return { day, kind, n: estimate(sketch) };
      }),
    };
  }

  /** Per-query sums, most searched first (or the queries without results / without clicks), "" left out. */
  queries(scope: ReportScope, order: QueryOrder, limit: number): QueryRow[] {
    const having = { searches: "", "no-results": "HAVING noResults > 0", "no-clicks": "HAVING searches > noResults AND clicked = 0" }[order];
    const orderBy = order === "no-results" ? "noResults DESC" : "searches DESC";
    return this.db
      .query(
        `SELECT query, SUM(searches) AS searches, SUM(no_results) AS noResults, SUM(clicked) AS clicked, SUM(converted) AS converted,
           SUM(position_sum) AS positionSum, SUM(positions) AS positions
         FROM report_queries WHERE ${SCOPE} AND query != '' GROUP BY query ${having} ORDER BY ${orderBy}, query LIMIT ?7`,
      )
      .all(...scopeArgs(scope), limit) as QueryRow[];
  }

  /** Per-product sums, ordered by one of them, with revenue per currency: one pass over the scope. */
  products(scope: ReportScope, order: ProductOrder, limit: number): (ProductRow & { revenue: Record<string, number> })[] {
    const rows = this.db
      .query(
        `SELECT productId, SUM(clicks) AS clicks, SUM(carts) AS carts, SUM(purchases) AS purchases,
           json_group_object(currency, revenue) FILTER (WHERE revenue != 0) AS revenue
         FROM (SELECT product_id AS productId, currency, SUM(clicks) AS clicks, SUM(carts) AS carts, SUM(purchases) AS purchases,
                 SUM(revenue) AS revenue
               FROM report_products WHERE ${SCOPE} GROUP BY product_id, currency)
         GROUP BY productId HAVING ${order} > 0 ORDER BY ${order} DESC, productId LIMIT ?7`,
      )
      .all(...scopeArgs(scope), limit) as (ProductRow & { revenue: string | null })[];
    return rows.map((r) => ({ ...r, revenue: r.revenue ? (JSON.parse(r.revenue) as Record<string, number>) : {} }));
  }

  /**
   * Queries we answered in pre-production, with the store's searches of them in the scope and both latest first
   * pages, most searched first.
   */
  shadowQueries(scope: ReportScope): { query: string; searches: number; noResults: number; ourTotal: number; ourIds: string; theirIds: string | null }[] {
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
      .all(...scopeArgs(scope)) as { query: string; searches: number; noResults: number; ourTotal: number; ourIds: string; theirIds: string | null }[];
  }

  /** The store's clicks per product for the queries we answered in pre-production. */
  shadowClicks(scope: ReportScope): { query: string; productId: string; clicks: number }[] {
    return this.db
      .query(
        `SELECT query, product_id AS productId, SUM(clicks) AS clicks FROM report_query_clicks
         WHERE ${SCOPE} AND query IN (SELECT query FROM query_answers WHERE store_id = ?1 AND source = 'ours')
         GROUP BY query, product_id`,
      )
      .all(...scopeArgs(scope)) as { query: string; productId: string; clicks: number }[];
  }

  /** All searches with a query in the scope (how much of the store's traffic the comparison covers). */
  searchesWithQuery(scope: ReportScope): number {
    return (
      (this.db.query(`SELECT SUM(searches) AS n FROM report_queries WHERE ${SCOPE} AND query != ''`).get(...scopeArgs(scope)) as { n: number | null }).n ?? 0
    );
  }
}
