/*
 * What the recommendation models read (the analytics worker writes it: recommendation-signals in
 * modules/analytics): both durable stores implement it (recommendations.sqlite.ts, recommendations.postgres.ts),
 * held to the same behaviour by repository-conformance.test.ts.
 */

/** A product's interest in the recent days and in the days before them. */
export interface ProductInterest {
  productId: string;
  recent: number;
  before: number;
}

/** A product bought with another: in how many orders together, and in how many orders at all. */
export interface Partner {
  productId: string;
  together: number;
  orders: number;
}

export interface RecommendationsRepository {
  /** The store's interest summed over days from `recentDay` on (recent) and from `fromDay` to before it. */
  interestTotals(storeId: string, recentDay: string, fromDay: string): Promise<{ recent: number; before: number }>;
  /** Up to `limit` products with recent interest, most recent interest first, with their earlier interest. */
  recentInterest(storeId: string, recentDay: string, fromDay: string, limit: number): Promise<ProductInterest[]>;
  /** The store's order count and this product's. */
  orderCounts(storeId: string, productId: string): Promise<{ store: number; product: number }>;
  /** Products bought with this one in at least `minTogether` orders. */
  partners(storeId: string, productId: string, minTogether: number): Promise<Partner[]>;
  /** A shopper's viewed products, last viewed first, at most `limit`. */
  viewed(storeId: string, shopper: string, limit: number): Promise<string[]>;
  /** The products a shopper bought (of those their list keeps). */
  bought(storeId: string, shopper: string): Promise<string[]>;
}
