/*
 * The statistics an experiment's results are judged by (docs/experiments.md gives the formulas): Wilson intervals
 * for a variant's rates, the two-proportion z-test for a rate's difference to the control, Welch's t-test for
 * revenue per shopper capped at the buyers' 99th percentile, and the shoppers a test needs before it starts. Pure
 * functions of counts, so every replica computes the same answer from the same aggregates.
 */

import type { Comparison, Interval, SampleSizeEstimate } from "@storefront-search/contract";

// The answers' shapes are the contract's (contract/src/experiments.ts).
export type { Comparison, Interval, SampleSizeEstimate };

export const ALPHA = 0.05;
export const POWER = 0.8;

/** Revenue above the buyers' 99th percentile counts as that percentile: one huge order cannot decide a test. */
export const REVENUE_CAP_QUANTILE = 0.99;

/** Φ(x) from erfc's rational Chebyshev fit (fractional error below 1.2e-7 everywhere). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const poly =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t *
          (0.37409196 +
            t *
              (0.09678418 +
                t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const erfc = t * Math.exp(poly);
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The x where a rising cdf reaches p, by bisection: called a handful of times per answer, so exactness wins over speed. */
function invert(cdf: (x: number) => number, p: number, low: number, high: number): number {
  let [lo, hi] = [low, high];
  for (let i = 0; i < 200 && hi - lo > 1e-12; i++) {
    const mid = (lo + hi) / 2;
    if (cdf(mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export const normalQuantile = (p: number): number => invert(normalCdf, p, -40, 40);

/** ln Γ(x) for x > 0 (Lanczos, g = 7, nine terms: about 15 significant digits). */
function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const y = x - 1;
  let sum = c[0]!;
  for (let i = 1; i < c.length; i++) sum += c[i]! / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularised incomplete beta I_x(a, b), by its continued fraction (modified Lentz), on the side where it converges fast. */
function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incompleteBeta(1 - x, b, a);
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x)) / a;
  const tiny = 1e-300;
  let f = 1;
  let c = 1;
  let d = 0;
  for (let i = 0; i <= 400; i++) {
    const m = Math.floor(i / 2);
    let numerator: number;
    if (i === 0) numerator = 1;
    else if (i % 2 === 0) numerator = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    else numerator = -((a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 + numerator * d;
    if (Math.abs(d) < tiny) d = tiny;
    d = 1 / d;
    c = 1 + numerator / c;
    if (Math.abs(c) < tiny) c = tiny;
    const step = c * d;
    f *= step;
    if (Math.abs(1 - step) < 1e-14) break;
  }
  return front * (f - 1);
}

/** P(T ≤ t) for Student's t with df degrees of freedom (df need not be whole: Welch's is not). */
/**
 * The two-sided sign test: how likely a split at least as uneven as `a` against `b` is when each side is equally
 * likely (an exact binomial p-value, P(X ≤ min) = I_½(n − min, min + 1), doubled); null with nothing to split.
 */
export function signTest(a: number, b: number): number | null {
  const n = a + b;
  if (n === 0) return null;
  const k = Math.min(a, b);
  return Math.min(1, 2 * incompleteBeta(0.5, n - k, k + 1));
}

export function studentTCdf(t: number, df: number): number {
  const tail = incompleteBeta(df / (df + t * t), df / 2, 0.5) / 2;
  return t >= 0 ? 1 - tail : tail;
}

export const studentTQuantile = (p: number, df: number): number => invert((x) => studentTCdf(x, df), p, -1e4, 1e4);

/** The Wilson score interval of successes out of trials: honest near 0 and 1 and for small counts, unlike the normal one. */
export function wilsonInterval(successes: number, trials: number, alpha = ALPHA): Interval {
  if (trials === 0) return { low: 0, high: 1 };
  const z = normalQuantile(1 - alpha / 2);
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface Proportion {
  successes: number;
  trials: number;
}

/**
 * The two-proportion z-test: the p-value from the pooled standard error (the null says both rates are one), the
 * interval of the difference from the unpooled one. Null when either side has no trials.
 */
export function compareProportions(control: Proportion, variant: Proportion, alpha = ALPHA): Comparison | null {
  if (control.trials === 0 || variant.trials === 0) return null;
  const [p1, p2] = [control.successes / control.trials, variant.successes / variant.trials];
  const pooled = (control.successes + variant.successes) / (control.trials + variant.trials);
  const pooledSe = Math.sqrt(pooled * (1 - pooled) * (1 / control.trials + 1 / variant.trials));
  const se = Math.sqrt((p1 * (1 - p1)) / control.trials + (p2 * (1 - p2)) / variant.trials);
  const difference = p2 - p1;
  const pValue = pooledSe === 0 ? 1 : 2 * (1 - normalCdf(Math.abs(difference) / pooledSe));
  const z = normalQuantile(1 - alpha / 2);
  return { difference, interval: { low: difference - z * se, high: difference + z * se }, pValue, significant: pValue < alpha };
}

/** The cap for revenue per shopper: the nearest-rank quantile of the buyers' (non-zero) revenues; Infinity without buyers. */
export function revenueCap(revenues: Iterable<number>, quantile = REVENUE_CAP_QUANTILE): number {
  const buyers = [...revenues].filter((r) => r > 0).sort((a, b) => a - b);
  if (buyers.length === 0) return Number.POSITIVE_INFINITY;
  return buyers[Math.max(0, Math.ceil(quantile * buyers.length) - 1)]!;
}

/** A sample's size, mean and (n − 1) variance: what Welch's test needs, and what a counter can sum up to. */
export interface Moments {
  n: number;
  mean: number;
  variance: number;
}

/** The moments of values capped at `cap`; shoppers who bought nothing are zeros among the values. */
export function cappedMoments(values: readonly number[], cap: number): Moments {
  const n = values.length;
  if (n === 0) return { n: 0, mean: 0, variance: 0 };
  const capped = values.map((v) => Math.min(v, cap));
  const mean = capped.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? capped.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  return { n, mean, variance };
}

/** The mean's interval from the t distribution with n − 1 degrees of freedom. */
export function meanInterval(m: Moments, alpha = ALPHA): Interval {
  if (m.n < 2) return { low: m.mean, high: m.mean };
  const half = studentTQuantile(1 - alpha / 2, m.n - 1) * Math.sqrt(m.variance / m.n);
  return { low: m.mean - half, high: m.mean + half };
}

/**
 * Welch's t-test of the variant's mean against the control's (unequal variances, Welch–Satterthwaite degrees of
 * freedom). Null when either side has fewer than two shoppers.
 */
export function welchTest(control: Moments, variant: Moments, alpha = ALPHA): Comparison | null {
  if (control.n < 2 || variant.n < 2) return null;
  const [a, b] = [control.variance / control.n, variant.variance / variant.n];
  const difference = variant.mean - control.mean;
  const se = Math.sqrt(a + b);
  if (se === 0)
    return { difference, interval: { low: difference, high: difference }, pValue: difference === 0 ? 1 : 0, significant: difference !== 0 };
  const df = (a + b) ** 2 / (a ** 2 / (control.n - 1) + b ** 2 / (variant.n - 1));
  const pValue = 2 * (1 - studentTCdf(Math.abs(difference) / se, df));
  const half = studentTQuantile(1 - alpha / 2, df) * se;
  return { difference, interval: { low: difference - half, high: difference + half }, pValue, significant: pValue < alpha };
}

export interface SampleSizeQuestion {
  /** The control's rate, e.g. 0.03 for 3% conversion. */
  baselineRate: number;
  /** The smallest relative lift worth detecting, e.g. 0.1 for +10%. */
  minimumDetectableLift: number;
  /** Shoppers a day across the experiment's scope. */
  dailyShoppers: number;
  /** Traffic shares in percent; the smallest one decides how long it takes. Default: two even variants. */
  shares?: readonly number[];
  alpha?: number;
  power?: number;
}

/**
 * Shoppers each variant needs for a two-sided two-proportion test to detect the lift with the power asked:
 * n = (z₁₋α/₂·√(2p̄(1−p̄)) + z₁₋β·√(p₁(1−p₁) + p₂(1−p₂)))² / (p₂ − p₁)², p̄ = (p₁ + p₂)/2; then the days until the
 * smallest share has seen that many.
 */
export function sampleSize(q: SampleSizeQuestion): SampleSizeEstimate {
  const shares = q.shares ?? [50, 50];
  const p1 = q.baselineRate;
  const p2 = p1 * (1 + q.minimumDetectableLift);
  const mean = (p1 + p2) / 2;
  const za = normalQuantile(1 - (q.alpha ?? ALPHA) / 2);
  const zb = normalQuantile(q.power ?? POWER);
  const perVariant = Math.ceil(
    (za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))) ** 2 / (p2 - p1) ** 2,
  );
  const total = shares.reduce((s, v) => s + v, 0);
  const smallest = Math.min(...shares) / total;
  const shoppers = Math.ceil(perVariant / smallest);
  return { shoppersPerVariant: perVariant, shoppers, days: Math.ceil(shoppers / q.dailyShoppers) };
}
