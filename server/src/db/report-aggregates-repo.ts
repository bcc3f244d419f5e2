import type { Database } from "bun:sqlite";
import { addToSketch, emptySketch, mergeInto, packSketch, unpackSketch } from "../modules/analytics/hyperloglog.ts";

/** A day and the shopper's dimensions: where a count goes. */
export interface Bucket {
  storeId: string;
  day: string;
  region: string;
  language: string;
  currency: string;
}

export interface QueryCounts {
  searches: number;
  noResults: number;
  clicked: number;
  converted: number;
  positionSum: number;
  positions: number;
}

export interface ProductCounts {
  clicks: number;
  carts: number;
  purchases: number;
  revenue: number;
}

/** A recent search that clicks and conversions may still be attributed to. */
export interface AttributedSearch extends Bucket {
  id: number;
  query: string;
}

export type SearchMark = "clicked" | "carted" | "converted";

const bucketKey = (b: Bucket) => `${b.storeId}\u0000${b.day}\u0000${b.region}\u0000${b.language}\u0000${b.currency}`;
const unkey = (key: string) => key.split("\u0000");

/**
 * The reports' aggregate tables, written by the analytics worker inside its transaction: counter deltas are
 * summed in memory over a batch of events and written once per key at flush(); the attribution state (recent
 * searches and their clicks) is written at once, since later events of the same batch read it.
 */
export class ReportAggregatesRepo {
  private daily = new Map<string, number>();
  private queries = new Map<string, QueryCounts>();
  private products = new Map<string, ProductCounts>();
  private queryClicks = new Map<string, number>();
  private visitors = new Map<string, Uint8Array>();

  constructor(private readonly db: Database) {}

  count(bucket: Bucket, metric: string, delta = 1): void {
    const key = `${bucketKey(bucket)}\u0000${metric}`;
    this.daily.set(key, (this.daily.get(key) ?? 0) + delta);
  }

  countQuery(bucket: Bucket, query: string, delta: Partial<QueryCounts>): void {
    const key = `${bucketKey(bucket)}\u0000${query}`;
    const c = this.queries.get(key) ?? { searches: 0, noResults: 0, clicked: 0, converted: 0, positionSum: 0, positions: 0 };
    for (const [k, v] of Object.entries(delta) as [keyof QueryCounts, number][]) c[k] += v;
    this.queries.set(key, c);
  }

  countProduct(bucket: Bucket, productId: string, delta: Partial<ProductCounts>): void {
    const key = `${bucketKey(bucket)}\u0000${productId}`;
    const c = this.products.get(key) ?? { clicks: 0, carts: 0, purchases: 0, revenue: 0 };
    for (const [k, v] of Object.entries(delta) as [keyof ProductCounts, number][]) c[k] += v;
    this.products.set(key, c);
  }

  countQueryClick(bucket: Bucket, query: string, productId: string): void {
    const key = `${bucketKey(bucket)}\u0000${query}\u0000${productId}`;
    this.queryClicks.set(key, (this.queryClicks.get(key) ?? 0) + 1);
  }

  visitor(bucket: Bucket, kind: "user" | "session", visitor: string): void {
    const key = `${bucketKey(bucket)}\u0000${kind}`;
    let sketch = this.visitors.get(key);
    if (!sketch) this.visitors.set(key, (sketch = emptySketch()));
    addToSketch(sketch, visitor);
  }

  /** Writes the summed deltas. Call inside the worker's transaction. */
  flush(): void {
    const daily = this.db.query(
      `INSERT INTO report_daily (store_id, day, region, language, currency, metric, value) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET value = value + excluded.value`,
    );
    for (const [key, delta] of this.daily) daily.run(...(unkey(key) as [string, string, string, string, string, string]), delta);
    const queries = this.db.query(
      `INSERT INTO report_queries (store_id, day, region, language, currency, query, searches, no_results, clicked, converted, position_sum, positions)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, no_results = no_results + excluded.no_results,
         clicked = clicked + excluded.clicked, converted = converted + excluded.converted,
         position_sum = position_sum + excluded.position_sum, positions = positions + excluded.positions`,
    );
    for (const [key, c] of this.queries) {
      queries.run(...(unkey(key) as [string, string, string, string, string, string]), c.searches, c.noResults, c.clicked, c.converted, c.positionSum, c.positions);
    }
    const products = this.db.query(
      `INSERT INTO report_products (store_id, day, region, language, currency, product_id, clicks, carts, purchases, revenue)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks, carts = carts + excluded.carts,
         purchases = purchases + excluded.purchases, revenue = revenue + excluded.revenue`,
    );
    for (const [key, c] of this.products) products.run(...(unkey(key) as [string, string, string, string, string, string]), c.clicks, c.carts, c.purchases, c.revenue);
    const queryClicks = this.db.query(
      `INSERT INTO report_query_clicks (store_id, day, region, language, currency, query, product_id, clicks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    for (const [key, n] of this.queryClicks) queryClicks.run(...(unkey(key) as [string, string, string, string, string, string, string]), n);
    const readSketch = this.db.query(
      "SELECT registers FROM report_sketches WHERE store_id = ? AND day = ? AND region = ? AND language = ? AND currency = ? AND kind = ?",
    );
    const writeSketch = this.db.query(
      "INSERT OR REPLACE INTO report_sketches (store_id, day, region, language, currency, kind, registers) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (const [key, added] of this.visitors) {
      const parts = unkey(key) as [string, string, string, string, string, string];
      const old = readSketch.get(...parts) as { registers: Uint8Array } | null;
      if (old) mergeInto(added, unpackSketch(old.registers));
      writeSketch.run(...parts, packSketch(added));
    }
    this.discard();
  }

  /** Forgets the summed deltas (written by flush, or of a batch whose transaction failed). */
  discard(): void {
    this.daily.clear();
    this.queries.clear();
    this.products.clear();
    this.queryClicks.clear();
    this.visitors.clear();
  }

  /** Counts an order once; false when it was counted before. */
  firstTimeOrder(storeId: string, orderId: string): boolean {
    return this.db.query("INSERT OR IGNORE INTO report_orders (store_id, order_id) VALUES (?, ?)").run(storeId, orderId).changes > 0;
  }

  rememberSearch(s: Omit<AttributedSearch, "id">, sessionId: string, at: number, withResults: boolean): void {
    this.db
      .query(
        `INSERT INTO attribution_searches (store_id, session_id, query, at, day, region, language, currency, with_results)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.storeId, sessionId, s.query, at, s.day, s.region, s.language, s.currency, withResults ? 1 : 0);
  }

