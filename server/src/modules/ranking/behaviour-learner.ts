import type { AnalyticsStateRepository } from "../analytics/storage/analytics-state-repository.ts";
import type { AnalyticsBatch } from "../analytics/analytics-batch.ts";
import { CONVERSION_WINDOW_MS, clickPosition, dayOf, orderLines, reportQuery } from "../analytics/event-facts.ts";
import type { AnalyticsEvent, EventConsumer } from "../analytics/analytics-worker.ts";
import { shopperKeysOf } from "../analytics/storage/shopper-erasure-repository.ts";
import { logWeight } from "../../lib/decay.ts";
import { AFFINITY_HALF_LIFE_DAYS, BEHAVIOUR_HALF_LIFE_DAYS } from "./half-lives.ts";
import { clickWeights } from "./examination-curve.ts";
import type { EvidenceCache } from "./evidence-cache.ts";
import { FACETS, type ProductFacts } from "./product-facts.ts";

/*
 * Learns from shopper events what ranking and personalisation read:
 * - evidence per (query, product) and per product: click 1 (weighted for position bias), add-to-cart 3,
 *   purchase 8, with a 14-day half-life; one shopper (user id, else session id) counts once per product, query
 *   and kind of event per day, however many events it sends;
 * - each shopper's (user and session) affinity to brand, category, colour and price band, 7-day half-life.
 */

export const WEIGHTS = { click: 1, cart: 3, purchase: 8 } as const;

const DAY_MS = 86_400_000;
/** Days of click positions the examination curve is estimated from, and how long an estimate is reused. */
const CURVE_DAYS = 28;
const CURVE_TTL_MS = 10 * 60_000;

type Kind = keyof typeof WEIGHTS;

/** Decayed weight below which evidence and affinities are dropped. */
const NEGLIGIBLE = 0.01;

export class BehaviourLearner implements EventConsumer {
  private readonly curves = new Map<string, { at: number; weightAt: (p: number | null) => number }>();
  /** The (query, product) evidence this batch adds, per store: what search's cached reads drop once it is written. */
  private written = new Map<string, { query: string; productId: string }[]>();
  /** The shoppers ("u:…", "s:…") whose affinities this batch changes, per store: search's cached tastes of them go. */
  private tastesWritten = new Map<string, Set<string>>();

  constructor(
    /** Where the examination curve's click positions are read. */
    private readonly state: Pick<AnalyticsStateRepository, "positionClicks">,
    private readonly facts: ProductFacts,
    private readonly now: () => number,
    /** Told what was written (search drops its cached reads of it) and when evidence was pruned. */
    private readonly evidence?: Pick<EvidenceCache, "written" | "clear">,
  ) {}

  /** Reads the batch's products' facts and its stores' examination curves, which apply() uses. */
  async prepare(batch: readonly AnalyticsEvent[]): Promise<void> {
    const products = new Map<string, string[]>();
    for (const e of batch) {
      const ids = productsOf(e);
      if (ids.length) products.set(e.storeId, [...(products.get(e.storeId) ?? []), ...ids]);
    }
    for (const [storeId, ids] of products) await this.facts.load(storeId, ids);
    const now = this.now();
    for (const storeId of new Set(batch.filter((e) => e.type === "ProductClick").map((e) => e.storeId))) {
      const curve = this.curves.get(storeId);
      if (curve && now - curve.at <= CURVE_TTL_MS) continue;
      this.curves.set(storeId, {
        at: now,
        weightAt: clickWeights(await this.state.positionClicks(storeId, dayOf(now - CURVE_DAYS * DAY_MS))),
      });
    }
  }

