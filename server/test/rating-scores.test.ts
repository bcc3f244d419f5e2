import { describe, expect, test } from "bun:test";
import type { Popularity } from "../src/modules/catalog/product-schema.ts";
import { bayesianRatingScore, ratingScore, wilsonLowerBound, type BayesPrior } from "../src/modules/catalog/rating-scores.ts";

/*
 * Expected values are computed here from the textbook formula, written out independently of the code:
 * Wilson lower bound = [p + z²/(2n) − z·sqrt(p(1−p)/n + z²/(4n²))] / (1 + z²/n).
 */
function wilsonByHand(p: number, n: number, z = 1.96): number {
  const zz = z * z;
  return (p + zz / (2 * n) - z * Math.sqrt((p * (1 - p)) / n + zz / (4 * n * n))) / (1 + zz / n);
}

const star = (data: Extract<Popularity, { type: "STAR" }>["data"]): Popularity => ({ type: "STAR", data });
const summary = (counts: Record<string, number | string>) =>
  Object.entries(counts).map(([rating, count]) => ({ rating, count: String(count) }));
const PRIOR: BayesPrior = { mean: 0.7, weight: 10 };

describe("wilsonLowerBound", () => {
  test("hand-computed values", () => {
    // p̂ = 0.8, n = 10: (0.8 + 0.19208 − 1.96·sqrt(0.016 + 0.009604)) / 1.38416 = 0.678456 / 1.38416
    expect(wilsonLowerBound(0.8, 10)).toBeCloseTo(0.4902, 4);
    expect(wilsonLowerBound(0.8, 10)).toBeCloseTo(wilsonByHand(0.8, 10), 12);
    expect(wilsonLowerBound(0.5, 100)).toBeCloseTo(wilsonByHand(0.5, 100), 12);
    expect(wilsonLowerBound(1, 3)).toBeCloseTo(wilsonByHand(1, 3), 12);
    expect(wilsonLowerBound(0.9, 1000, 2.576)).toBeCloseTo(wilsonByHand(0.9, 1000, 2.576), 12);
    // p̂ = 0: the numerator is z²/2n − z·sqrt(z²/4n²) = 0.
    expect(wilsonLowerBound(0, 25)).toBeCloseTo(0, 12);
  });

  test("no votes score 0; out-of-range fractions are clamped", () => {
    expect(wilsonLowerBound(1, 0)).toBe(0);
    expect(wilsonLowerBound(0.5, -4)).toBe(0);
    expect(wilsonLowerBound(0.5, Number.NaN)).toBe(0);
    expect(wilsonLowerBound(1.7, 10)).toBeCloseTo(wilsonByHand(1, 10), 12);
    expect(wilsonLowerBound(Number.NaN, 10)).toBeCloseTo(wilsonByHand(0, 10), 12);
  });

  test("at the same mean, fewer votes rank lower", () => {
    const scores = [1, 5, 20, 100, 1000].map((n) => wilsonLowerBound(0.8, n));
    expect([...scores].sort((a, b) => a - b)).toEqual(scores);
    expect(new Set(scores).size).toBe(scores.length);
  });
});

