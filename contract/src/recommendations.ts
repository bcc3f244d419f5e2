import type { SearchProduct } from "./search.ts";

/*
 * The recommendation endpoints (GET /recommendations/{placement}) and the widget placements that show them: one
 * name per model, used in the path, in the head script's data-sfs-recommend attribute and in the `placement` of
 * the ProductClick events a placement sends, which GET /reports/recommendations counts.
 */

export const RECOMMENDATION_PLACEMENTS = ["trending", "bought-together", "recently-viewed", "for-you"] as const;
export type RecommendationPlacement = (typeof RECOMMENDATION_PLACEMENTS)[number];

/** What answered when a model had nothing to say yet (a store's first day, a product never ordered, a new shopper). */
export type RecommendationFallback = "popular" | "complete-the-look" | "trending";

export interface RecommendationsResponse {
  /** The model asked for. */
  model: RecommendationPlacement;
  /** null: the model answered; otherwise what answered in its place. */
  fallback: RecommendationFallback | null;
  /** Each Search product carries price.first, as /similarity's do. */
  products: { product: SearchProduct }[];
}

export const isRecommendationPlacement = (value: unknown): value is RecommendationPlacement =>
  (RECOMMENDATION_PLACEMENTS as readonly unknown[]).includes(value);
