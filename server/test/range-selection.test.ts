import { expect, test } from "bun:test";
import { rangeBounds, rangeBuckets } from "../src/engine/range-buckets.ts";
import { kthSmallest } from "../src/lib/kth-smallest.ts";

/** Deterministic numbers in [0, 1) (a linear congruential generator): the same arrays on every run. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const arrays: [string, number[]][] = [
  ["one number", [42]],
  ["all equal", Array.from({ length: 500 }, () => 7)],
  ["ascending", Array.from({ length: 300 }, (_, i) => i)],
  ["descending", Array.from({ length: 300 }, (_, i) => 300 - i)],
  ["prices with many ties", Array.from({ length: 2_000 }, (_, i) => 100 * Math.floor(numbers(i + 1)() * 40))],
  ["spread, with one far outlier", [...Array.from({ length: 999 }, (_, i) => 10 + numbers(7 * i + 3)() * 990), 400_000]],
  ["negative and infinite", [-5, Infinity, 3, -Infinity, 0, 3, -5, 12]],
];

test("the k-th smallest by selection is the sorted array's k-th, for every k", () => {
  for (const [name, values] of arrays) {
    const sorted = [...values].sort((a, b) => a - b);
    for (let k = 0; k < values.length; k += Math.max(1, Math.floor(values.length / 50))) {
      expect(kthSmallest(Float64Array.from(values), values.length, k), `${name}, k=${k}`).toBe(sorted[k]!);
    }
    expect(kthSmallest(Float64Array.from(values), values.length, values.length - 1), name).toBe(sorted.at(-1)!);
  }
});

test("range facet buckets found by selection are the bounds of the sorted values, each counting the values in [lb, ub)", () => {
  for (const [name, values] of arrays.filter(([, v]) => v.every(Number.isFinite))) {
    for (const maxBuckets of [1, 4, 6]) {
      const bounds = rangeBounds(values, maxBuckets);
      const counted = bounds
        .map((b, i) => ({ ...b, count: values.filter((v) => v >= b.lb && (i === bounds.length - 1 || v < b.ub)).length }))
        .filter((b) => b.count > 0);
      expect(rangeBuckets(values, maxBuckets), `${name}, ${maxBuckets} buckets`).toEqual(counted);
      expect(counted.reduce((sum, b) => sum + b.count, 0)).toBe(values.length);
    }
  }
});
