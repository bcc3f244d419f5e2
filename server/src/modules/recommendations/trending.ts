import type { ProductInterest } from "./storage/recommendations-repository.ts";

/*
 * Trending: products whose interest in the recent days rises above what their own earlier days and the store's
 * traffic lead one to expect (recommendations.md). With R the store's recent interest and B its earlier one, a
 * product with earlier interest b is expected to have e = R * b / B now (0 when the store has no earlier days);
 * its score is (r - e) / sqrt(e + 1), a Poisson z-score: a steadily popular product scores about 0 however
 * popular, a product rising from nothing scores about its recent interest, and a busy day for the whole store
 * lifts nothing.
 */

/** Recent interest a product needs to trend: two shoppers' views, or one shopper's add-to-cart. */
export const MIN_RECENT_INTEREST = 2;

export interface Trend {
  productId: string;
  score: number;
}

export function trendingProducts(products: readonly ProductInterest[], totals: { recent: number; before: number }): Trend[] {
  const scale = totals.before > 0 ? totals.recent / totals.before : 0;
  return products
    .filter((p) => p.recent >= MIN_RECENT_INTEREST)
    .map((p) => {
      const expected = p.before * scale;
      return { productId: p.productId, score: (p.recent - expected) / Math.sqrt(expected + 1) };
    })
    .filter((t) => t.score > 0)
    .sort((a, b) => b.score - a.score || (a.productId < b.productId ? -1 : 1));
}
