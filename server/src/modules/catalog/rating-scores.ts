import type { Popularity, Product } from "./product-schema.ts";

/*
 * The numbers behind sortBy=rating and sortBy=rating2, each on a 0..1 scale (1 = best). Both exist because a
 * plain average ranks a single 5-star review above a thousand reviews averaging 4.8.
 *
 * rating: the Wilson score lower bound. Treat each vote as a share of "positive" (a star rating r of a
 *   maximum M counts as (r - 1) / (M - 1) positive: 1 star = 0, M stars = 1) and take p̂ = the vote-weighted
 *   mean share and n = the number of votes. The lower bound of the 95% confidence interval of p̂ is
 *
 *     (p̂ + z²/2n − z·√(p̂(1 − p̂)/n + z²/4n²)) / (1 + z²/n),   z = 1.96
 *
 *   It punishes few votes: at the same mean, fewer votes give a wider interval and so a lower bound.
 *   Without a ratings summary there are no votes to weigh, so the spec's plain normalised average is used.
 *
 * rating2: a Bayesian average. The store's prior is a mean m (0..1) worth w reviews; a product with average
 *   a (0..1 of the maximum rating) over v reviews scores
 *
 *     (w·m + v·a) / (w + v)
 *
 *   Small samples are pulled toward the store's mean; many reviews let the product's own average speak.
 *
 * Products without rating data (LIKES, no popularity, no votes) score undefined; the caller sorts them last.
 */

export interface BayesPrior {
  /** The store's typical rating, 0..1 of the maximum rating. */
  mean: number;
  /** How many reviews the prior is worth. */
  weight: number;
}

/** z of a two-sided 95% confidence level. */
export const WILSON_Z = 1.96;

/** The spec calls maxRating "typically the same for all items of a store"; five stars when a product omits it. */
export const DEFAULT_MAX_RATING = 5;

/**
 * Both the discriminated Popularity and the product schema's looser static type are accepted: indexing
 * checks `data` against the schema its `type` names, and every number is checked again here anyway.
 */
type PopularityInput = Popularity | Product["popularity"];

const clamp01 = (x: number) => (x > 1 ? 1 : x > 0 ? x : 0); // NaN -> 0

const finiteNonNegative = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : undefined);

/** Lower bound of the Wilson score interval for a share `positiveFraction` of `n` votes; 0 without votes. */
export function wilsonLowerBound(positiveFraction: number, n: number, z: number = WILSON_Z): number {
  if (!(n > 0)) return 0;
  const p = clamp01(positiveFraction);
  const z2 = z * z;
  const centre = p + z2 / (2 * n);
  const margin = z * Math.sqrt((p * (1 - p) + z2 / (4 * n)) / n);
  return clamp01((centre - margin) / (1 + z2 / n));
}

// Summary strings are typed by store feeds: " 4 ", "4.5" and "1,234" (counts) are read; "4 stars", "-1", "" are not.
const DECIMAL = /^\+?(\d+(\.\d*)?|\.\d+)$/;
const THOUSANDS = /^\d{1,3}(,\d{3})+$/;

function parseSummaryNumber(raw: unknown, allowThousands: boolean): number | undefined {
  if (typeof raw === "number") return finiteNonNegative(raw);
  if (typeof raw !== "string") return undefined;
  let text = raw.trim();
  if (allowThousands && THOUSANDS.test(text)) text = text.replaceAll(",", "");
  return DECIMAL.test(text) ? finiteNonNegative(Number(text)) : undefined;
}

interface SummaryTally {
  /** Number of usable votes. */
  votes: number;
  /** Σ count · (r − 1)/(M − 1): the votes' positive shares, for Wilson. */
  positive: number;
  /** Σ count · r: for the plain star average. */
  stars: number;
}

