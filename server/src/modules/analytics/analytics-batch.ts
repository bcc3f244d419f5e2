import {
  type AttributedClick,
  type AttributedSearch,
  type BatchWrites,
  type Bucket,
  type Dims,
  type EvidenceLogs,
  type ExperimentShopperDelta,
  NO_LOG,
  type ProductCounts,
  type QueryCounts,
  type SearchMark,
  type StateSnapshot,
} from "./storage/analytics-state-repository.ts";
import { logAdd } from "../../lib/decay.ts";
import { addToSketch, emptySketch } from "../../lib/hyperloglog.ts";
import { RecommendationSignals } from "./recommendation-signals.ts";

/*
 * One batch of events being counted, in memory: the attribution state of its sessions as loaded before the batch
 * (AnalyticsStateRepository.load) plus what the batch adds, and the sums it writes at the end in one transaction
 * (writes()). The consumers (report counter, behaviour learner) read and write through it, never the database,
 * so a batch costs two round trips however many events it holds, on SQLite or PostgreSQL alike.
 */

const key = (...parts: string[]) => parts.join("\u0000");
const bucketKey = (b: Bucket) => key(b.storeId, b.day, b.region, b.language, b.currency);
const EMPTY_QUERY: QueryCounts = { searches: 0, noResults: 0, clicked: 0, converted: 0, positionSum: 0, positions: 0 };
const EMPTY_PRODUCT: ProductCounts = { clicks: 0, carts: 0, purchases: 0, revenue: 0 };
const EMPTY_LOGS: EvidenceLogs = { evidence: -Infinity, clicks: -Infinity, conversions: -Infinity };

export class AnalyticsBatch {
  private readonly searches = new Map<string, AttributedSearch[]>();
  private readonly clicks = new Map<string, AttributedClick[]>();
  private readonly dims = new Map<string, Dims>();
  /** Orders counted, each with the seq of the event that counted it first in this batch (0: counted before). */
  private readonly orders: Map<string, number>;
  private readonly seen: Set<string>;
  private nextId = -1;

  private readonly daily = new Map<string, BatchWrites["daily"][number]>();
  private readonly queries = new Map<string, BatchWrites["queries"][number]>();
  private readonly products = new Map<string, BatchWrites["products"][number]>();
  private readonly queryClicks = new Map<string, BatchWrites["queryClicks"][number]>();
  private readonly sketches = new Map<string, BatchWrites["sketches"][number]>();
  private readonly newSearches: AttributedSearch[] = [];
  private readonly marks: BatchWrites["marks"] = [];
  private readonly newClicks: AttributedClick[] = [];
  private readonly sessionWrites = new Map<string, BatchWrites["sessions"][number]>();
  private readonly newOrders: [string, string][] = [];
  private readonly answers = new Map<string, BatchWrites["answers"][number]>();
  private readonly newSeen: BatchWrites["seen"] = [];
  private readonly evidence = new Map<string, BatchWrites["evidence"][number]>();
  private readonly affinities = new Map<string, BatchWrites["affinities"][number]>();
  private readonly experimentShoppers = new Map<string, ExperimentShopperDelta>();
  private pruning: BatchWrites["prune"] = null;
  /** The recommendation models' sums (modules/recommendations counts them). */
  readonly recommendations = new RecommendationSignals();

  constructor(snapshot: StateSnapshot) {
    for (const s of snapshot.searches) this.listOf(this.searches, key(s.storeId, s.sessionId)).push(s);
    for (const c of snapshot.clicks) this.listOf(this.clicks, key(c.storeId, c.sessionId)).push(c);
    for (const s of snapshot.sessions) this.dims.set(key(s.storeId, s.sessionId), s.dims);
    this.orders = new Map(snapshot.orders.map(([storeId, orderId]) => [key(storeId, orderId), 0]));
    this.seen = new Set(snapshot.seen.map((parts) => key(...parts)));
  }