  /** The session's searches with results for `query` made in [from, to]. */
  searchesBetween(storeId: string, sessionId: string, query: string, from: number, to: number): (AttributedSearch & Record<SearchMark, number>)[] {
    return this.db
      .query(
        `SELECT id, store_id AS storeId, query, day, region, language, currency, clicked, carted, converted FROM attribution_searches
         WHERE store_id = ? AND session_id = ? AND query = ? AND at BETWEEN ? AND ? AND with_results = 1`,
      )
      .all(storeId, sessionId, query, from, to) as (AttributedSearch & Record<SearchMark, number>)[];
  }

  /** The session's searches from which `productId` was clicked, made at or after `since`. */
  searchesClickedFor(storeId: string, sessionId: string, productId: string, since: number): (AttributedSearch & Record<SearchMark, number>)[] {
    return this.db
      .query(
        `SELECT s.id, s.store_id AS storeId, s.query, s.day, s.region, s.language, s.currency, s.clicked, s.carted, s.converted
         FROM attribution_clicks c JOIN attribution_searches s ON s.id = c.search_id
         WHERE c.store_id = ? AND c.session_id = ? AND c.product_id = ? AND s.at >= ?`,
      )
      .all(storeId, sessionId, productId, since) as (AttributedSearch & Record<SearchMark, number>)[];
  }

  mark(searchId: number, mark: SearchMark): void {
    this.db.query(`UPDATE attribution_searches SET ${mark} = 1 WHERE id = ?`).run(searchId);
  }

  rememberClick(storeId: string, sessionId: string, productId: string, searchId: number): void {
    this.db
      .query("INSERT OR IGNORE INTO attribution_clicks (store_id, session_id, product_id, search_id) VALUES (?, ?, ?, ?)")
      .run(storeId, sessionId, productId, searchId);
  }

  sessionDimensions(storeId: string, sessionId: string): { region: string; language: string; currency: string } | null {
    return this.db
      .query("SELECT region, language, currency FROM attribution_sessions WHERE store_id = ? AND session_id = ?")
      .get(storeId, sessionId) as { region: string; language: string; currency: string } | null;
  }

  setSessionDimensions(storeId: string, sessionId: string, d: { region: string; language: string; currency: string }, at: number): void {
    this.db
      .query(
        `INSERT INTO attribution_sessions (store_id, session_id, region, language, currency, at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET region = excluded.region, language = excluded.language, currency = excluded.currency, at = excluded.at`,
      )
      .run(storeId, sessionId, d.region, d.language, d.currency, at);
  }

  /** Drops attribution state older than `before`: no click or conversion can reach it any more. */
  prune(before: number): void {
    this.db.query("DELETE FROM attribution_searches WHERE at < ?").run(before);
    this.db.query("DELETE FROM attribution_sessions WHERE at < ?").run(before);
  }

  lastSeq(consumer: string): number {
    return (this.db.query("SELECT last_seq FROM analytics_progress WHERE consumer = ?").get(consumer) as { last_seq: number } | null)?.last_seq ?? 0;
  }

  setLastSeq(consumer: string, seq: number): void {
    this.db
      .query("INSERT INTO analytics_progress (consumer, last_seq) VALUES (?, ?) ON CONFLICT DO UPDATE SET last_seq = excluded.last_seq")
      .run(consumer, seq);
  }
}

/**
 * Keeps the latest first page a search gave for a query: the store's own (theirs, from its Search events) or
 * ours (a preprod search). The preprod report compares them.
 */
export function saveAnswer(db: Database, a: { storeId: string; source: "theirs" | "ours"; query: string; total: number; productIds: readonly string[]; at: number }): void {
  db.query(
    `INSERT INTO query_answers (store_id, source, query, total, product_ids, at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET total = excluded.total, product_ids = excluded.product_ids, at = excluded.at`,
  ).run(a.storeId, a.source, a.query, a.total, JSON.stringify(a.productIds), a.at);
}
