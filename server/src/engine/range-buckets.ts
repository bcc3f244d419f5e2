/*
 * Ranges for a numeric facet (price) that suit the values in a result: at most `maxBuckets` ranges with round
 * bounds (1, 2, 2.5 or 5 times a power of ten), so a shopper sees "500 – 1000", not "487.3 – 974.6". The
 * ranges span the 2nd to 98th percentile; the first and last stretch to the extremes, so one 400,000 watch
 * does not squeeze every other product into the first range.
 */

import type { RangeCount } from "./types.ts";

const STEPS = [1, 2, 2.5, 5];

function niceWidth(span: number, maxBuckets: number): number {
  const raw = span / maxBuckets;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const step of STEPS) if (step * power >= raw) return step * power;
  return 10 * power;
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * Buckets [lb, ub) over `values`, with their counts; empty ones are left out. The last bucket's ub lies above
 * the largest value, so every bucket is half-open and selecting one (a range filter, also half-open) finds
 * exactly its count.
 */
export function rangeBuckets(values: number[], maxBuckets: number): RangeCount[] {
  const sorted = Float64Array.from(values).sort();
  const counts = boundsOfSorted(sorted, maxBuckets).map((b) => ({ ...b, count: 0 }));
  let b = 0;
  for (const v of sorted) {
    while (b < counts.length - 1 && v >= counts[b]!.ub) b++;
    counts[b]!.count++;
  }
  return counts.filter((c) => c.count > 0);
}

/**
 * The same buckets' bounds, empty ones included, contiguous from the smallest value to above the largest: for
 * an engine that counts them itself over more documents than `values` (a sample of them).
 */
export function rangeBounds(values: number[], maxBuckets: number): { lb: number; ub: number }[] {
  return boundsOfSorted(Float64Array.from(values).sort(), maxBuckets);
}

function boundsOfSorted(sorted: Float64Array, maxBuckets: number): { lb: number; ub: number }[] {
  if (sorted.length === 0 || maxBuckets < 1) return [];
  const min = sorted[0]!;
  const max = sorted[sorted.length - 1]!;
  if (min === max) return [{ lb: min, ub: round(min + niceWidth(Math.max(1, Math.abs(min)), 1)) }];
  const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
  let lo = quantile(0.02);
  let hi = quantile(0.98);
  if (lo === hi) [lo, hi] = [min, max];
  const width = niceWidth(hi - lo, maxBuckets);
  const bounds: { lb: number; ub: number }[] = [];
  for (let lb = Math.floor(lo / width) * width; lb < hi && bounds.length < maxBuckets; lb += width) {
    bounds.push({ lb: round(lb), ub: round(lb + width) });
  }
  if (bounds.length === 0) bounds.push({ lb: lo, ub: hi });
  bounds[0]!.lb = Math.min(bounds[0]!.lb, min);
  const last = bounds[bounds.length - 1]!;
  if (last.ub <= max) last.ub = round((Math.floor(max / width) + 1) * width);
  return bounds;
}