  count(bucket: Bucket, metric: string, delta = 1): void {
    const k = key(bucketKey(bucket), metric);
    const row = this.daily.get(k);
    if (row) row.delta += delta;
    else this.daily.set(k, { bucket, metric, delta });
  }

  countQuery(bucket: Bucket, query: string, delta: Partial<QueryCounts>): void {
    const k = key(bucketKey(bucket), query);
    let row = this.queries.get(k);
    if (!row) this.queries.set(k, (row = { bucket, query, counts: { ...EMPTY_QUERY } }));
    for (const [field, n] of Object.entries(delta) as [keyof QueryCounts, number][]) row.counts[field] += n;
  }

  countProduct(bucket: Bucket, productId: string, delta: Partial<ProductCounts>): void {
    const k = key(bucketKey(bucket), productId);
    let row = this.products.get(k);
    if (!row) this.products.set(k, (row = { bucket, productId, counts: { ...EMPTY_PRODUCT } }));
    for (const [field, n] of Object.entries(delta) as [keyof ProductCounts, number][]) row.counts[field] += n;
  }

  countQueryClick(bucket: Bucket, query: string, productId: string): void {
    const k = key(bucketKey(bucket), query, productId);
    const row = this.queryClicks.get(k);
    if (row) row.clicks++;
    else this.queryClicks.set(k, { bucket, query, productId, clicks: 1 });
  }

  visitor(bucket: Bucket, kind: "user" | "session", visitor: string): void {
    const k = key(bucketKey(bucket), kind);
    let row = this.sketches.get(k);
    if (!row) this.sketches.set(k, (row = { bucket, kind, registers: emptySketch() }));
    addToSketch(row.registers, visitor);
  }

  /**
   * Counts an order once; false when an earlier event counted it. Every consumer asks for the same event (its seq),
   * and each is told true for the event that counts the order.
   */
  firstTimeOrder(storeId: string, orderId: string, seq: number): boolean {
    const k = key(storeId, orderId);
    const by = this.orders.get(k);
    if (by !== undefined) return by === seq;
    this.orders.set(k, seq);
    this.newOrders.push([storeId, orderId]);
    return true;
  }

  rememberSearch(s: Bucket & { query: string }, sessionId: string, at: number, withResults: boolean): void {
    const search: AttributedSearch = { ...s, id: this.nextId--, sessionId, at, withResults, clicked: 0, carted: 0, converted: 0 };
    this.listOf(this.searches, key(s.storeId, sessionId)).push(search);
    this.newSearches.push(search);
  }

  /** The session's searches with results for `query` made in [from, to]. */
  searchesBetween(storeId: string, sessionId: string, query: string, from: number, to: number): AttributedSearch[] {
    return (this.searches.get(key(storeId, sessionId)) ?? []).filter(
      (s) => s.withResults && s.query === query && s.at >= from && s.at <= to,
    );
  }

  /** The session's searches from which `productId` was clicked, made at or after `since`. */
  searchesClickedFor(storeId: string, sessionId: string, productId: string, since: number): AttributedSearch[] {
    const k = key(storeId, sessionId);
    const ids = new Set((this.clicks.get(k) ?? []).filter((c) => c.productId === productId).map((c) => c.searchId));
    return (this.searches.get(k) ?? []).filter((s) => ids.has(s.id) && s.at >= since);
  }

  /** Marks a search; false when it had that mark already. */
  mark(s: AttributedSearch, mark: SearchMark): boolean {
    if (s[mark]) return false;
    s[mark] = 1;
    // A new search is written with its marks.
    if (s.id > 0) this.marks.push({ id: s.id, mark });
    return true;
  }

  rememberClick(storeId: string, sessionId: string, productId: string, searchId: number): void {
    const list = this.listOf(this.clicks, key(storeId, sessionId));
    if (list.some((c) => c.productId === productId && c.searchId === searchId)) return;
    const click = { storeId, sessionId, productId, searchId };
    list.push(click);
    this.newClicks.push(click);
  }

