import type {
  InterestDelta,
  OrderCount,
  PairCount,
  RecommendationWrites,
  ShopperProduct,
} from "./storage/recommendation-signals-repository.ts";

/*
 * The recommendation models' sums of one batch of events, in memory (AnalyticsBatch holds one): what
 * modules/recommendations' learner counts, written with the batch (RecommendationWrites).
 */

/** Products of one order that are paired: a huge order (a shop restocking) would add n^2 pairs and teach nothing. */
export const MAX_PAIRED_LINES = 20;

const key = (...parts: string[]) => parts.join("\u0000");

export class RecommendationSignals {
  private readonly interest = new Map<string, InterestDelta>();
  private readonly productOrders = new Map<string, OrderCount>();
  private readonly pairs = new Map<string, PairCount>();
  private readonly shopperProducts = new Map<string, ShopperProduct>();
  private pruning: RecommendationWrites["prune"] = null;

  addInterest(storeId: string, day: string, productId: string, weight: number): void {
    const k = key(storeId, day, productId);
    const row = this.interest.get(k);
    if (row) row.weight += weight;
    else this.interest.set(k, { storeId, day, productId, weight });
  }

  /** An order counted for the first time: its distinct products, each pair of them, and the store's order count. */
  countOrder(storeId: string, productIds: readonly string[]): void {
    const ids = [...new Set(productIds)].slice(0, MAX_PAIRED_LINES);
    for (const id of ["", ...ids]) this.add(this.productOrders, key(storeId, id), { storeId, productId: id, orders: 0 });
    for (const a of ids)
      for (const b of ids) if (a !== b) this.add(this.pairs, key(storeId, a, b), { storeId, productId: a, otherId: b, orders: 0 });
  }

  /** A shopper viewed or bought a product at `at`. */
  touch(storeId: string, shopper: string, productId: string, how: "viewed" | "bought", at: number): void {
    const k = key(storeId, shopper, productId);
    let row = this.shopperProducts.get(k);
    if (!row) this.shopperProducts.set(k, (row = { storeId, shopper, productId, viewedAt: null, boughtAt: null }));
    if (how === "viewed") row.viewedAt = Math.max(row.viewedAt ?? at, at);
    else row.boughtAt = Math.max(row.boughtAt ?? at, at);
  }

  prune(p: NonNullable<RecommendationWrites["prune"]>): void {
    this.pruning = p;
  }

  writes(): RecommendationWrites {
    return {
      interest: [...this.interest.values()],
      productOrders: [...this.productOrders.values()],
      pairs: [...this.pairs.values()],
      shopperProducts: [...this.shopperProducts.values()],
      prune: this.pruning,
    };
  }

  private add<T extends { orders: number }>(map: Map<string, T>, k: string, fresh: T): void {
    const row = map.get(k);
    if (row) row.orders++;
    else map.set(k, { ...fresh, orders: 1 });
  }
}
