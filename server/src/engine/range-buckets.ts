/*
 * Ranges for a numeric facet (price) that suit the values in a result: at most `maxBuckets` ranges with round
 * bounds (1, 2, 2.5 or 5 times a power of ten), so a shopper sees "500 – 1000", not "487.3 – 974.6". The
 * ranges span the 2nd to 98th percentile; the first and last stretch to the extremes, so one 400,000 watch
 * does not squeeze every other product into the first range.
 */

import { kthSmallest } from "../lib/kth-smallest.ts";
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
  return rangeBucketsOf(Float64Array.from(values), values.length, maxBuckets);
}

/**
 * rangeBuckets over the first n numbers of `values` (no NaN among them), which it reorders: the bounds need only
 * the extremes and two percentiles, found by selection, so a broad query's values are never sorted.
 */
export function rangeBucketsOf(values: Float64Array, n: number, maxBuckets: number): RangeCount[] {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    if (values[i]! < min) min = values[i]!;
    if (values[i]! > max) max = values[i]!;
  }
  const counts = bounds(n, min, max, (i) => kthSmallest(values, n, i), maxBuckets).map((b) => ({ ...b, count: 0 }));
  const last = counts.length - 1;
  for (let i = 0; i < n; i++) {
    // Bounds ascend: a value's bucket is the first whose ub lies above it, or the last.
    let b = 0;
    while (b < last && values[i]! >= counts[b]!.ub) b++;
    counts[b]!.count++;
  }
  return counts.filter((c) => c.count > 0);
}

/**
 * The same buckets' bounds, empty ones included, contiguous from the smallest value to above the largest: for
 * an engine that counts them itself over more documents than `values` (a sample of them).
 */
export function rangeBounds(values: number[], maxBuckets: number): { lb: number; ub: number }[] {
  const sorted = Float64Array.from(values).sort();
  return bounds(sorted.length, sorted[0]!, sorted[sorted.length - 1]!, (i) => sorted[i]!, maxBuckets);
}

/** Bounds over n values from min to max, where `nth(i)` is the i-th smallest of them. */
function bounds(n: number, min: number, max: number, nth: (i: number) => number, maxBuckets: number): { lb: number; ub: number }[] {
  if (n === 0 || maxBuckets < 1) return [];
  if (min === max) return [{ lb: min, ub: round(min + niceWidth(Math.max(1, Math.abs(min)), 1)) }];
  const quantile = (q: number) => nth(Math.min(n - 1, Math.floor(q * (n - 1))));
  let lo = quantile(0.02);
  let hi = quantile(0.98);
  if (lo === hi) [lo, hi] = [min, max];
  const width = niceWidth(hi - lo, maxBuckets);
  const list: { lb: number; ub: number }[] = [];
  for (let lb = Math.floor(lo / width) * width; lb < hi && list.length < maxBuckets; lb += width) {
    list.push({ lb: round(lb), ub: round(lb + width) });
  }
  if (list.length === 0) list.push({ lb: lo, ub: hi });
  list[0]!.lb = Math.min(list[0]!.lb, min);
  const last = list[list.length - 1]!;
  if (last.ub <= max) last.ub = round((Math.floor(max / width) + 1) * width);
  return list;
}
