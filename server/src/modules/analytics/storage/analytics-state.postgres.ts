import type postgres from "postgres";
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
  type StateKeys,
  type StateSnapshot,
} from "./analytics-state-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";
import { writeRecommendationSignals } from "./recommendation-signals.postgres.ts";

type Tx = postgres.TransactionSql;

const bucketColumns = (b: Bucket) => ({ store_id: b.storeId, day: b.day, region: b.region, language: b.language, currency: b.currency });
/** The i-th part of each key, as one array parameter (for unnest). */
const column = (keys: readonly (readonly string[])[], i: number) => keys.map((k) => k[i]!);

/** The analytics worker's state on PostgreSQL, shared by every replica. */
export class PostgresAnalyticsStateRepo implements AnalyticsStateRepository {
  constructor(private readonly sql: Sql) {}

  async lastSeq(consumer: string): Promise<number> {
    const [row] = await this.sql<{ last_seq: number }[]>`SELECT last_seq FROM analytics_progress WHERE consumer = ${consumer}`;
    return row?.last_seq ?? 0;
  }

  async load(keys: StateKeys): Promise<StateSnapshot> {
    const [stores, sessions] = [column(keys.sessions, 0), column(keys.sessions, 1)];
    const searches = (
      await this.sql.unsafe<RawAttributedSearch[]>(
        `SELECT ${SEARCH_COLUMNS} FROM attribution_searches
         WHERE (store_id, session_id) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND at >= $3`,
        [stores, sessions, keys.searchesSince],
      )
    ).map(toAttributedSearch);
    const clicks = [
      ...(await this.sql<AttributedClick[]>`
        SELECT store_id AS "storeId", session_id AS "sessionId", product_id AS "productId", search_id AS "searchId" FROM attribution_clicks
        WHERE search_id = ANY(${searches.map((s) => s.id)}::bigint[])`),
    ];
    const dims = await this.sql<{ storeId: string; sessionId: string; region: string; language: string; currency: string }[]>`
      SELECT store_id AS "storeId", session_id AS "sessionId", region, language, currency FROM attribution_sessions
      WHERE (store_id, session_id) IN (SELECT * FROM unnest(${stores}::text[], ${sessions}::text[]))`;
    const orders = await this.sql<{ store_id: string; order_id: string }[]>`
      SELECT store_id, order_id FROM report_orders
      WHERE (store_id, order_id) IN (SELECT * FROM unnest(${column(keys.orders, 0)}::text[], ${column(keys.orders, 1)}::text[]))`;
    const seen = await this.sql<{ store_id: string; day: string; actor: string; kind: string; query: string; product_id: string }[]>`
      SELECT store_id, day, actor, kind, query, product_id FROM behaviour_seen
      WHERE (store_id, day, actor) IN (SELECT * FROM unnest(${column(keys.actorDays, 0)}::text[], ${column(keys.actorDays, 1)}::text[], ${column(keys.actorDays, 2)}::text[]))`;
    return {
      searches,
      clicks,
      sessions: dims.map(toSessionDims),
      orders: orders.map((o) => [o.store_id, o.order_id]),
      seen: seen.map((r) => [r.store_id, r.day, r.actor, r.kind, r.query, r.product_id]),
    };
  }

  async positionClicks(storeId: string, fromDay: string): Promise<Map<number, number>> {
    const rows = await this.sql<{ metric: string; value: number }[]>`
      SELECT metric, SUM(value) AS value FROM report_daily WHERE store_id = ${storeId} AND day >= ${fromDay} AND metric LIKE 'position:%' GROUP BY metric`;
    return positionsOf(rows);
  }

