/*
 * The analytics worker's durable state: what it reads before counting a batch of events (the attribution state
 * of the batch's sessions, the orders and once-a-day marks it may repeat) and the one transaction that writes
 * what the batch counted with the progress past it. Both durable stores implement it (analytics-state.sqlite.ts,
 * analytics-state.postgres.ts), held to the same behaviour by repository-conformance.test.ts. The
 * counting itself is modules/analytics/analytics-batch.ts, in memory.
 */

import { mergeInto, packSketch, unpackSketch } from "../../../lib/hyperloglog.ts";
import type { RecommendationWrites } from "./recommendation-signals-repository.ts";

/** A day and the shopper's dimensions: where a count goes. */
export interface Bucket {
  storeId: string;
  day: string;
  region: string;
  language: string;
  currency: string;
}

export interface Dims {
  region: string;
  language: string;
  currency: string;
}

export type SearchMark = "clicked" | "carted" | "converted";

/** A recent search that clicks and conversions may still be attributed to. */
export interface AttributedSearch extends Bucket, Record<SearchMark, number> {
  /** Its row id; negative for a search of the batch being counted, not written yet. */
  id: number;
  sessionId: string;
  query: string;
  at: number;
  withResults: boolean;
}

export interface AttributedClick {
  storeId: string;
  sessionId: string;
  productId: string;
  searchId: number;
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

/** Evidence for one (query, product), each part a log2 decayed sum (lib/decay.ts). */
export interface EvidenceLogs {
  evidence: number;
  clicks: number;
  conversions: number;
}

/**
 * What a batch adds to one shopper's counters in one experiment (experiment_shoppers, read by modules/experiments):
 * counts add up, 0/1 flags keep their maximum, a currency replaces the stored one unless null.
 */
export interface ExperimentShopperDelta {
  storeId: string;
  experimentId: string;
  shopper: string;
  variant: number;
  searches: number;
  emptySearches: number;
  clicked: number;
  carted: number;
  ordered: number;
  revenue: number;
  currency: string | null;
  events: number;
  bot: number;
  /** Interleaving: clicks on products ranking A, and ranking B, placed. */
  creditsA: number;
  creditsB: number;
}

/** What a batch's counting reads: keys of the state it may touch. */
export interface StateKeys {
  /** Sessions with events in the batch (store id, session id). */
  sessions: readonly (readonly [string, string])[];
  /** Searches made before this (ms) can no longer be marked. */
  searchesSince: number;
  orders: readonly (readonly [storeId: string, orderId: string])[];
  /** Shoppers' days with events in the batch (store id, day, actor). */
  actorDays: readonly (readonly [string, string, string])[];
}

export interface StateSnapshot {
  searches: AttributedSearch[];
  clicks: AttributedClick[];
  sessions: { storeId: string; sessionId: string; dims: Dims }[];
  /** Orders counted before (store id, order id). */
  orders: [string, string][];
  /** Once-a-day marks of the batch's actors: store id, day, actor, kind, query, product id. */
  seen: [string, string, string, string, string, string][];
}

/** What a batch counted, written in one transaction with the progress past it. */
export interface BatchWrites {
  consumer: string;
  /** The progress the batch was read after, and the progress past it. */
  afterSeq: number;
  lastSeq: number;
  daily: { bucket: Bucket; metric: string; delta: number }[];
  queries: { bucket: Bucket; query: string; counts: QueryCounts }[];
  products: { bucket: Bucket; productId: string; counts: ProductCounts }[];
  queryClicks: { bucket: Bucket; query: string; productId: string; clicks: number }[];
  /** Distinct-visitor sketches (HyperLogLog registers, unpacked) to merge into the stored ones. */
  sketches: { bucket: Bucket; kind: "user" | "session"; registers: Uint8Array }[];
  /** New searches (negative ids), marks included; clicks may name them by their negative id. */
  newSearches: AttributedSearch[];
  /** Marks set on searches written before. */
  marks: { id: number; mark: SearchMark }[];
  newClicks: AttributedClick[];
  sessions: { storeId: string; sessionId: string; dims: Dims; at: number }[];
  orders: [string, string][];
  answers: { storeId: string; query: string; total: number; productIds: string[]; at: number }[];
  seen: [string, string, string, string, string, string][];
  /** Log-sums to add to the stored evidence. */
  evidence: { storeId: string; query: string; productId: string; add: EvidenceLogs }[];
  affinities: { storeId: string; shopper: string; facet: string; value: string; add: number }[];
  experimentShoppers: ExperimentShopperDelta[];
  /** What the recommendation models count (recommendation-signals.ts). */
  recommendations: RecommendationWrites;
  /** Old working state to drop: attribution before `before` (ms); marks of days before `day`; sums below the floors. */
  prune: { before: number; day: string; evidenceBelow: number; affinityBelow: number } | null;
}

export interface AnalyticsStateRepository {
  lastSeq(consumer: string): Promise<number>;
  load(keys: StateKeys): Promise<StateSnapshot>;
  /** Clicks per position over the store's report days since `fromDay`: the examination curve's data. */
  positionClicks(storeId: string, fromDay: string): Promise<Map<number, number>>;
  /**
   * Writes a batch in one transaction with the progress past it, only if the progress is still `afterSeq`:
   * false, with nothing written, when another replica counted those events first.
   */
  commit(writes: BatchWrites): Promise<boolean>;
}

/*
 * A log sum of nothing is -Infinity; stored as a very low finite number, so a row never holds a value some
 * driver or statement cannot carry.
 */
export const NO_LOG = -1e308;
export const fromStoredLog = (v: number) => (v <= NO_LOG ? -Infinity : v);
export const toStoredLog = (v: number) => (v === -Infinity ? NO_LOG : v);

/** A recent search as both databases read it (aliases quoted: PostgreSQL folds unquoted ones to lower case). */
export const SEARCH_COLUMNS = `id, store_id AS "storeId", session_id AS "sessionId", query, at, day, region, language, currency,
  with_results AS "withResults", clicked, carted, converted`;
export type RawAttributedSearch = Omit<AttributedSearch, "withResults"> & { withResults: number };
export const toAttributedSearch = (s: RawAttributedSearch): AttributedSearch => ({ ...s, withResults: s.withResults === 1 });

/** A session's stored dimensions as the snapshot carries them. */
export const toSessionDims = ({ storeId, sessionId, ...dims }: { storeId: string; sessionId: string } & Dims) => ({
  storeId,
  sessionId,
  dims,
});

/** Counts per result position, from report_daily's position:N metrics (report-counter.ts). */
export const positionsOf = (rows: readonly { metric: string; value: number }[]) =>
  new Map(rows.map((r) => [Number(r.metric.slice("position:".length)), r.value]));

/** A batch's sketch merged into the stored one (if any), packed to be stored. */
export function mergedSketch(registers: Uint8Array, stored: Uint8Array | null | undefined): Uint8Array {
  const merged = registers.slice();
  if (stored) mergeInto(merged, unpackSketch(stored));
  return packSketch(merged);
}
