/*
 * What a batch of events adds to the recommendation models' tables (platform/schema/recommendations.ts), written
 * in the batch's transaction by both durable stores (recommendation-signals.sqlite.ts, .postgres.ts) and read by
 * modules/recommendations. The counting is recommendation-signals.ts, in memory.
 */

/** Products a shopper's list keeps: the newest by their last view or purchase. */
export const PRODUCTS_PER_SHOPPER = 50;

export interface InterestDelta {
  storeId: string;
  day: string;
  productId: string;
  weight: number;
}

/** Orders to add for a product (product '': the store's orders), or for a pair of products (one direction). */
export interface OrderCount {
  storeId: string;
  productId: string;
  orders: number;
}
export interface PairCount extends OrderCount {
  otherId: string;
}

/** A shopper's latest view and purchase of a product (ms; null: none in this batch). */
export interface ShopperProduct {
  storeId: string;
  shopper: string;
  productId: string;
  viewedAt: number | null;
  boughtAt: number | null;
}

export interface RecommendationWrites {
  interest: InterestDelta[];
  productOrders: OrderCount[];
  pairs: PairCount[];
  shopperProducts: ShopperProduct[];
  /** Interest of days before `interestDay`, and shoppers' products last touched before `shopperAt` (ms), go. */
  prune: { interestDay: string; shopperAt: number } | null;
}

export const NO_RECOMMENDATION_WRITES: RecommendationWrites = {
  interest: [],
  productOrders: [],
  pairs: [],
  shopperProducts: [],
  prune: null,
};
