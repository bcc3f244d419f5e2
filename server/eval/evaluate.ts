import type { Product } from "../src/modules/catalog/product-schema.ts";
import { FAMILIES, ofLoggedCategory, type Family, type JudgedQuery } from "./judgments.ts";
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

/** A type query's whole result, judged as a shopper who sorts and scrolls sees it. */
export interface MatchSetResult {
  query: string;
  total: number;
  /** Share of every product the query matches that is of the intended type (the whole set, not the top ten). */
  precision: number;
  /** The same share among the first page sorted by price ascending. */
  cheapestPrecision: number;
}

export interface SystemRun {
  name: string;
  config: string;
  indexMs: number;
  judged: QueryResult[];
  /** The type family's queries, by their whole match sets. */
  matchSets: MatchSetResult[];
  /** Per real query: whether it found nothing, how long it took, and, when its answer was recovered by meaning,
   * whether at least half of its first ten products are of a category the log says it found. */
  real: Array<{ query: string; zero: boolean; ms: number; recovered?: { relevant: boolean } }>;
}

export interface Figures {
  n: number;
  ndcg: number;
  precision: number;
  zeroRate: number;
}

export interface Summary {
  overall: Figures;
  /** Means over the type queries: whole-set precision, cheapest-page precision, and mean result size. */
  matchSet: { precision: number; cheapestPrecision: number; total: number };
  byFamily: Map<Family, Figures>;
  /** Mean nDCG@10 of the typo queries ÷ mean nDCG@10 of the same queries spelled right. */
  typoRecovery: number;
  realZeroRate: number;
  realZeroQueries: string[];
  /** Real queries answered by meaning, and the share of them whose answer is of a category the log says they found. */
  recovered: { queries: string[]; relevantShare: number };
  /** Slowest single query (judged or real). */
  slowest: { query: string; ms: number };
}

export async function runSystem(
  system: SearchSystem,
  products: readonly Product[],
  judged: readonly JudgedQuery[],
  real: readonly { query: string; categories: readonly string[] }[],
): Promise<SystemRun> {
  const byId = new Map(products.map((p) => [p.id, p]));
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
  for (const { query, categories } of real) {
    const { ids, ms } = await timed(query);
    const recovered = system.recovered?.has(query)
      ? { relevant: ids.filter((id) => byId.has(id) && ofLoggedCategory(byId.get(id)!, categories)).length * 2 >= Math.min(ids.length, K) }
      : undefined;
    realResults.push({ query, zero: ids.length === 0, ms, ...(recovered ? { recovered } : {}) });
  }
  return {
    name: system.name,
    config: system.config,
    indexMs,
    judged: results,
    real: realResults,
    matchSets: await matchSets(system, judged),
  };
}

/** Of the type family's queries: how much of each whole result, and of its cheapest page, is of the asked type. */
export async function matchSets(system: SearchSystem, judged: readonly JudgedQuery[]): Promise<MatchSetResult[]> {
  const out: MatchSetResult[] = [];
  for (const q of judged.filter((j) => j.family === "type")) {
    const ofType = (ids: readonly string[]) => ids.filter((id) => q.ofType.has(id)).length;
    const set = await system.matchSet(q.query);
    const cheapest = await system.cheapest(q.query, K);
    out.push({
      query: q.query,
      total: set.length,
      precision: set.length ? ofType(set) / set.length : 0,
      cheapestPrecision: cheapest.length ? ofType(cheapest) / cheapest.length : 0,
    });
  }
  return out;
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
    matchSet: {
      precision: mean(run.matchSets.map((m) => m.precision)),
      cheapestPrecision: mean(run.matchSets.map((m) => m.cheapestPrecision)),
      total: mean(run.matchSets.map((m) => m.total)),
    },
    byFamily,
    typoRecovery: rightNdcg === 0 ? 0 : mean(typos.map((r) => r.ndcg)) / rightNdcg,
    realZeroRate: mean(run.real.map((r) => (r.zero ? 1 : 0))),
    realZeroQueries: run.real.filter((r) => r.zero).map((r) => r.query),
    recovered: {
      queries: run.real.filter((r) => r.recovered).map((r) => r.query),
      relevantShare: mean(run.real.filter((r) => r.recovered).map((r) => (r.recovered!.relevant ? 1 : 0))),
    },
    slowest: { query: slowest.query, ms: slowest.ms },
  };
}