  apply(e: AnalyticsEvent, state: AnalyticsBatch): void {
    switch (e.type) {
      case "ProductClick": {
        const productId = e.data.clickProductId as string;
        const weight = WEIGHTS.click * (this.curves.get(e.storeId)?.weightAt(clickPosition(e.data, productId)) ?? 1);
        return this.learn(e, "click", productId, [reportQuery(e.data)], weight, state);
      }
      case "AddToCart":
        return this.learn(e, "cart", e.data.addProductId as string, [reportQuery(e.data)], WEIGHTS.cart, state);
      case "OrderComplete":
      case "Purchase":
        for (const line of orderLines(e.data)) {
          // The queries the shopper clicked this product from (ReportCounter, which runs first, recorded them).
          const queries = e.sessionId
            ? [
                ...new Set(
                  state.searchesClickedFor(e.storeId, e.sessionId, line.productId, e.receivedAt - CONVERSION_WINDOW_MS).map((s) => s.query),
                ),
              ]
            : [];
          this.learn(e, "purchase", line.productId, queries, WEIGHTS.purchase, state);
        }
    }
  }

  /** The batch committed: search's cached evidence of what it wrote goes. */
  committed(): void {
    for (const storeId of new Set([...this.written.keys(), ...this.tastesWritten.keys()]))
      this.evidence?.written(storeId, this.written.get(storeId) ?? [], [...(this.tastesWritten.get(storeId) ?? [])]);
    this.written.clear();
    this.tastesWritten.clear();
  }

  /** The batch was not written: what it would have told search goes. */
  discarded(): void {
    this.written.clear();
    this.tastesWritten.clear();
  }

  prune(before: number, state: AnalyticsBatch): void {
    state.prune({
      day: dayOf(before),
      evidenceBelow: logWeight(NEGLIGIBLE, before, BEHAVIOUR_HALF_LIFE_DAYS),
      affinityBelow: logWeight(NEGLIGIBLE, before, AFFINITY_HALF_LIFE_DAYS),
    });
    this.evidence?.clear();
  }

  private learn(e: AnalyticsEvent, kind: Kind, productId: string, queries: readonly string[], weight: number, state: AnalyticsBatch): void {
    const actor = e.userId ?? e.sessionId;
    if (!actor) return; // nobody to count once: anonymous events teach nothing
    const day = dayOf(e.receivedAt);
    const add = {
      evidence: logWeight(weight, e.receivedAt, BEHAVIOUR_HALF_LIFE_DAYS),
      // Eligibility counts clicks and purchases, each from one shopper once a day: a single shopper's click,
      // cart and purchase of one product stay below any threshold of two.
      ...(kind === "click" ? { clicks: logWeight(1, e.receivedAt, BEHAVIOUR_HALF_LIFE_DAYS) } : {}),
      ...(kind === "purchase" ? { conversions: logWeight(1, e.receivedAt, BEHAVIOUR_HALF_LIFE_DAYS) } : {}),
    };
    for (const query of new Set(["", ...queries])) {
      if (state.firstToday(e.storeId, day, actor, kind, query, productId)) {
        state.addEvidence(e.storeId, query, productId, add);
        const keys = this.written.get(e.storeId) ?? [];
        if (keys.push({ query, productId }) === 1) this.written.set(e.storeId, keys);
      }
    }
    this.learnTaste(e, productId, WEIGHTS[kind], state);
  }

  /** The shopper's affinities, from the product's facet values (a product in three colours: a third to each). */
  private learnTaste(e: AnalyticsEvent, productId: string, weight: number, state: AnalyticsBatch): void {
    const shoppers = shopperKeysOf(e);
    if (shoppers.length === 0) return;
    const facts = this.facts.of(e.storeId, productId);
    if (!facts) return;
    const changed = this.tastesWritten.get(e.storeId) ?? new Set<string>();
    for (const shopper of shoppers) changed.add(shopper);
    this.tastesWritten.set(e.storeId, changed);
    for (const facet of FACETS) {
      const values = facts[facet];
      for (const value of values) {
        const w = logWeight(weight / values.length, e.receivedAt, AFFINITY_HALF_LIFE_DAYS);
        for (const shopper of shoppers) state.addAffinity(e.storeId, shopper, facet, value, w);
      }
    }
  }
}

/** The products an event teaches about. */
function productsOf(e: AnalyticsEvent): string[] {
  switch (e.type) {
    case "ProductClick":
      return [e.data.clickProductId as string];
    case "AddToCart":
      return [e.data.addProductId as string];
    case "OrderComplete":
    case "Purchase":
      return orderLines(e.data).map((line) => line.productId);
    default:
      return [];
  }
}
