import { describe, expect, test } from "bun:test";
import { Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import {
  signTest,
  cappedMoments,
  compareProportions,
  meanInterval,
  normalCdf,
  normalQuantile,
  revenueCap,
  sampleSize,
  studentTCdf,
  studentTQuantile,
  welchTest,
  wilsonInterval,
} from "../src/modules/experiments/statistics.ts";

/*
 * The experiments' statistics against values worked out by hand (and checked with SciPy), and against simulated
 * shoppers: a known lift is found, an A/A test is significant about as often as alpha says, and the sample-size
 * estimate gives about the power it promises. Every simulation runs from fixed seeds, so the counts are the same on
 * every run; the bounds leave room for a change of generator, not for luck.
 */

interface Arm {
  converted: number;
  shoppers: number;
  revenues: number[];
}

/** Shoppers who each buy with probability `rate`, spending a skewed amount (a few big baskets) when they do. */
function simulate(rng: Rng, shoppers: number, rate: number, basket = 40): Arm {
  const arm: Arm = { converted: 0, shoppers, revenues: [] };
  for (let i = 0; i < shoppers; i++) {
    if (rng.chance(rate)) {
      arm.converted++;
      arm.revenues.push(basket * Math.exp(1.2 * (rng.next() + rng.next() + rng.next() - 1.5)));
    } else arm.revenues.push(0);
  }
  return arm;
}

const proportion = (a: Arm) => ({ successes: a.converted, trials: a.shoppers });

function revenueTest(control: Arm, variant: Arm) {
  const cap = revenueCap([...control.revenues, ...variant.revenues]);
  return welchTest(cappedMoments(control.revenues, cap), cappedMoments(variant.revenues, cap));
}

describe("experiment statistics: the formulas", () => {
  test("the normal and t distributions match tabulated values", () => {
    expect(normalCdf(1.5)).toBeCloseTo(0.9331928, 6);
    expect(normalCdf(-1.5)).toBeCloseTo(1 - 0.9331928, 6);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(studentTCdf(2, 5)).toBeCloseTo(0.9490303, 6);
    expect(studentTCdf(-1.3, 12.7)).toBeCloseTo(0.1083503, 6);
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228139, 5);
  });

  test("Wilson's interval of 50 out of 100 is 0.4038 to 0.5962; no trials is 0 to 1", () => {
    const i = wilsonInterval(50, 100);
    expect(i.low).toBeCloseTo(0.40383, 4);
    expect(i.high).toBeCloseTo(0.59617, 4);
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
    expect(wilsonInterval(0, 10).low).toBe(0);
  });

  test("two proportions, 100/1000 against 130/1000: z 2.1027, p 0.0355, difference 0.03 in 0.0021 to 0.0579", () => {
    const c = compareProportions({ successes: 100, trials: 1000 }, { successes: 130, trials: 1000 })!;
    expect(c.difference).toBeCloseTo(0.03, 10);
    expect(c.pValue).toBeCloseTo(0.0354885, 5);
    expect(c.interval.low).toBeCloseTo(0.0020679, 5);
    expect(c.interval.high).toBeCloseTo(0.0579321, 5);
    expect(c.significant).toBe(true);
    expect(compareProportions({ successes: 0, trials: 0 }, { successes: 1, trials: 2 })).toBeNull();
  });

  test("Welch's test of two small samples: t 1.2966 on 8.918 df, p 0.2273, interval -6.848 to 25.182", () => {
    const a = cappedMoments([0, 0, 10, 20, 0, 5], Number.POSITIVE_INFINITY);
    const b = cappedMoments([0, 30, 40, 0, 25, 10, 0], Number.POSITIVE_INFINITY);
    const w = welchTest(a, b)!;
    expect(w.pValue).toBeCloseTo(0.2273048, 5);
    expect(w.interval.low).toBeCloseTo(-6.848405, 3);
    expect(w.interval.high).toBeCloseTo(25.181738, 3);
    expect(w.significant).toBe(false);
    const m = meanInterval(a);
    expect(m.low).toBeCloseTo(5.833333 - 8.40641, 4);
    expect(welchTest(cappedMoments([1], 10), b)).toBeNull();
  });

  test("the revenue cap is the buyers' 99th percentile by nearest rank, and capping moves the big baskets only", () => {
    const buyers = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(revenueCap([0, 0, 0, ...buyers])).toBe(198);
    expect(revenueCap([0, 0])).toBe(Number.POSITIVE_INFINITY);
    expect(cappedMoments([0, 5, 500], 10).mean).toBe(5);
  });

  test("to see 10% lift to 11% at alpha 0.05 and power 0.8 takes 14,751 shoppers a variant", () => {
    expect(sampleSize({ baselineRate: 0.1, minimumDetectableLift: 0.1, dailyShoppers: 1000 })).toEqual({
      shoppersPerVariant: 14_751,
      shoppers: 29_502,
      days: 30,
    });
    // A 20% variant beside an 80% control: the small one needs the same shoppers, so the test runs longer.
    expect(sampleSize({ baselineRate: 0.1, minimumDetectableLift: 0.1, dailyShoppers: 1000, shares: [80, 20] }).days).toBe(74);
  });
});

