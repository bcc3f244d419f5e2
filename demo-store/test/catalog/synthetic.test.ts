/* The deterministic generators behind the synthetic fields. */

import { describe, expect, test } from "bun:test";
import { articleProfile } from "../../src/catalog/categories.ts";
import { popularityFor, starCounts } from "../../src/catalog/popularity.ts";
import { pricePoint } from "../../src/catalog/pricing.ts";
import { seededRandom } from "../../src/catalog/seeded-random.ts";
import { sizesFor } from "../../src/catalog/sizes.ts";

describe("seeded random", () => {
  test("same seed, same sequence; different seed, different sequence", () => {
    const a = seededRandom("fpi-15970", "price");
    const b = seededRandom("fpi-15970", "price");
    const c = seededRandom("fpi-15970", "stock");
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    for (const x of seqA) expect(x >= 0 && x < 1).toBe(true);
  });

  test("int stays in range", () => {
    const rng = seededRandom("range");
    for (let i = 0; i < 1000; i++) {
      const v = rng.int(3, 7);
      expect(v >= 3 && v <= 7 && Number.isInteger(v)).toBe(true);
    }
  });
});

describe("synthetic values", () => {
  test("star counts sum to the review count and centre on the target", () => {
    for (const [target, n] of [
      [4.4, 120],
      [2.1, 7],
      [5, 1],
      [3, 0],
    ] as const) {
      const counts = starCounts(target, n);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(n);
      if (n > 20) {
        const mean = counts.reduce((s, c, i) => s + c * (i + 1), 0) / n;
        expect(Math.abs(mean - target)).toBeLessThan(0.6);
      }
    }
  });

  test("a real rating is kept as the overall rating", () => {
    expect(popularityFor("fk-x", 3.6)).toMatchObject({ type: "STAR", data: { overallRating: 3.6, maxRating: 5 } });
    expect(popularityFor("fk-x", 3.6)).toEqual(popularityFor("fk-x", 3.6)!);
  });

  test("price points look like retail prices", () => {
    expect(pricePoint(1234)).toBe(1299);
    expect(pricePoint(420)).toBe(449);
    expect(pricePoint(12)).toBe(99);
  });

  test("sizes follow the article type and audience", () => {
    const shoes = articleProfile("Casual Shoes", ["Footwear", "Shoes"]);
    expect(sizesFor(shoes.sizing, { gender: "Men", ageGroup: "Adults" })).toContain("UK 9");
    expect(sizesFor(shoes.sizing, { gender: "Women", ageGroup: "Adults" })).toContain("UK 4");
    expect(sizesFor(shoes.sizing, { gender: "Men", ageGroup: "Kids" })).toContain("UK 12C");
    const jeans = articleProfile("Jeans", ["Apparel", "Bottomwear"]);
    expect(sizesFor(jeans.sizing, { gender: "Men" })).toEqual(["28", "30", "32", "34", "36"]);
    const tee = articleProfile("Tshirts", ["Apparel", "Topwear"]);
    expect(sizesFor(tee.sizing, { gender: "Men", ageGroup: "Kids" })[0]).toBe("2-3Y");
    expect(sizesFor(articleProfile("Watches", ["Accessories", "Watches"]).sizing, {})).toEqual(["One Size"]);
    expect(sizesFor(articleProfile("Lipstick", ["Personal Care", "Lips"]).sizing, {})).toEqual([undefined]);
    expect(articleProfile("Mascara", ["Personal Care", "Eyes"]).family).toBe("box");
    expect(articleProfile("Capris", ["Apparel", "Bottomwear"]).family).toBe("trousers");
  });
});
