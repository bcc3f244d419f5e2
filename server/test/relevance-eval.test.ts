import { beforeAll, describe, expect, test } from "bun:test";
import { demoDataDir, evalProducts } from "../eval/catalog.ts";
import { runSystem, summarize, type Summary } from "../eval/evaluate.ts";
import { buildJudgedSet, FAMILIES, realQueryLog, type Family } from "../eval/judgments.ts";
import { OurEngine } from "../eval/systems/ours.ts";

/*
 * Our relevance as `npm run eval` measures it (same 20,000 demo products, same judged queries, the real server
 * over HTTP), held so it cannot regress. The peers are not run here: they are not ours to hold, and slow.
 */

/**
 * Measured 2026-11-23, after query understanding (issue 19; the first run of the eval gave overall 0.798,
 * gender + type 0.578, typo 0.761, 20 real queries without results); raised 2026-11-28 after the precise match
 * set (issue 37), which also added the purpose family ("sandals for sports", a phrasing nothing was tuned on). These may only go up: when ranking
 * improves, raise them to the new figures; never lower them to make a change pass.
 */
const MEASURED: { overall: number; families: Record<Family, number>; realZeroRate: number } = {
  overall: 0.98,
  families: {
    type: 0.991,
    "plural/singular": 0.988,
    "gender + type": 0.988,
    "colour + type": 0.964,
    "brand + type": 0.997,
    "usage + type": 0.997,
    purpose: 1,
    typo: 0.928,
  },
  // With the demo's query log imported and the learned meaning trained (issue 37); 18 / 713 before.
  realZeroRate: 0,
};
/*
 * The figures are deterministic (same products, queries and index order); the tolerances only absorb a tie
 * ordered differently or a query that overran the search time budget (250 ms; the slowest takes about 70) on a
 * loaded machine and so got no fallback.
 */
const TOLERANCE = 0.01;
/** What issue 37 asks of a type query's whole result and of its cheapest page (measured 2026-11-28: 0.997 and 0.998). */
const MATCH_SET_PRECISION = 0.95;
const REAL_ZERO_TOLERANCE = 1 / 713;

let summary: Summary;

beforeAll(async () => {
  const products = evalProducts();
  const judged = buildJudgedSet(products);
  const engine = new OurEngine();
  try {
    summary = summarize(await runSystem(engine, products, judged.queries, realQueryLog(demoDataDir())));
  } finally {
    await engine.close();
  }
  const families = [...summary.byFamily].map(([f, v]) => `${f} ${v.ndcg.toFixed(4)}`).join(", ");
  console.log(
    `nDCG@10 overall ${summary.overall.ndcg.toFixed(4)} (${summary.overall.n} queries); ${families}; real-query zero results ${(summary.realZeroRate * 100).toFixed(2)}%`,
  );
  console.log(
    `recovered by meaning: ${summary.recovered.queries.length} real queries, ${(summary.recovered.relevantShare * 100).toFixed(1)}% of the logged category`,
  );
  console.log(
    `type queries' match sets: ${summary.matchSet.precision.toFixed(4)} of the whole result and ${summary.matchSet.cheapestPrecision.toFixed(4)} of the cheapest page of the asked type`,
  );
}, 300_000);

describe("relevance of our search on the judged demo queries", () => {
  test("overall nDCG@10 is no worse than measured", () => {
    expect(summary.overall.ndcg).toBeGreaterThanOrEqual(MEASURED.overall - TOLERANCE);
  });

  for (const family of FAMILIES) {
    test(`nDCG@10 of the ${family} family is no worse than measured`, () => {
      expect(summary.byFamily.get(family)?.ndcg ?? 0).toBeGreaterThanOrEqual(MEASURED.families[family] - TOLERANCE);
    });
  }

  test("a type query's whole result, and its first page sorted by price ascending, are of the asked type (at least 95%)", () => {
    expect(summary.matchSet.precision).toBeGreaterThanOrEqual(MATCH_SET_PRECISION);
    expect(summary.matchSet.cheapestPrecision).toBeGreaterThanOrEqual(MATCH_SET_PRECISION);
  });

  test("the real queries recovered by meaning are of a category the log says they found, for at least 70% of them", () => {
    expect(summary.recovered.queries.length).toBeGreaterThan(0);
    expect(summary.recovered.relevantShare).toBeGreaterThanOrEqual(0.7);
  });

  test("zero-result rate on the real query log is no worse than measured", () => {
    expect(summary.realZeroRate).toBeLessThanOrEqual(MEASURED.realZeroRate + REAL_ZERO_TOLERANCE);
  });
});
