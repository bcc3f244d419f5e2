import type { Database } from "bun:sqlite";
import { BehaviourRepo } from "../../db/behaviour-repo.ts";
import { ReportAggregatesRepo } from "../../db/report-aggregates-repo.ts";
import { CONVERSION_WINDOW_MS, clickPosition, dayOf, orderLines, reportQuery } from "../analytics/event-facts.ts";
import type { AnalyticsEvent, EventConsumer } from "../analytics/analytics-worker.ts";
import { logWeight } from "./decay.ts";
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

export class BehaviourLearner implements EventConsumer {
  private readonly repo: BehaviourRepo;
  private readonly attribution: ReportAggregatesRepo;
  private readonly curves = new Map<string, { at: number; weightAt: (p: number | null) => number }>();
  /** The (query, product) evidence this batch adds, per store: what search's cached reads drop once it is written. */
  private written = new Map<string, { query: string; productId: string }[]>();

  constructor(
    db: Database,
    private readonly facts: ProductFacts,
    private readonly now: () => number,
    private readonly evidence?: EvidenceCache,
  ) {
    this.repo = new BehaviourRepo(db);
    this.attribution = new ReportAggregatesRepo(db);
  }

  apply(e: AnalyticsEvent): void {
    switch (e.type) {
      case "ProductClick": {
        const productId = e.data.clickProductId as string;
        const weight = WEIGHTS.click * this.clickWeight(e.storeId, clickPosition(e.data, productId));
        return this.learn(e, "click", productId, [reportQuery(e.data)], weight);
      }
      case "AddToCart":
        return this.learn(e, "cart", e.data.addProductId as string, [reportQuery(e.data)], WEIGHTS.cart);
      case "OrderComplete":
      case "Purchase":
        for (const line of orderLines(e.data)) {
          // The queries the shopper clicked this product from (ReportCounter, which runs first, recorded them).
          const queries = e.sessionId
            ? [...new Set(this.attribution.searchesClickedFor(e.storeId, e.sessionId, line.productId, e.receivedAt - CONVERSION_WINDOW_MS).map((s) => s.query))]
            : [];
          this.learn(e, "purchase", line.productId, queries, WEIGHTS.purchase);
        }
    }
  }

  flush(): void {
    this.repo.flush();
    // Inside the batch's transaction, which commits before any search runs again (both on this thread).
    for (const [storeId, keys] of this.written) this.evidence?.written(storeId, keys);
    this.written.clear();
  }

  discard(): void {
    this.repo.discard();
    this.written.clear();
  }

  prune(before: number): void {
    this.repo.prune(dayOf(before), before);
    this.evidence?.clear();
  }

  private learn(e: AnalyticsEvent, kind: Kind, productId: string, queries: readonly string[], weight: number): void {
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
      if (this.repo.firstToday(e.storeId, day, actor, kind, query, productId)) {
        this.repo.addEvidence(e.storeId, query, productId, add);
        const keys = this.written.get(e.storeId) ?? [];
        if (keys.push({ query, productId }) === 1) this.written.set(e.storeId, keys);
      }
    }
    this.learnTaste(e, productId, WEIGHTS[kind]);
  }

  /** The shopper's affinities, from the product's facet values (a product in three colours: a third to each). */
  private learnTaste(e: AnalyticsEvent, productId: string, weight: number): void {
    const shoppers = [e.userId ? `u:${e.userId}` : null, e.sessionId ? `s:${e.sessionId}` : null].filter((s): s is string => s !== null);
    if (shoppers.length === 0) return;
    const facts = this.facts.of(e.storeId, productId);
    if (!facts) return;
    for (const facet of FACETS) {
      const values = facts[facet];
      for (const value of values) {
        const w = logWeight(weight / values.length, e.receivedAt, AFFINITY_HALF_LIFE_DAYS);
        for (const shopper of shoppers) this.repo.addAffinity(e.storeId, shopper, facet, value, w);
      }
    }
  }

  private clickWeight(storeId: string, position: number | null): number {
    const now = this.now();
    let curve = this.curves.get(storeId);
    if (!curve || now - curve.at > CURVE_TTL_MS) {
      curve = { at: now, weightAt: clickWeights(this.repo.positionClicks(storeId, dayOf(now - CURVE_DAYS * DAY_MS))) };
      this.curves.set(storeId, curve);
    }
    return curve.weightAt(position);
  }
}
