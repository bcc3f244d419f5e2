import type { Product } from "../src/modules/catalog/product-schema.ts";
import { FAMILIES, type Family, type JudgedQuery } from "./judgments.ts";
import { K, mean, ndcgAt, precisionAt } from "./metrics.ts";
import type { SearchSystem } from "./systems/system.ts";

/* Runs one system over the judged set and the real queries, and reduces its answers to figures. */

export interface QueryResult {
  family: Family;
  query: string;
  correct?: string;
  ndcg: number;
  precision: number;
  zero: boolean;
  ms: number;
}

export interface SystemRun {
  name: string;
  config: string;
  indexMs: number;
  judged: QueryResult[];
  /** Per real query: whether it found nothing, and how long it took. */
  real: Array<{ query: string; zero: boolean; ms: number }>;
}

export interface Figures {
  n: number;
  ndcg: number;
  precision: number;
  zeroRate: number;
}

export interface Summary {
  overall: Figures;
  byFamily: Map<Family, Figures>;
  /** Mean nDCG@10 of the typo queries ÷ mean nDCG@10 of the same queries spelled right. */
  typoRecovery: number;
  realZeroRate: number;
  realZeroQueries: string[];
  /** Slowest single query (judged or real). */
  slowest: { query: string; ms: number };
}

export async function runSystem(system: SearchSystem, products: readonly Product[], judged: readonly JudgedQuery[], real: readonly string[]): Promise<SystemRun> {
  const started = performance.now();
  await system.index(products);
  const indexMs = performance.now() - started;
  const timed = async (query: string) => {
    const t = performance.now();
    const ids = await system.search(query, K);
    return { ids, ms: performance.now() - t };
  };
  const results: QueryResult[] = [];
  for (const q of judged) {
    const { ids, ms } = await timed(q.query);
    results.push({
      family: q.family,
      query: q.query,
      ...(q.correct === undefined ? {} : { correct: q.correct }),
      ndcg: ndcgAt(K, ids, q.grades),
      precision: precisionAt(K, ids, q.grades),
      zero: ids.length === 0,
      ms,
    });
  }
  const realResults: SystemRun["real"] = [];
  for (const query of real) {
    const { ids, ms } = await timed(query);
    realResults.push({ query, zero: ids.length === 0, ms });
  }
  return { name: system.name, config: system.config, indexMs, judged: results, real: realResults };
}

const figuresOf = (results: readonly QueryResult[]): Figures => ({
  n: results.length,
  ndcg: mean(results.map((r) => r.ndcg)),
  precision: mean(results.map((r) => r.precision)),
  zeroRate: mean(results.map((r) => (r.zero ? 1 : 0))),
});

export function summarize(run: SystemRun): Summary {
  const byFamily = new Map<Family, Figures>();
  for (const family of FAMILIES) {
    const of = run.judged.filter((r) => r.family === family);
    if (of.length > 0) byFamily.set(family, figuresOf(of));
  }
  const byQuery = new Map(run.judged.filter((r) => r.family !== "typo").map((r) => [r.query, r]));
  const typos = run.judged.filter((r) => r.family === "typo" && r.correct !== undefined && byQuery.has(r.correct));
  const rightNdcg = mean(typos.map((r) => byQuery.get(r.correct!)!.ndcg));
  const all = [...run.judged, ...run.real];
  const slowest = all.reduce((a, b) => (b.ms > a.ms ? b : a), { query: "", ms: 0 });
  return {
    overall: figuresOf(run.judged),
    byFamily,
    typoRecovery: rightNdcg === 0 ? 0 : mean(typos.map((r) => r.ndcg)) / rightNdcg,
    realZeroRate: mean(run.real.map((r) => (r.zero ? 1 : 0))),
    realZeroQueries: run.real.filter((r) => r.zero).map((r) => r.query),
    slowest: { query: slowest.query, ms: slowest.ms },
  };
}