  sessionDimensions(storeId: string, sessionId: string): Dims | null {
    return this.dims.get(key(storeId, sessionId)) ?? null;
  }

  setSessionDimensions(storeId: string, sessionId: string, dims: Dims, at: number): void {
    const k = key(storeId, sessionId);
    this.dims.set(k, dims);
    this.sessionWrites.set(k, { storeId, sessionId, dims, at });
  }

  /** Keeps the latest first page the store's own search gave for a query (the preprod report compares them). */
  saveAnswer(a: BatchWrites["answers"][number]): void {
    this.answers.set(key(a.storeId, a.query), a);
  }

  /** Whether this shopper's event of this kind for this product (and query) is the first today. */
  firstToday(storeId: string, day: string, actor: string, kind: string, query: string, productId: string): boolean {
    const k = key(storeId, day, actor, kind, query, productId);
    if (this.seen.has(k)) return false;
    this.seen.add(k);
    this.newSeen.push([storeId, day, actor, kind, query, productId]);
    return true;
  }

  addEvidence(storeId: string, query: string, productId: string, add: Partial<EvidenceLogs>): void {
    const k = key(storeId, query, productId);
    let row = this.evidence.get(k);
    if (!row) this.evidence.set(k, (row = { storeId, query, productId, add: { ...EMPTY_LOGS } }));
    for (const [part, v] of Object.entries(add) as [keyof EvidenceLogs, number][]) row.add[part] = logAdd(row.add[part], v);
  }

  addAffinity(storeId: string, shopper: string, facet: string, value: string, logWeight: number): void {
    const k = key(storeId, shopper, facet, value);
    const row = this.affinities.get(k);
    if (row) row.add = logAdd(row.add, logWeight);
    else this.affinities.set(k, { storeId, shopper, facet, value, add: logWeight });
  }

  countExperimentShopper(d: ExperimentShopperDelta): void {
    const k = key(d.storeId, d.experimentId, d.shopper);
    const row = this.experimentShoppers.get(k);
    if (!row) {
      this.experimentShoppers.set(k, { ...d });
      return;
    }
    row.searches += d.searches;
    row.emptySearches += d.emptySearches;
    row.revenue += d.revenue;
    row.events += d.events;
    row.creditsA += d.creditsA;
    row.creditsB += d.creditsB;
    row.clicked = Math.max(row.clicked, d.clicked);
    row.carted = Math.max(row.carted, d.carted);
    row.ordered = Math.max(row.ordered, d.ordered);
    row.bot = Math.max(row.bot, d.bot);
    row.currency = d.currency ?? row.currency;
  }

  /** Old working state goes with this batch's writes (each consumer names what of its own state is old). */
  prune(p: Partial<NonNullable<BatchWrites["prune"]>>): void {
    this.pruning = { ...(this.pruning ?? { before: 0, day: "", evidenceBelow: NO_LOG, affinityBelow: NO_LOG }), ...p };
  }

  writes(consumer: string, afterSeq: number, lastSeq: number): BatchWrites {
    return {
      consumer,
      afterSeq,
      lastSeq,
      daily: [...this.daily.values()],
      queries: [...this.queries.values()],
      products: [...this.products.values()],
      queryClicks: [...this.queryClicks.values()],
      sketches: [...this.sketches.values()],
      newSearches: this.newSearches,
      marks: this.marks,
      newClicks: this.newClicks,
      sessions: [...this.sessionWrites.values()],
      orders: this.newOrders,
      answers: [...this.answers.values()],
      seen: this.newSeen,
      evidence: [...this.evidence.values()],
      affinities: [...this.affinities.values()],
      experimentShoppers: [...this.experimentShoppers.values()],
      recommendations: this.recommendations.writes(),
      prune: this.pruning,
    };
  }

  private listOf<T>(map: Map<string, T[]>, k: string): T[] {
    let list = map.get(k);
    if (!list) map.set(k, (list = []));
    return list;
  }
}
