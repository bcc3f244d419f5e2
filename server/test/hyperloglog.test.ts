import { expect, test } from "bun:test";
import { addToSketch, emptySketch, estimate, mergeInto, packSketch, unpackSketch } from "../src/lib/hyperloglog.ts";

/* Distinct counts of the reports' users and sessions: exact when small, within 2% when large, mergeable. */

test("small counts are exact, repeats count once, and a sketch survives packing", () => {
  const s = emptySketch();
  for (let round = 0; round < 3; round++) for (let i = 0; i < 50; i++) addToSketch(s, `session-${i}`);
  expect(estimate(s)).toBe(50);
  expect(estimate(unpackSketch(packSketch(s)))).toBe(50);
  expect(estimate(emptySketch())).toBe(0);
});

test("large counts are within 2%, and merging two days counts a shopper seen on both once", () => {
  const monday = emptySketch();
  const tuesday = emptySketch();
  for (let i = 0; i < 60_000; i++) addToSketch(monday, `u${i}`);
  for (let i = 30_000; i < 100_000; i++) addToSketch(tuesday, `u${i}`);
  mergeInto(monday, tuesday);
  const n = estimate(monday);
  console.log(`100,000 distinct ids estimated as ${n}`);
  expect(Math.abs(n - 100_000) / 100_000).toBeLessThan(0.02);
});
