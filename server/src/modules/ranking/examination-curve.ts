/*
 * Position bias: how likely a shopper is to look at a result at position p, relative to position 1, estimated
 * from the store's own clicks per position. A click is weighted by the inverse of that (inverse propensity):
 * a click at position 20, which few shoppers reach, is stronger evidence than one at position 1. With few
 * clicks the estimate leans on a prior curve p^-0.7 worth PRIOR_CLICKS clicks; it never rises with position,
 * and a weight is capped so one deep click cannot outweigh many.
 */

const PRIOR_CLICKS = 50;
const PRIOR_EXPONENT = 0.7;
const LAST_ESTIMATED = 200;
export const MAX_CLICK_WEIGHT = 5;

const prior = (p: number) => p ** -PRIOR_EXPONENT;
const PRIOR_TOTAL = Array.from({ length: LAST_ESTIMATED }, (_, i) => prior(i + 1)).reduce((a, b) => a + b, 0);

/** The click weight at each position (1 at position 1, up to MAX_CLICK_WEIGHT). */
export function clickWeights(clicksAt: ReadonlyMap<number, number>): (position: number | null) => number {
  // Clicks seen at p plus the prior's share of PRIOR_CLICKS pseudo-clicks.
  const estimate = (p: number) => (clicksAt.get(p) ?? 0) + (PRIOR_CLICKS * prior(p)) / PRIOR_TOTAL;
  const weights = new Float64Array(LAST_ESTIMATED + 1);
  const top = estimate(1);
  let propensity = 1;
  for (let p = 1; p <= LAST_ESTIMATED; p++) {
    propensity = Math.min(propensity, estimate(p) / top);
    weights[p] = Math.min(MAX_CLICK_WEIGHT, 1 / propensity);
  }
  return (position) => (position === null || position < 1 ? 1 : weights[Math.min(position, LAST_ESTIMATED)]!);
}
