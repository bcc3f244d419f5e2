/*
 * Reads of the report aggregates (written by the analytics worker: AnalyticsStateRepository): sums over a scope,
 * never raw events. Both durable stores implement it (reports-repo.ts, postgres/reports-repo.ts), held to the
 * same behaviour by repository-conformance.test.ts.
 */
import { emptySketch, estimate, mergeInto, unpackSketch } from "../../../lib/hyperloglog.ts";
import type { QueryCounts } from "../../analytics/storage/analytics-state-repository.ts";

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

export interface VisitorCounts {
  total: Record<"user" | "session", number>;
  daily: { day: string; kind: "user" | "session"; n: number }[];
}

export interface ShadowQueryRow {
  query: string;
  searches: number;
  noResults: number;
  ourTotal: number;
  ourIds: string;
  theirIds: string | null;
}

export interface ReportsRepository {
  /** Counter sums per day (metric names as ReportCounter writes them), positions excluded. */
  dailyCounts(scope: ReportScope): Promise<{ day: string; metric: string; value: number }[]>;
  /** Revenue per day and currency. */
  dailyRevenue(scope: ReportScope): Promise<{ day: string; currency: string; value: number }[]>;
  /** Clicks per position (positions 1 to MAX_COUNTED_POSITION). */
  positions(scope: ReportScope): Promise<Map<number, number>>;
  /** Distinct users and sessions over the whole scope, and per day (HyperLogLog estimates). */
  visitors(scope: ReportScope): Promise<VisitorCounts>;
  /** Per-query sums, most searched first (or the queries without results / without clicks), "" left out; ties by query. */
  queries(scope: ReportScope, order: QueryOrder, limit: number): Promise<QueryRow[]>;
  /** Per-product sums, ordered by one of them (ties by id), with revenue per currency. */
  products(scope: ReportScope, order: ProductOrder, limit: number): Promise<(ProductRow & { revenue: Record<string, number> })[]>;
  /** Queries we answered in pre-production, with the store's searches of them and both latest first pages, most searched first. */
  shadowQueries(scope: ReportScope): Promise<ShadowQueryRow[]>;
  /** The store's clicks per product for the queries we answered in pre-production. */
  shadowClicks(scope: ReportScope): Promise<{ query: string; productId: string; clicks: number }[]>;
  /** All searches with a query in the scope (how much of the store's traffic the comparison covers). */
  searchesWithQuery(scope: ReportScope): Promise<number>;
}

/** Sketches of a scope (day, kind, packed registers) merged into its estimates. */
export function visitorCounts(rows: readonly { day: string; kind: "user" | "session"; registers: Uint8Array }[]): VisitorCounts {
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

/** The scope's values, in the order both databases' scope SQL numbers its parameters (1 to 6). */
export const scopeArgs = (s: ReportScope) => [s.storeId, s.from, s.to, s.region, s.language, s.currency] as const;

/** A products row as both databases read it: revenue per currency as a JSON object, null when there was none. */
export type RawProductRow = ProductRow & { revenue: string | null };
export const withRevenue = (r: RawProductRow): ProductRow & { revenue: Record<string, number> } => ({
  ...r,
  revenue: r.revenue ? (JSON.parse(r.revenue) as Record<string, number>) : {},
});
