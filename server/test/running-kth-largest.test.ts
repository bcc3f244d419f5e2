import { expect, test } from "bun:test";
import { RunningKthLargest } from "../src/lib/running-kth-largest.ts";

/*
 * The running k-th largest decides which similar-products candidates are scored in full: it must be exactly the
 * k-th largest of everything offered so far, ties counted, or a candidate of the best could be passed over.
 */

test("the running k-th largest equals the k-th of the sorted numbers after every offer, ties included", () => {
  let seed = 7;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  for (const k of [1, 2, 5, 240]) {
    const best = new RunningKthLargest(k);
    const seen: number[] = [];
    for (let i = 0; i < 2000; i++) {
      // Few distinct values, so that many tie.
      const x = Math.floor(random() * 50) / 7;
      best.offer(x);
      seen.push(x);
      const sorted = [...seen].sort((a, b) => b - a);
      expect(best.value).toBe(seen.length < k ? -Infinity : sorted[k - 1]!);
    }
  }
});

test("a k below 1 is refused", () => {
  expect(() => new RunningKthLargest(0)).toThrow(RangeError);
  expect(() => new RunningKthLargest(1.5)).toThrow(RangeError);
});