/** The usable votes of a ratings summary; undefined when none (empty, all malformed, or all zero counts). */
function tallySummary(summary: readonly { rating: unknown; count: unknown }[] | undefined, maxRating: number): SummaryTally | undefined {
  const tally: SummaryTally = { votes: 0, positive: 0, stars: 0 };
  for (const entry of summary ?? []) {
    const rating = parseSummaryNumber(entry?.rating, false);
    const count = parseSummaryNumber(entry?.count, true);
    // A star value must lie on the 1..M scale; a count of 0 adds nothing.
    if (rating === undefined || count === undefined || rating < 1 || rating > maxRating || count === 0) continue;
    // With M = 1 the only possible vote is full marks.
    const share = maxRating > 1 ? (rating - 1) / (maxRating - 1) : 1;
    tally.votes += count;
    tally.positive += count * share;
    tally.stars += count * rating;
  }
  return tally.votes > 0 ? tally : undefined;
}

interface StarData {
  maxRating: number;
  overall?: number;
  reviewCount?: number;
  summary?: SummaryTally;
}

function starData(data: Record<string, unknown>): StarData {
  const max = finiteNonNegative(data.maxRating);
  const maxRating = max !== undefined && max > 0 ? max : DEFAULT_MAX_RATING;
  const summary = Array.isArray(data.ratingSummary) ? tallySummary(data.ratingSummary, maxRating) : undefined;
  return { maxRating, overall: finiteNonNegative(data.overallRating), reviewCount: finiteNonNegative(data.reviewCount), summary };
}

/** Up and down votes of THUMBS data; undefined when there are none. */
function thumbsVotes(data: Record<string, unknown>): { up: number; total: number } | undefined {
  const up = finiteNonNegative(data.thumbsUpCount) ?? 0;
  const total = up + (finiteNonNegative(data.thumbsDownCount) ?? 0);
  return total > 0 ? { up, total } : undefined;
}

/** The sort value of sortBy=rating, 0..1; undefined without rating data. */
export function ratingScore(popularity: PopularityInput): number | undefined {
  if (!popularity) return undefined;
  const data = popularity.data as Record<string, unknown>;
  switch (popularity.type) {
    case "STAR": {
      const star = starData(data);
      if (star.summary) return wilsonLowerBound(star.summary.positive / star.summary.votes, star.summary.votes);
      // An overall rating above the maximum means the store sent a different scale; it counts as full marks.
      return star.overall === undefined ? undefined : clamp01(star.overall / star.maxRating);
    }
    case "THUMBS": {
      const votes = thumbsVotes(data);
      return votes && wilsonLowerBound(votes.up / votes.total, votes.total);
    }
    default:
      return undefined; // LIKES count interest, not approval
  }
}

/** (w·m + v·a) / (w + v); the plain average when neither prior nor reviews carry weight. */
function bayesianAverage(average: number, reviews: number, prior: BayesPrior): number {
  const weight = finiteNonNegative(prior.weight) ?? 0;
  if (weight + reviews <= 0) return clamp01(average);
  return clamp01((weight * clamp01(prior.mean) + reviews * clamp01(average)) / (weight + reviews));
}

/** The sort value of sortBy=rating2, 0..1; undefined without rating data. */
export function bayesianRatingScore(popularity: PopularityInput, prior: BayesPrior): number | undefined {
  if (!popularity) return undefined;
  const data = popularity.data as Record<string, unknown>;
  switch (popularity.type) {
    case "STAR": {
      const { overall, maxRating, reviewCount, summary } = starData(data);
      // The average on the r/M scale of overallRating (and of the prior), from the summary when overallRating is absent.
      const average = overall !== undefined ? overall / maxRating : summary && summary.stars / summary.votes / maxRating;
      if (average === undefined) return undefined;
      // A rating without a known review count is worth nothing beyond the prior.
      return bayesianAverage(average, reviewCount ?? summary?.votes ?? 0, prior);
    }
    case "THUMBS": {
      const votes = thumbsVotes(data);
      return votes && bayesianAverage(votes.up / votes.total, votes.total, prior);
    }
    default:
      return undefined;
  }
}
