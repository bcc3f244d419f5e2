import { expect, test } from "bun:test";
import { describeEnrichment, secondsLeft } from "../src/enrichment-follower.ts";

const progress = (text: [number, number], image: [number, number]) => ({
  text: { done: text[0], total: text[1] },
  image: { done: image[0], total: image[1] },
});

test("time left is the slowest stage's at the last interval's pace; unknown while a stage with work left stands still", () => {
  // Text: 1,000 left at 100/s = 10 s; images: 9,500 left at 50/s = 190 s.
  expect(secondsLeft(progress([0, 2000], [0, 10_000]), progress([1000, 2000], [500, 10_000]), 10)).toBe(190);
  expect(secondsLeft(progress([0, 2000], [0, 2000]), progress([1000, 2000], [0, 2000]), 10)).toBeNull();
  // A finished stage does not count.
  expect(secondsLeft(progress([2000, 2000], [0, 2000]), progress([2000, 2000], [1000, 2000]), 10)).toBe(10);
});

test("the printed line gives each stage's count and the time left when known", () => {
  expect(describeEnrichment(progress([57_934, 57_934], [9_119, 57_934]), 372)).toBe(
    "Enrichment: text 57,934/57,934, images 9,119/57,934 products, about 6 min 12 s left (progress: /health).",
  );
  expect(describeEnrichment(progress([3, 3], [2, 2]), null)).toBe("Enrichment: complete (3 products).");
});