describe("ratingScore (sortBy=rating)", () => {
  test("STAR with a summary: Wilson bound of the count-weighted share (r−1)/(max−1)", () => {
    // 2★×4, 3★×8, 4★×2 of 5: shares 0.25, 0.5, 0.75 → p̂ = (1 + 4 + 1.5) / 14
    const p = star({ overallRating: 2.9, maxRating: 5, reviewCount: 14, ratingSummary: summary({ 1: 0, 2: 4, 3: 8, 4: 2, 5: 0 }) });
    expect(ratingScore(p)).toBeCloseTo(wilsonByHand(6.5 / 14, 14), 12);
  });

  test("STAR summary on another scale uses maxRating; five stars when it is absent", () => {
    // 10-point scale: 10★×3, 1★×1 → shares 1 and 0 → p̂ = 0.75, n = 4
    expect(ratingScore(star({ maxRating: 10, ratingSummary: summary({ 10: 3, 1: 1 }) }))).toBeCloseTo(wilsonByHand(0.75, 4), 12);
    // Default of 5: 5★×8, 1★×2 → p̂ = 0.8, n = 10
    expect(ratingScore(star({ ratingSummary: summary({ 5: 8, 1: 2 }) }))).toBeCloseTo(0.4902, 4);
  });

  test("STAR: more votes at the same mean rank higher", () => {
    const few = ratingScore(star({ ratingSummary: summary({ 5: 8, 1: 2 }) }))!;
    const many = ratingScore(star({ ratingSummary: summary({ 5: 80, 1: 20 }) }))!;
    const single = ratingScore(star({ ratingSummary: summary({ 5: 1 }) }))!;
    expect(many).toBeGreaterThan(few);
    // One five-star review does not beat a hundred votes at 80%.
    expect(single).toBeLessThan(many);
  });

  test("STAR without a summary: overallRating / maxRating, undefined without overallRating", () => {
    expect(ratingScore(star({ overallRating: 4, maxRating: 5 }))).toBeCloseTo(0.8, 12);
    expect(ratingScore(star({ overallRating: 4, maxRating: 10 }))).toBeCloseTo(0.4, 12);
    expect(ratingScore(star({ overallRating: 3 }))).toBeCloseTo(0.6, 12);
    expect(ratingScore(star({ overallRating: 7, maxRating: 5 }))).toBe(1);
    expect(ratingScore(star({ maxRating: 5, reviewCount: 12 }))).toBeUndefined();
    expect(ratingScore(star({ overallRating: 4, ratingSummary: [] }))).toBeCloseTo(0.8, 12);
  });

  test("THUMBS: Wilson bound of up / (up + down); no votes is undefined", () => {
    expect(ratingScore({ type: "THUMBS", data: { thumbsUpCount: 8, thumbsDownCount: 2 } })).toBeCloseTo(0.4902, 4);
    expect(ratingScore({ type: "THUMBS", data: { thumbsUpCount: 3 } })).toBeCloseTo(wilsonByHand(1, 3), 12);
    expect(ratingScore({ type: "THUMBS", data: { thumbsDownCount: 4 } })).toBeCloseTo(0, 12);
    expect(ratingScore({ type: "THUMBS", data: {} })).toBeUndefined();
  });

  test("LIKES and no popularity are undefined", () => {
    expect(ratingScore({ type: "LIKES", data: { favLikeCount: 5000 } })).toBeUndefined();
    expect(ratingScore(undefined)).toBeUndefined();
  });

  test("malformed summary entries are ignored", () => {
    const clean = ratingScore(star({ ratingSummary: summary({ 5: 8, 1: 2 }) }));
    const noisy = star({
      ratingSummary: [
        { rating: "5", count: "8" },
        { rating: " 1 ", count: "2" },
        { rating: "five", count: "10" }, // unparsable rating
        { rating: "4 stars", count: "10" }, // trailing text
        { rating: "4", count: "-3" }, // negative count
        { rating: "-2", count: "3" }, // negative rating
        { rating: "6", count: "9" }, // above maxRating
        { rating: "0", count: "9" }, // below the 1-star floor
        { rating: "3", count: "" }, // empty count
        { rating: "3", count: "NaN" },
        { rating: "3", count: "1e3" },
        { rating: "3", count: "0" },
      ],
    });
    expect(ratingScore(noisy)).toBeCloseTo(clean!, 12);
  });

  test("counts with thousands separators and decimal star values are read", () => {
    // 4.5★ of 5 → share 0.875; 1,000 votes
    expect(ratingScore(star({ ratingSummary: [{ rating: "4.5", count: "1,000" }] }))).toBeCloseTo(wilsonByHand(0.875, 1000), 12);
  });

  test("a summary with no usable entry falls back to overallRating / maxRating", () => {
    const p = star({
      overallRating: 4.5,
      maxRating: 5,
      ratingSummary: [
        { rating: "x", count: "3" },
        { rating: "5", count: "0" },
      ],
    });
    expect(ratingScore(p)).toBeCloseTo(0.9, 12);
  });
});