describe("experiment statistics: simulated shoppers", () => {
  test("a 20% lift in conversion (5% to 6%) over 20,000 shoppers a variant is found, in conversion and in revenue", () => {
    const rng = new Rng(40);
    const control = simulate(rng, 20_000, 0.05);
    const variant = simulate(rng, 20_000, 0.06);
    const rate = compareProportions(proportion(control), proportion(variant))!;
    expect(rate.significant).toBe(true);
    expect(rate.interval.low).toBeGreaterThan(0);
    expect(rate.interval.low).toBeLessThan(0.01);
    expect(rate.interval.high).toBeGreaterThan(0.01);
    const revenue = revenueTest(control, variant)!;
    expect(revenue.significant).toBe(true);
    expect(revenue.difference).toBeGreaterThan(0);
  });

  test("A/A experiments over 2,000 seeds are significant about 5% of the time, in conversion and in revenue", () => {
    let rateHits = 0;
    let revenueHits = 0;
    const seeds = 2_000;
    for (let seed = 1; seed <= seeds; seed++) {
      const rng = new Rng(seed * 7919);
      const a = simulate(rng, 2_000, 0.08);
      const b = simulate(rng, 2_000, 0.08);
      if (compareProportions(proportion(a), proportion(b))!.significant) rateHits++;
      if (revenueTest(a, b)!.significant) revenueHits++;
    }
    // 5% of 2,000 is 100, give or take 10 (one binomial standard deviation): three of them either side.
    for (const hits of [rateHits, revenueHits]) {
      expect(hits).toBeLessThanOrEqual(130);
      expect(hits).toBeGreaterThanOrEqual(70);
    }
  });

  test("at the estimated sample size, a real lift is found about 80% of the time", () => {
    const { shoppersPerVariant } = sampleSize({ baselineRate: 0.1, minimumDetectableLift: 0.2, dailyShoppers: 1000 });
    let found = 0;
    const seeds = 400;
    for (let seed = 1; seed <= seeds; seed++) {
      const rng = new Rng(seed * 104_729);
      const a = simulate(rng, shoppersPerVariant, 0.1);
      const b = simulate(rng, shoppersPerVariant, 0.12);
      if (compareProportions(proportion(a), proportion(b))!.significant) found++;
    }
    // 80% of 400 is 320, give or take 8: four of them either side.
    expect(found).toBeGreaterThanOrEqual(288);
    expect(found).toBeLessThanOrEqual(352);
  });
});

describe("sign test", () => {
  test("exact binomial p-values, two-sided", () => {
    expect(signTest(0, 0)).toBeNull();
    expect(signTest(1, 0)).toBeCloseTo(1, 12);
    expect(signTest(10, 0)).toBeCloseTo(2 / 1024, 12);
    // 2 × P(X ≤ 2) for n = 10: 2 × (1 + 10 + 45) / 1024.
    expect(signTest(2, 8)).toBeCloseTo(112 / 1024, 10);
    expect(signTest(5, 5)).toBe(1);
  });
});