  async commit(w: BatchWrites): Promise<boolean> {
    return this.sql
      .begin(async (tx) => {
        await tx`INSERT INTO analytics_progress (consumer, last_seq) VALUES (${w.consumer}, 0) ON CONFLICT DO NOTHING`;
        // The row lock makes another replica's commit of the same batch wait, then find the progress moved.
        const moved =
          await tx`UPDATE analytics_progress SET last_seq = ${w.lastSeq} WHERE consumer = ${w.consumer} AND last_seq = ${w.afterSeq}`;
        if (moved.count === 0) throw new CountedElsewhere();
        await this.writeAggregates(tx, w);
        await this.writeAttribution(tx, w);
        await this.writeBehaviour(tx, w);
        await this.writeExperimentShoppers(tx, w);
        await writeRecommendationSignals(tx, w.recommendations);
        if (w.prune) await this.prune(tx, w.prune);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof CountedElsewhere) return false;
        throw error;
      });
  }

  private async writeAggregates(tx: Tx, w: BatchWrites): Promise<void> {
    if (w.daily.length) {
      await tx`
        INSERT INTO report_daily ${tx(w.daily.map((r) => ({ ...bucketColumns(r.bucket), metric: r.metric, value: r.delta })))}
        ON CONFLICT (store_id, day, region, language, currency, metric) DO UPDATE SET value = report_daily.value + excluded.value`;
    }
    if (w.queries.length) {
      const rows = w.queries.map(({ bucket, query, counts: c }) => ({
        ...bucketColumns(bucket),
        query,
        searches: c.searches,
        no_results: c.noResults,
        clicked: c.clicked,
        converted: c.converted,
        position_sum: c.positionSum,
        positions: c.positions,
      }));
      await tx`
        INSERT INTO report_queries ${tx(rows)}
        ON CONFLICT (store_id, day, query, region, language, currency) DO UPDATE SET searches = report_queries.searches + excluded.searches,
          no_results = report_queries.no_results + excluded.no_results, clicked = report_queries.clicked + excluded.clicked,
          converted = report_queries.converted + excluded.converted, position_sum = report_queries.position_sum + excluded.position_sum,
          positions = report_queries.positions + excluded.positions`;
    }
    if (w.products.length) {
      const rows = w.products.map(({ bucket, productId, counts: c }) => ({
        ...bucketColumns(bucket),
        product_id: productId,
        clicks: c.clicks,
        carts: c.carts,
        purchases: c.purchases,
        revenue: c.revenue,
      }));
      await tx`
        INSERT INTO report_products ${tx(rows)}
        ON CONFLICT (store_id, day, product_id, region, language, currency) DO UPDATE SET clicks = report_products.clicks + excluded.clicks,
          carts = report_products.carts + excluded.carts, purchases = report_products.purchases + excluded.purchases,
          revenue = report_products.revenue + excluded.revenue`;
    }
    if (w.queryClicks.length) {
      const rows = w.queryClicks.map((r) => ({ ...bucketColumns(r.bucket), query: r.query, product_id: r.productId, clicks: r.clicks }));
      await tx`
        INSERT INTO report_query_clicks ${tx(rows)}
        ON CONFLICT (store_id, day, query, product_id, region, language, currency) DO UPDATE SET clicks = report_query_clicks.clicks + excluded.clicks`;
    }
    for (const { bucket: b, kind, registers } of w.sketches) {
      const [old] = await tx<{ registers: Uint8Array }[]>`
        SELECT registers FROM report_sketches
        WHERE store_id = ${b.storeId} AND day = ${b.day} AND region = ${b.region} AND language = ${b.language} AND currency = ${b.currency} AND kind = ${kind}
        FOR UPDATE`;
      const row = { ...bucketColumns(b), kind, registers: Buffer.from(mergedSketch(registers, old?.registers)) };
      await tx`
        INSERT INTO report_sketches ${tx(row)}
        ON CONFLICT (store_id, day, region, language, currency, kind) DO UPDATE SET registers = excluded.registers`;
    }
    if (w.answers.length) {
      const rows = w.answers.map((a) => ({
        store_id: a.storeId,
        source: "theirs",
        query: a.query,
        total: a.total,
        product_ids: JSON.stringify(a.productIds),
        at: a.at,
      }));
      await tx`
        INSERT INTO query_answers ${tx(rows)}
        ON CONFLICT (store_id, source, query) DO UPDATE SET total = excluded.total, product_ids = excluded.product_ids, at = excluded.at`;
    }
  }

  private async writeAttribution(tx: Tx, w: BatchWrites): Promise<void> {
    const ids = new Map<number, number>();
    if (w.newSearches.length) {
      // Ids taken first, so that this batch's clicks can name the searches they were made from.
      const taken = await tx<{ id: number }[]>`
        SELECT nextval(pg_get_serial_sequence('attribution_searches', 'id'))::bigint AS id FROM generate_series(1, ${w.newSearches.length})`;
      w.newSearches.forEach((s, i) => ids.set(s.id, taken[i]!.id));
      const rows = w.newSearches.map((s) => ({
        id: ids.get(s.id)!,
        store_id: s.storeId,
        session_id: s.sessionId,
        query: s.query,
        at: s.at,
        day: s.day,
        region: s.region,
        language: s.language,
        currency: s.currency,
        with_results: s.withResults ? 1 : 0,
        clicked: s.clicked,
        carted: s.carted,
        converted: s.converted,
      }));
      await tx`INSERT INTO attribution_searches ${tx(rows)}`;
    }
    for (const mark of ["clicked", "carted", "converted"] as const) {
      const marked = w.marks.filter((m) => m.mark === mark).map((m) => m.id);
      if (marked.length) await tx`UPDATE attribution_searches SET ${tx(mark)} = 1 WHERE id = ANY(${marked}::bigint[])`;
    }
    if (w.newClicks.length) {
      const rows = w.newClicks.map((c) => ({
        store_id: c.storeId,
        session_id: c.sessionId,
        product_id: c.productId,
        search_id: ids.get(c.searchId) ?? c.searchId,
      }));
      await tx`INSERT INTO attribution_clicks ${tx(rows)} ON CONFLICT DO NOTHING`;
    }
    if (w.sessions.length) {
      const rows = w.sessions.map((s) => ({
        store_id: s.storeId,
        session_id: s.sessionId,
        region: s.dims.region,
        language: s.dims.language,
        currency: s.dims.currency,
        at: s.at,
      }));
      await tx`
        INSERT INTO attribution_sessions ${tx(rows)}
        ON CONFLICT (store_id, session_id) DO UPDATE SET region = excluded.region, language = excluded.language, currency = excluded.currency, at = excluded.at`;
    }
    if (w.orders.length)
      await tx`INSERT INTO report_orders ${tx(w.orders.map(([store_id, order_id]) => ({ store_id, order_id })))} ON CONFLICT DO NOTHING`;
  }

  private async writeBehaviour(tx: Tx, w: BatchWrites): Promise<void> {
    if (w.seen.length) {
      const rows = w.seen.map(([store_id, day, actor, kind, query, product_id]) => ({ store_id, day, actor, kind, query, product_id }));
      await tx`INSERT INTO behaviour_seen ${tx(rows)} ON CONFLICT DO NOTHING`;
    }
    if (w.evidence.length) {
      const keys = w.evidence.map((e) => [e.storeId, e.query, e.productId] as const);
      const old = await tx<
        { store_id: string; query: string; product_id: string; evidence: number; clicks: number; conversions: number }[]
      >`
        SELECT store_id, query, product_id, evidence, clicks, conversions FROM behaviour_scores
        WHERE (store_id, query, product_id) IN (SELECT * FROM unnest(${column(keys, 0)}::text[], ${column(keys, 1)}::text[], ${column(keys, 2)}::text[]))
        FOR UPDATE`;
      const byKey = new Map(old.map((r) => [JSON.stringify([r.store_id, r.query, r.product_id]), r]));
      const rows = w.evidence.map(({ storeId, query, productId, add }) => {
        const was = byKey.get(JSON.stringify([storeId, query, productId]));
        const sum = (part: "evidence" | "clicks" | "conversions") =>
          toStoredLog(logAdd(was ? fromStoredLog(was[part]) : -Infinity, add[part]));
        return {
          store_id: storeId,
          query,
          product_id: productId,
          evidence: sum("evidence"),
          clicks: sum("clicks"),
          conversions: sum("conversions"),
        };
      });
      await tx`
        INSERT INTO behaviour_scores ${tx(rows)}
        ON CONFLICT (store_id, query, product_id) DO UPDATE SET evidence = excluded.evidence, clicks = excluded.clicks, conversions = excluded.conversions`;
    }
    if (w.affinities.length) {
      const keys = w.affinities.map((a) => [a.storeId, a.shopper, a.facet, a.value] as const);
      const old = await tx<{ store_id: string; shopper: string; facet: string; value: string; weight: number }[]>`
        SELECT store_id, shopper, facet, value, weight FROM shopper_affinities
        WHERE (store_id, shopper, facet, value) IN (SELECT * FROM unnest(${column(keys, 0)}::text[], ${column(keys, 1)}::text[], ${column(keys, 2)}::text[], ${column(keys, 3)}::text[]))
        FOR UPDATE`;
      const byKey = new Map(old.map((r) => [JSON.stringify([r.store_id, r.shopper, r.facet, r.value]), r.weight]));
      const rows = w.affinities.map((a) => {
        const was = byKey.get(JSON.stringify([a.storeId, a.shopper, a.facet, a.value]));
        return {
          store_id: a.storeId,
          shopper: a.shopper,
          facet: a.facet,
          value: a.value,
          weight: toStoredLog(logAdd(was === undefined ? -Infinity : fromStoredLog(was), a.add)),
        };
      });
      await tx`
        INSERT INTO shopper_affinities ${tx(rows)}
        ON CONFLICT (store_id, shopper, facet, value) DO UPDATE SET weight = excluded.weight`;
    }
  }

  private async writeExperimentShoppers(tx: Tx, w: BatchWrites): Promise<void> {
    if (!w.experimentShoppers.length) return;
    const rows = w.experimentShoppers.map((d) => ({
      store_id: d.storeId,
      experiment_id: d.experimentId,
      shopper: d.shopper,
      variant: d.variant,
      searches: d.searches,
      empty_searches: d.emptySearches,
      clicked: d.clicked,
      carted: d.carted,
      ordered: d.ordered,
      revenue: d.revenue,
      currency: d.currency,
      events: d.events,
      bot: d.bot,
      credits_a: d.creditsA,
      credits_b: d.creditsB,
    }));
    await tx`
      INSERT INTO experiment_shoppers ${tx(rows)}
      ON CONFLICT (store_id, experiment_id, shopper) DO UPDATE SET
        searches = experiment_shoppers.searches + excluded.searches,
        empty_searches = experiment_shoppers.empty_searches + excluded.empty_searches,
        clicked = GREATEST(experiment_shoppers.clicked, excluded.clicked),
        carted = GREATEST(experiment_shoppers.carted, excluded.carted),
        ordered = GREATEST(experiment_shoppers.ordered, excluded.ordered),
        revenue = experiment_shoppers.revenue + excluded.revenue,
        currency = COALESCE(excluded.currency, experiment_shoppers.currency),
        events = experiment_shoppers.events + excluded.events,
        bot = GREATEST(experiment_shoppers.bot, excluded.bot),
        credits_a = experiment_shoppers.credits_a + excluded.credits_a,
        credits_b = experiment_shoppers.credits_b + excluded.credits_b`;
  }

  private async prune(tx: Tx, p: NonNullable<BatchWrites["prune"]>): Promise<void> {
    await tx`DELETE FROM attribution_searches WHERE at < ${p.before}`;
    await tx`DELETE FROM attribution_sessions WHERE at < ${p.before}`;
    await tx`DELETE FROM behaviour_seen WHERE day < ${p.day}`;
    await tx`DELETE FROM purchase_buyers WHERE day < ${p.day}`;
    await tx`DELETE FROM behaviour_scores WHERE evidence < ${p.evidenceBelow}`;
    await tx`DELETE FROM shopper_affinities WHERE weight < ${p.affinityBelow}`;
  }
}

/** Thrown inside the transaction to roll it back: another replica counted the batch first. */
class CountedElsewhere extends Error {}
