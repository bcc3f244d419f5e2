import type { Database } from "bun:sqlite";
import { logAdd } from "../../../lib/decay.ts";
import {
  fromStoredLog,
  mergedSketch,
  positionsOf,
  type RawAttributedSearch,
  SEARCH_COLUMNS,
  toAttributedSearch,
  toSessionDims,
  toStoredLog,
  type AnalyticsStateRepository,
  type AttributedClick,
  type BatchWrites,
  type Bucket,
  type EvidenceLogs,
  type StateKeys,
  type StateSnapshot,
} from "./analytics-state-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";
import { writeRecommendationSignals } from "./recommendation-signals.sqlite.ts";

const bucketArgs = (b: Bucket) => [b.storeId, b.day, b.region, b.language, b.currency] as const;

/** The analytics worker's state on SQLite. */
export class SqliteAnalyticsStateRepo implements AnalyticsStateRepository {
  constructor(private readonly db: Database) {}

  async lastSeq(consumer: string): Promise<number> {
    return (
      (this.db.query("SELECT last_seq FROM analytics_progress WHERE consumer = ?").get(consumer) as { last_seq: number } | null)
        ?.last_seq ?? 0
    );
  }

  async load(keys: StateKeys): Promise<StateSnapshot> {
    const sessions = JSON.stringify(keys.sessions);
    const searches = (
      this.db
        .query(
          `SELECT ${SEARCH_COLUMNS} FROM attribution_searches
           WHERE (store_id, session_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?1)) AND at >= ?2`,
        )
        .all(sessions, keys.searchesSince) as RawAttributedSearch[]
    ).map(toAttributedSearch);
    const ids = JSON.stringify(searches.map((s) => s.id));
    const clicks = this.db
      .query(
        `SELECT store_id AS storeId, session_id AS sessionId, product_id AS productId, search_id AS searchId FROM attribution_clicks
         WHERE search_id IN (SELECT value FROM json_each(?))`,
      )
      .all(ids) as AttributedClick[];
    const dims = this.db
      .query(
        `SELECT store_id AS storeId, session_id AS sessionId, region, language, currency FROM attribution_sessions
         WHERE (store_id, session_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
      )
      .all(sessions) as { storeId: string; sessionId: string; region: string; language: string; currency: string }[];
    const orders = this.db
      .query(
        "SELECT store_id, order_id FROM report_orders WHERE (store_id, order_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))",
      )
      .values(JSON.stringify(keys.orders)) as [string, string][];
    const seen = this.db
      .query(
        `SELECT store_id, day, actor, kind, query, product_id FROM behaviour_seen
         WHERE (store_id, day, actor) IN (SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?))`,
      )
      .values(JSON.stringify(keys.actorDays)) as [string, string, string, string, string, string][];
    return {
      searches,
      clicks,
      sessions: dims.map(toSessionDims),
      orders,
      seen,
    };
  }

  async positionClicks(storeId: string, fromDay: string): Promise<Map<number, number>> {
    const rows = this.db
      .query(
        "SELECT metric, SUM(value) AS value FROM report_daily WHERE store_id = ? AND day >= ? AND metric LIKE 'position:%' GROUP BY metric",
      )
      .all(storeId, fromDay) as { metric: string; value: number }[];
    return positionsOf(rows);
  }

  async commit(w: BatchWrites): Promise<boolean> {
    return writeTransaction(this.db, () => {
      this.db.query("INSERT OR IGNORE INTO analytics_progress (consumer, last_seq) VALUES (?, 0)").run(w.consumer);
      // Another process counted past this batch's start: it is theirs.
      if (
        this.db
          .query("UPDATE analytics_progress SET last_seq = ? WHERE consumer = ? AND last_seq = ?")
          .run(w.lastSeq, w.consumer, w.afterSeq).changes === 0
      )
        return false;
      this.writeAggregates(w);
      this.writeAttribution(w);
      this.writeBehaviour(w);
      this.writeExperimentShoppers(w);
      writeRecommendationSignals(this.db, w.recommendations);
      if (w.prune) this.prune(w.prune);
      return true;
    })();
  }

  private writeAggregates(w: BatchWrites): void {
    const daily = this.db.query(
      `INSERT INTO report_daily (store_id, day, region, language, currency, metric, value) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET value = value + excluded.value`,
    );
    for (const r of w.daily) daily.run(...bucketArgs(r.bucket), r.metric, r.delta);
    const queries = this.db.query(
      `INSERT INTO report_queries (store_id, day, region, language, currency, query, searches, no_results, clicked, converted, position_sum, positions)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, no_results = no_results + excluded.no_results,
         clicked = clicked + excluded.clicked, converted = converted + excluded.converted,
         position_sum = position_sum + excluded.position_sum, positions = positions + excluded.positions`,
    );
    for (const { bucket, query, counts: c } of w.queries)
      queries.run(...bucketArgs(bucket), query, c.searches, c.noResults, c.clicked, c.converted, c.positionSum, c.positions);
    const products = this.db.query(
      `INSERT INTO report_products (store_id, day, region, language, currency, product_id, clicks, carts, purchases, revenue)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks, carts = carts + excluded.carts,
         purchases = purchases + excluded.purchases, revenue = revenue + excluded.revenue`,
    );
    for (const { bucket, productId, counts: c } of w.products)
      products.run(...bucketArgs(bucket), productId, c.clicks, c.carts, c.purchases, c.revenue);
    const queryClicks = this.db.query(
      `INSERT INTO report_query_clicks (store_id, day, region, language, currency, query, product_id, clicks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET clicks = clicks + excluded.clicks`,
    );
    for (const r of w.queryClicks) queryClicks.run(...bucketArgs(r.bucket), r.query, r.productId, r.clicks);
    const readSketch = this.db.query(
      "SELECT registers FROM report_sketches WHERE store_id = ? AND day = ? AND region = ? AND language = ? AND currency = ? AND kind = ?",
    );
    const writeSketch = this.db.query(
      "INSERT OR REPLACE INTO report_sketches (store_id, day, region, language, currency, kind, registers) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    for (const { bucket, kind, registers } of w.sketches) {
      const old = readSketch.get(...bucketArgs(bucket), kind) as { registers: Uint8Array } | null;
      writeSketch.run(...bucketArgs(bucket), kind, mergedSketch(registers, old?.registers));
    }
    const answer = this.db.query(
      `INSERT INTO query_answers (store_id, source, query, total, product_ids, at) VALUES (?, 'theirs', ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET total = excluded.total, product_ids = excluded.product_ids, at = excluded.at`,
    );
    for (const a of w.answers) answer.run(a.storeId, a.query, a.total, JSON.stringify(a.productIds), a.at);
  }

  private writeAttribution(w: BatchWrites): void {
    const ids = new Map<number, number>();
    const insertSearch = this.db.query(
      `INSERT INTO attribution_searches (store_id, session_id, query, at, day, region, language, currency, with_results, clicked, carted, converted)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const s of w.newSearches) {
      const { lastInsertRowid } = insertSearch.run(
        s.storeId,
        s.sessionId,
        s.query,
        s.at,
        s.day,
        s.region,
        s.language,
        s.currency,
        s.withResults ? 1 : 0,
        s.clicked,
        s.carted,
        s.converted,
      );
      ids.set(s.id, Number(lastInsertRowid));
    }
    for (const m of w.marks) this.db.query(`UPDATE attribution_searches SET ${m.mark} = 1 WHERE id = ?`).run(m.id);
    const click = this.db.query(
      "INSERT OR IGNORE INTO attribution_clicks (store_id, session_id, product_id, search_id) VALUES (?, ?, ?, ?)",
    );
    for (const c of w.newClicks) click.run(c.storeId, c.sessionId, c.productId, ids.get(c.searchId) ?? c.searchId);
    const session = this.db.query(
      `INSERT INTO attribution_sessions (store_id, session_id, region, language, currency, at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET region = excluded.region, language = excluded.language, currency = excluded.currency, at = excluded.at`,
    );
    for (const s of w.sessions) session.run(s.storeId, s.sessionId, s.dims.region, s.dims.language, s.dims.currency, s.at);
    const order = this.db.query("INSERT OR IGNORE INTO report_orders (store_id, order_id) VALUES (?, ?)");
    for (const [storeId, orderId] of w.orders) order.run(storeId, orderId);
  }

  private writeBehaviour(w: BatchWrites): void {
    const seen = this.db.query(
      "INSERT OR IGNORE INTO behaviour_seen (store_id, day, actor, kind, query, product_id) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const row of w.seen) seen.run(...row);
    const readEvidence = this.db.query(
      "SELECT evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ? AND query = ? AND product_id = ?",
    );
    const writeEvidence = this.db.query(
      "INSERT OR REPLACE INTO behaviour_scores (store_id, query, product_id, evidence, clicks, conversions) VALUES (?, ?, ?, ?, ?, ?)",
    );
    for (const { storeId, query, productId, add } of w.evidence) {
      const old = readEvidence.get(storeId, query, productId) as EvidenceLogs | null;
      const sum = (part: keyof EvidenceLogs) => toStoredLog(logAdd(old ? fromStoredLog(old[part]) : -Infinity, add[part]));
      writeEvidence.run(storeId, query, productId, sum("evidence"), sum("clicks"), sum("conversions"));
    }
    const readAffinity = this.db.query(
      "SELECT weight FROM shopper_affinities WHERE store_id = ? AND shopper = ? AND facet = ? AND value = ?",
    );
    const writeAffinity = this.db.query(
      "INSERT OR REPLACE INTO shopper_affinities (store_id, shopper, facet, value, weight) VALUES (?, ?, ?, ?, ?)",
    );
    for (const a of w.affinities) {
      const old = (readAffinity.get(a.storeId, a.shopper, a.facet, a.value) as { weight: number } | null)?.weight;
      writeAffinity.run(
        a.storeId,
        a.shopper,
        a.facet,
        a.value,
        toStoredLog(logAdd(old === undefined ? -Infinity : fromStoredLog(old), a.add)),
      );
    }
  }

  private writeExperimentShoppers(w: BatchWrites): void {
    const add = this.db.query(
      `INSERT INTO experiment_shoppers (store_id, experiment_id, shopper, variant, searches, empty_searches, clicked, carted, ordered, revenue, currency, events, bot, credits_a, credits_b)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT DO UPDATE SET searches = searches + excluded.searches, empty_searches = empty_searches + excluded.empty_searches,
         clicked = MAX(clicked, excluded.clicked), carted = MAX(carted, excluded.carted), ordered = MAX(ordered, excluded.ordered),
         revenue = revenue + excluded.revenue, currency = COALESCE(excluded.currency, currency), events = events + excluded.events,
         bot = MAX(bot, excluded.bot), credits_a = credits_a + excluded.credits_a, credits_b = credits_b + excluded.credits_b`,
    );
    for (const d of w.experimentShoppers)
      add.run(
        d.storeId,
        d.experimentId,
        d.shopper,
        d.variant,
        d.searches,
        d.emptySearches,
        d.clicked,
        d.carted,
        d.ordered,
        d.revenue,
        d.currency,
        d.events,
        d.bot,
        d.creditsA,
        d.creditsB,
      );
  }

  private prune(p: NonNullable<BatchWrites["prune"]>): void {
    this.db.query("DELETE FROM attribution_searches WHERE at < ?").run(p.before);
    this.db.query("DELETE FROM attribution_sessions WHERE at < ?").run(p.before);
    this.db.query("DELETE FROM behaviour_seen WHERE day < ?").run(p.day);
    this.db.query("DELETE FROM purchase_buyers WHERE day < ?").run(p.day);
    this.db.query("DELETE FROM behaviour_scores WHERE evidence < ?").run(p.evidenceBelow);
    this.db.query("DELETE FROM shopper_affinities WHERE weight < ?").run(p.affinityBelow);
  }
}
