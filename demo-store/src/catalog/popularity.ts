/*
 * Ratings and likes. Only Flipkart has real ratings (overall rating, no counts); everything else here is
 * synthetic and deterministic per product id. A star distribution is generated around a target rating so
 * that ratingSummary, reviewCount and overallRating agree with each other.
 */

import type { Popularity } from "@storefront-search/contract";
import { seededRandom } from "./seeded-random.ts";

export const MAX_RATING = 5;

/** Star counts ("1".."5") for `reviews` reviews centred on `target`. Sums exactly to `reviews`. */
export function starCounts(target: number, reviews: number): number[] {
  const weights = [1, 2, 3, 4, 5].map((s) => Math.exp(-((s - target) ** 2) / 1.1));
  const total = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((reviews * w) / total));
  // Hand the rounding remainder to the stars nearest the target so the mean stays close to it.
  const order = [0, 1, 2, 3, 4].sort((a, b) => Math.abs(a + 1 - target) - Math.abs(b + 1 - target));
  let missing = reviews - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % 5, missing--) counts[order[i]!]!++;
  return counts;
}

function star(overallRating: number, counts: number[]): Popularity {
  return {
    type: "STAR",
    data: {
      overallRating,
      maxRating: MAX_RATING,
      reviewCount: counts.reduce((a, b) => a + b, 0),
      ratingSummary: counts.map((c, i) => ({ rating: String(i + 1), count: String(c) })),
    },
  };
}

/**
 * Popularity of a product. `realRating` (1..5) is kept as the overall rating when present; the review
 * counts around it are synthetic. Without it: about 55% STAR, 20% LIKES, 25% nothing (new or unrated).
 */
export function popularityFor(productId: string, realRating?: number): Popularity | undefined {
  const rng = seededRandom(productId, "popularity");
  if (realRating !== undefined && realRating > 0) {
    const reviews = rng.int(1, 60);
    return star(Math.min(MAX_RATING, realRating), starCounts(realRating, reviews));
  }
  const roll = rng.next();
  if (roll < 0.55) {
    const target = 2.6 + rng.next() * 2.3;
    const reviews = Math.max(1, rng.logUniform(1, 2500));
    const counts = starCounts(target, reviews);
    const mean = counts.reduce((sum, c, i) => sum + c * (i + 1), 0) / reviews;
    return star(Math.round(mean * 10) / 10, counts);
  }
  if (roll < 0.75) return { type: "LIKES", data: { favLikeCount: rng.logUniform(0, 8000) } };
  return undefined;
}
