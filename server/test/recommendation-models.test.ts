import { describe, expect, test } from "bun:test";
import { boughtTogether } from "../src/modules/recommendations/bought-together.ts";
import { TasteMatch } from "../src/modules/recommendations/for-you.ts";
import { trendingProducts } from "../src/modules/recommendations/trending.ts";

/* The models' formulas as docs/recommendations.md states them, on hand-made counts. */

describe("trending", () => {
  const steady = [
    { productId: "a", recent: 20, before: 70 },
    { productId: "b", recent: 10, before: 35 },
  ];

  test("a busy day for the whole store lifts nothing; a product rising from nothing scores its recent interest", () => {
    // Every product twice as busy as its usual two days: the store's traffic explains it.
    const doubled = steady.map((p) => ({ ...p, recent: p.recent * 2 }));
    expect(trendingProducts(doubled, { recent: 60, before: 105 })).toEqual([]);
    const rising = [...steady, { productId: "new", recent: 4, before: 0 }];
    expect(trendingProducts(rising, { recent: 34, before: 105 })).toEqual([
      { productId: "new", score: 4 },
      // a: expected 34 * 70 / 105 = 22.67, got 20: below; b likewise.
    ]);
  });

  test("a store without earlier days ranks by recent interest; one view is not a trend", () => {
    expect(
      trendingProducts(
        [
          { productId: "x", recent: 3, before: 0 },
          { productId: "y", recent: 5, before: 0 },
          { productId: "z", recent: 1, before: 0 },
        ],
        { recent: 9, before: 0 },
      ).map((t) => t.productId),
    ).toEqual(["y", "x"]);
  });
});

describe("bought together", () => {
  test("lift = ab * N / (a * b); fewer than two orders together make no pair; no orders, no partners", () => {
    const partners = [
      { productId: "everyday", together: 6, orders: 16 },
      { productId: "pair", together: 5, orders: 5 },
      { productId: "once", together: 1, orders: 1 },
    ];
    expect(boughtTogether(partners, { store: 16, product: 6 })).toEqual([
      { productId: "pair", together: 5, lift: (5 * 16) / (6 * 5) },
      { productId: "everyday", together: 6, lift: 1 },
    ]);
    expect(boughtTogether(partners, { store: 16, product: 0 })).toEqual([]);
  });
});

describe("for you", () => {
  test("affinities weigh relative to the strongest; a user's and their session's add up; a product's values share a facet's weight", () => {
    const taste = new TasteMatch([
      { facet: "brand", value: "nike", weight: 10 },
      { facet: "brand", value: "puma", weight: 9 },
      { facet: "colour", value: "red", weight: 9 },
      { facet: "colour", value: "red", weight: 9 },
    ]);
    expect(taste.top("brand", 1)).toEqual(["nike"]);
    expect(taste.score({ brand: ["nike"], colour: [] })).toBe(1);
    expect(taste.score({ brand: ["puma"], colour: ["red", "blue"] })).toBe(0.5 + 1 / 2);
    expect(taste.score({ brand: ["adidas"] })).toBe(0);
    expect(new TasteMatch([]).empty).toBe(true);
  });
});
