import { beforeAll, expect, test } from "bun:test";
import { describeFigures, type LearningFigures, measureLearning } from "../eval/learning-quality.ts";
import { demoProducts } from "./support/demo-products.ts";

/*
 * What the store learns from its shoppers, judged against tastes known because they were drawn from a seed
 * (server/eval/learning-quality.ts: real demo products, the real server, shoppers who search, click, cart and buy
 * through the API): nDCG@10 of held-out searches with behaviour ranking and personalisation on against the same
 * searches with both off. The A/A run's shoppers click whatever they look at, whatever it is, so it shows no gain.
 */

/**
 * Behaviour ranking and personalisation together must beat both off by this much. Measured 2026-11-29 over five
 * seeds (s1 to s4, this one): +0.088 to +0.099, +0.095, +0.116, +0.067 to +0.069, +0.085 to +0.087 (four runs).
 */
const MIN_NDCG_GAIN = 0.06;
/**
 * What personalisation must add over behaviour alone (the shopper's own searches against the same searches made
 * anonymously): +0.004 to +0.005, +0.006, +0.003, +0.001 to +0.002 over s1 to s4, +0.006 to +0.008 with this seed.
 * Behaviour fills the first places with what every shopper likes; the taste reorders within them.
 */
const MIN_PERSONALISATION_GAIN = 0.003;
/** The A/A run's gain stays within this of zero (measured over the five seeds: at most 0.013 either way). */
const AA_TOLERANCE = 0.02;

const OPTIONS = { shoppers: 100, searchesPerShopper: 4, judgedShoppers: 40, seed: "learning-quality" };

let taste: LearningFigures;
let aa: LearningFigures;

beforeAll(async () => {
  const products = demoProducts(3000);
  // The two stores, one server each, learn side by side: the run takes the time of one.
  [taste, aa] = await Promise.all([
    measureLearning({ ...OPTIONS, products, tasteDriven: true }),
    measureLearning({ ...OPTIONS, products, tasteDriven: false }),
  ]);
  console.log(describeFigures("known tastes", taste));
  console.log(describeFigures("A/A", aa));
}, 180_000);

test("the store learnt from enough events for behaviour ranking to apply", () => {
  // A query's evidence counts from 20 clicks (result-reranker.ts); every judged query gets several times that.
  for (const f of [taste, aa]) expect(f.clicks).toBeGreaterThan(20 * 2 * f.queries.length);
  expect(taste.orders).toBeGreaterThan(0);
});

test("behaviour ranking and personalisation raise nDCG@10 against the shoppers' known tastes", () => {
  expect(taste.on - taste.off).toBeGreaterThanOrEqual(MIN_NDCG_GAIN);
  expect(taste.on - taste.behaviourOnly).toBeGreaterThanOrEqual(MIN_PERSONALISATION_GAIN);
});

test("A/A: shoppers whose clicks ignore the product give no gain", () => {
  expect(Math.abs(aa.on - aa.off)).toBeLessThanOrEqual(AA_TOLERANCE);
  expect(Math.abs(aa.behaviourOnly - aa.off)).toBeLessThanOrEqual(AA_TOLERANCE);
});