describe("bayesianRatingScore (sortBy=rating2)", () => {
  // (w·m + v·a) / (w + v), written out per case.
  test("STAR: the average is pulled toward the prior, less so with more reviews", () => {
    const one = bayesianRatingScore(star({ overallRating: 5, maxRating: 5, reviewCount: 1 }), PRIOR)!;
    const many = bayesianRatingScore(star({ overallRating: 5, maxRating: 5, reviewCount: 1000 }), PRIOR)!;
    expect(one).toBeCloseTo((10 * 0.7 + 1 * 1) / 11, 12);
    expect(many).toBeCloseTo((10 * 0.7 + 1000 * 1) / 1010, 12);
    expect(one).toBeLessThan(many);
    // A poor rating is pulled up toward the prior, too.
    const poor = bayesianRatingScore(star({ overallRating: 1, maxRating: 5, reviewCount: 2 }), PRIOR)!;
    expect(poor).toBeCloseTo((10 * 0.7 + 2 * 0.2) / 12, 12);
  });

  test("STAR without overallRating uses the summary's mean stars / max; without reviewCount the summary total", () => {
    // 5★×3, 3★×1 → mean 4.5 → a = 0.9, v = 4
    const p = star({ maxRating: 5, ratingSummary: summary({ 5: 3, 3: 1 }) });
    expect(bayesianRatingScore(p, PRIOR)).toBeCloseTo((10 * 0.7 + 4 * 0.9) / 14, 12);
    // overallRating wins over the summary mean; reviewCount over the summary total.
    const both = star({ overallRating: 4, reviewCount: 40, ratingSummary: summary({ 5: 3, 3: 1 }) });
    expect(bayesianRatingScore(both, PRIOR)).toBeCloseTo((10 * 0.7 + 40 * 0.8) / 50, 12);
  });

  test("STAR: no average is undefined; an average without any review count is the prior", () => {
    expect(bayesianRatingScore(star({ reviewCount: 30 }), PRIOR)).toBeUndefined();
    expect(bayesianRatingScore(star({ overallRating: 5 }), PRIOR)).toBeCloseTo(0.7, 12);
    // A prior worth nothing leaves the plain average.
    expect(bayesianRatingScore(star({ overallRating: 4 }), { mean: 0.7, weight: 0 })).toBeCloseTo(0.8, 12);
  });

  test("THUMBS: a = up / (up + down), v = up + down", () => {
    const p: Popularity = { type: "THUMBS", data: { thumbsUpCount: 8, thumbsDownCount: 2 } };
    expect(bayesianRatingScore(p, PRIOR)).toBeCloseTo((10 * 0.7 + 10 * 0.8) / 20, 12);
    expect(bayesianRatingScore({ type: "THUMBS", data: { thumbsUpCount: 0, thumbsDownCount: 0 } }, PRIOR)).toBeUndefined();
  });

  test("LIKES and no popularity are undefined", () => {
    expect(bayesianRatingScore({ type: "LIKES", data: { favLikeCount: 3 } }, PRIOR)).toBeUndefined();
    expect(bayesianRatingScore(undefined, PRIOR)).toBeUndefined();
  });

  test("malformed summary entries are ignored here too", () => {
    const p = star({ ratingSummary: [...summary({ 5: 3, 3: 1 }), { rating: "9", count: "50" }, { rating: "?", count: "50" }] });
    expect(bayesianRatingScore(p, PRIOR)).toBeCloseTo((10 * 0.7 + 4 * 0.9) / 14, 12);
  });
});
