/*
 * The embedded engine's CPU per search on a large store (not a test: it prints, it does not assert). The demo's
 * products multiplied to --size (catalog-multiplier.ts, as the million bench makes them) are indexed into a
 * SqliteEngine; the search mix (search-mix.ts) is read as the search service reads it (understoodSearch: spelling,
 * implied facets, fallbacks), and the engine searches it makes for each request are recorded once, then replayed
 * against the engine alone: CPU milliseconds per request by class and by how many products the query matches, and
 * requests per second one at a time (the engine is synchronous: at 16 in flight a server does the same work).
 *
 *   --dir D        keep the engine's files in D and reuse them when they hold --size products (A/B runs of two
 *                  builds on the same index skip the indexing)
 *   --phases       time the engine's phases (a wrapper around each of StoreIndex's and TextIndex's steps, which
 *                  costs a little per call): text matching, the filter pass, facet counts, range facets, the first
 *                  page (scoring the matches it compares), per class; without it the figures are of the engine alone
 *   --answers F    also write every answer of a fixed set of requests (the mix's, every sort of each query on its
 *                  first and a deep page, and the same after deletes, price changes and rewritten documents, made
 *                  on a copy of the index) to F, one JSON line per request; two builds agree when their files do
 *
 *   bun server/bench/search-cpu-bench.ts [--size 300000] [--seconds 20] [--dir D] [--answers F] [--seed 42]
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { StoreIndex } from "../src/engine/sqlite/store-index.ts";
import { TextIndex } from "../src/engine/sqlite/text-index.ts";
import type { EngineSearchRequest, EngineSearchResult, SearchEngine } from "../src/engine/types.ts";
import { toEngineDocument } from "../src/modules/catalog/engine-document.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { DEFAULT_FACETS, facetPlan } from "../src/modules/facets/facet-display.ts";
import { toEngineFilters } from "../src/modules/facets/facet-selection.ts";
import { QueryVocabularies } from "../src/modules/search/query-vocabulary.ts";
import { engineSorts, type SortBy } from "../src/modules/search/sort-strategies.ts";
import { understoodSearch } from "../src/modules/search/understood-query.ts";
import { effectiveSettings } from "../src/modules/settings/settings-schema.ts";
import { loadConfig } from "../src/config.ts";
import { numberArg, stringArg } from "./bench-args.ts";
import { multipliedProducts } from "./catalog-multiplier.ts";
import { summarize } from "./latency-load.ts";
import { buildMix, CLASSES, classOf, querySuggestions, queryTexts, type MixItem } from "./search-mix.ts";

const SIZE = numberArg("--size", 300_000);
const SECONDS = numberArg("--seconds", 20);
const SEED = numberArg("--seed", 42);
const DIR = stringArg("--dir", "");
const ANSWERS = stringArg("--answers", "");
const PHASES = process.argv.includes("--phases");
const STORE = "bench";
const RANKING = { ratingPrior: { mean: 0.7, weight: 10 }, purchases: 0 };
const PLAN = facetPlan(DEFAULT_FACETS);
/** A fixed time for sorts that read the clock, so that two runs ask the same. */
const NOW = Date.UTC(2026, 10, 1);

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const ms = (n: number) => (Number.isNaN(n) ? "–" : n.toFixed(n < 10 ? 2 : 1));
const log = (text: string) => console.error(`[search-cpu-bench ${fmt(SIZE)}] ${text}`);

/** The engine request SearchService starts from for GET /search?query&returnFacets=true&sortBy&facets. */
function baseRequest(query: string, sortBy: SortBy | undefined, item?: MixItem): EngineSearchRequest {
  return {
    text: query,
    matching: { typos: false, prefixLast: false },
    filters: toEngineFilters(item?.facets ?? []),
    facets: PLAN.terms,
    rangeFacets: PLAN.ranges,
    sort: engineSorts(sortBy, { settings: effectiveSettings({}), now: NOW, campaignProducts: [], shopperKey: "bench" }),
    offset: 0,
    limit: 30,
  };
}

/** The engine with every search request written down. */
function recording(engine: SearchEngine, into: EngineSearchRequest[]): SearchEngine {
  return new Proxy(engine, {
    get(target, name, receiver) {
      if (name === "search")
        return (storeId: string, request: EngineSearchRequest) => {
          into.push(structuredClone(request));
          return target.search(storeId, request);
        };
      const value = Reflect.get(target, name, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function indexed(dir: string): Promise<SqliteEngine> {
  const engine = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
  const held = await engine.count(STORE);
  if (held === SIZE) return engine;
  if (held !== 0) throw new Error(`${dir} holds ${held} products, not ${SIZE}`);
  log("indexing");
  const real: Product[] = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
  let bulk = [];
  const started = performance.now();
  for (const p of multipliedProducts(real, SIZE, SEED)) {
    bulk.push(toEngineDocument(p, 1, RANKING));
    if (bulk.length === 2000) {
      await engine.upsert(STORE, bulk);
      bulk = [];
    }
  }
  if (bulk.length) await engine.upsert(STORE, bulk);
  log(`indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return engine;
}

interface Recorded {
  item: MixItem;
  requests: EngineSearchRequest[];
  /** Products the request's first search matched. */
  total: number;
}

async function recordMix(engine: SqliteEngine): Promise<Recorded[]> {
  const queries = queryTexts(await querySuggestions());
  const vocabularies = new QueryVocabularies(engine, () => NOW);
  const { mix } = await buildMix(queries, 4000, async (q) => {
    const r = await engine.search(STORE, baseRequest(q, undefined));
    return { total: r.total, designers: (r.facets.designer ?? []).map((v) => v.value), priceBuckets: r.ranges.price_min ?? [] };
  });
  const out: Recorded[] = [];
  for (const item of mix) {
    const requests: EngineSearchRequest[] = [];
    const ran = await understoodSearch(
      recording(engine, requests),
      vocabularies,
      STORE,
      baseRequest(item.query, item.sort === "relevance" ? undefined : item.sort, item),
    );
    out.push({ item, requests, total: ran.result.total });
  }
  return out;
}

const BANDS = [
  { name: "under 1,000", below: 1000 },
  { name: "1,000–10,000", below: 10_000 },
  { name: "10,000–50,000", below: 50_000 },
  { name: "50,000 and more", below: Infinity },
];

/** Milliseconds spent in each wrapped step, inclusive of the steps it calls, since the last reset. */
const spent = new Map<string, number>();

/**
 * This process's CPU milliseconds so far: a shared machine's other processes stretch a step's wall time, not this.
 * It includes the runtime's own threads (garbage collection), as a server's CPU per request does.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Wraps the named methods of a class's prototype with a timer adding to `spent`. */
function timed(prototype: object, phases: Record<string, string>): void {
  const methods = prototype as Record<string, (...args: unknown[]) => unknown>;
  for (const [method, phase] of Object.entries(phases)) {
    const inner = methods[method]!;
    methods[method] = function (this: unknown, ...args: unknown[]) {
      const t0 = cpuMs();
      const add = () => spent.set(phase, (spent.get(phase) ?? 0) + cpuMs() - t0);
      const out = inner.apply(this, args);
      // An async step (the engine's search) ends when it settles: the bench runs one at a time, so nothing else runs meanwhile.
      if (out instanceof Promise) return out.finally(add);
      add();
      return out;
    };
  }
}

/** The steps of a search, each with what it includes. */
const STEPS = {
  match: "text matching (posting lists, intersection)",
  filterPass: "filter pass",
  maskPass: "filter pass",
  matchCounts: "facet counts",
  facetLists: "facet lists (sorting the counted values)",
  rangeValues: "range facet values",
  firstOf: "the first page (with scoring what it compares)",
  evaluate: "evaluate",
};

function timePhases(): void {
  timed(TextIndex.prototype, { match: STEPS.match });
  const { match: _, ...index } = STEPS;
  timed(StoreIndex.prototype, index);
  timed(SqliteEngine.prototype, { search: "engine search" });
}

async function timeMix(engine: SqliteEngine, recorded: Recorded[]): Promise<void> {
  log("warming up");
  for (const r of recorded.slice(0, 400)) for (const q of r.requests) await engine.search(STORE, q);
  spent.clear();
  log(`timing the mix for ${SECONDS} s`);
  const samples: { r: Recorded; ms: number }[] = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; performance.now() - started < SECONDS * 1000; i++) {
    const r = recorded[i % recorded.length]!;
    const t0 = cpuMs();
    for (const q of r.requests) await engine.search(STORE, q);
    samples.push({ r, ms: cpuMs() - t0 });
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  if (PHASES) printPhases(samples.length);
  const searches = samples.reduce((n, s) => n + s.r.requests.length, 0);
  const byRelevance = recorded.flatMap((r) => r.requests).filter((q) => q.text && q.sort.length === 1 && q.sort[0]!.kind === "relevance");
  console.log(`\n## Engine CPU per search request, ${fmt(SIZE)} products\n`);
  console.log(
    `${fmt(samples.length)} requests (${fmt(searches)} engine searches) in ${(elapsed / 1000).toFixed(1)} s: ` +
      `${fmt((samples.length * 1000) / elapsed)} requests/s, ${ms((cpu.user + cpu.system) / 1000 / samples.length)} ms CPU each; ` +
      `${fmt(byRelevance.length)} of the mix's ${fmt(recorded.reduce((n, r) => n + r.requests.length, 0))} engine searches have text sorted by relevance alone`,
  );
  console.log("\n| class | n | CPU p50 ms | CPU p99 ms | CPU mean ms |\n|---|---:|---:|---:|---:|");
  const row = (name: string, times: number[]) => {
    const s = summarize(times);
    const mean = times.reduce((a, b) => a + b, 0) / (times.length || 1);
    console.log(`| ${name} | ${fmt(s.n)} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(mean)} |`);
  };
  row(
    "all",
    samples.map((s) => s.ms),
  );
  for (const c of CLASSES)
    row(
      c,
      samples.filter((s) => classOf(s.r.item) === c).map((s) => s.ms),
    );
  console.log("\n| matches | n | CPU p50 ms | CPU p99 ms | CPU mean ms |\n|---|---:|---:|---:|---:|");
  let from = 0;
  for (const band of BANDS) {
    row(
      band.name,
      samples.filter((s) => s.r.item.found && s.r.total >= from && s.r.total < band.below).map((s) => s.ms),
    );
    from = band.below;
  }
  const byQuery = new Map<string, { total: number; times: number[] }>();
  for (const s of samples) {
    const e = byQuery.get(s.r.item.query) ?? { total: s.r.total, times: [] };
    e.times.push(s.ms);
    byQuery.set(s.r.item.query, e);
  }
  const slowest = [...byQuery]
    .map(([q, e]) => ({ q, total: e.total, median: summarize(e.times).p50 }))
    .sort((a, b) => b.median - a.median)
    .slice(0, 8);
  console.log(
    `\nslowest queries (median CPU over their sorts and selections): ${slowest.map((s) => `"${s.q}" ${ms(s.median)} ms (${fmt(s.total)})`).join(", ")}`,
  );
}

function printPhases(requests: number): void {
  const total = spent.get("engine search") ?? 0;
  const evaluate = spent.get(STEPS.evaluate) ?? 0;
  const of = (step: string) => spent.get(step) ?? 0;
  const rows: [string, number][] = [
    [STEPS.match, of(STEPS.match)],
    [STEPS.filterPass, of(STEPS.filterPass)],
    [STEPS.matchCounts, of(STEPS.matchCounts)],
    [STEPS.facetLists, of(STEPS.facetLists)],
    [STEPS.rangeValues, of(STEPS.rangeValues)],
    [STEPS.firstOf, of(STEPS.firstOf)],
    [
      "the rest of evaluate (range buckets, compiling filters, a selection's kept counts, hits)",
      evaluate - of(STEPS.filterPass) - of(STEPS.matchCounts) - of(STEPS.facetLists) - of(STEPS.rangeValues) - of(STEPS.firstOf),
    ],
    ["the rest of the engine's search (query plan, scoring words, candidates list)", total - evaluate - of(STEPS.match)],
  ];
  console.log("\n| step | CPU ms per request | share |\n|---|---:|---:|");
  for (const [name, msSpent] of rows) console.log(`| ${name} | ${ms(msSpent / requests)} | ${((100 * msSpent) / total).toFixed(0)}% |`);
}

/** Every sort a shopper can pick that the mix does not, on the first and a deep page. */
const ANSWER_SORTS: (SortBy | undefined)[] = [undefined, "pricea", "priced", "new", "rating", "namea", "newc", "vendor_based_newness"];

function answerRequests(recorded: Recorded[]): EngineSearchRequest[] {
  const requests: EngineSearchRequest[] = [];
  const seen = new Set<string>();
  const add = (r: EngineSearchRequest) => {
    const key = JSON.stringify(r);
    if (!seen.has(key)) {
      seen.add(key);
      requests.push(r);
    }
  };
  for (const r of recorded) for (const q of r.requests) add(q);
  const firsts = new Map<string, EngineSearchRequest>();
  for (const r of recorded) if (!firsts.has(r.item.query) && r.item.facets.length === 0) firsts.set(r.item.query, r.requests.at(-1)!);
  for (const first of [...firsts.values()].slice(0, 120))
    for (const sortBy of ANSWER_SORTS)
      for (const offset of [0, 970])
        add({
          ...first,
          sort: [...first.sort.filter((s) => s.kind !== "relevance" && s.kind !== "number"), ...baseRequest("", sortBy).sort],
          offset,
        });
  // Plain words sorted by relevance alone, as a store without query understanding asks them.
  for (const word of ["black", "men", "shirt", "blue", "dress", "women shoes", "red dress", "bag"])
    for (const offset of [0, 30, 970]) add({ ...baseRequest(word, undefined), offset });
  add(baseRequest("", undefined));
  add({ ...baseRequest("", "pricea"), offset: 5000 });
  return requests;
}

const answerLine = (result: EngineSearchResult) => JSON.stringify(result);

async function writeAnswers(dir: string, recorded: Recorded[]): Promise<void> {
  const copy = mkdtempSync(join(tmpdir(), "sfs-search-cpu-answers-"));
  cpSync(dir, copy, { recursive: true });
  const engine = new SqliteEngine({ dataDir: copy, synchronous: "NORMAL" });
  try {
    const requests = answerRequests(recorded);
    const lines: string[] = [];
    log(`answers: ${fmt(requests.length)} requests`);
    for (const r of requests) lines.push(answerLine(await engine.search(STORE, r)));
    // Deletes, price changes and rewritten documents (new words in the name) on a copy, then the same again.
    const ids = (await engine.search(STORE, { ...baseRequest("", undefined), facets: [], rangeFacets: [], limit: SIZE })).hits.map(
      (h) => h.id,
    );
    await engine.remove(
      STORE,
      ids.filter((_, i) => i % 97 === 0),
    );
    await engine.setNumbers(
      STORE,
      ids.filter((_, i) => i % 89 === 1).map((id, i) => ({ id, numbers: { price_min: i % 5 === 0 ? null : (i * 37) % 400 } })),
    );
    const real = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
    const rewritten: ReturnType<typeof toEngineDocument>[] = [];
    let i = 0;
    for (const p of multipliedProducts(real, Math.min(SIZE, 120_000), SEED)) {
      if (i++ % 83 === 2) {
        const doc = toEngineDocument({ ...p, name: `${p.name} black men` }, 2, RANKING);
        rewritten.push(doc);
      }
    }
    await engine.upsert(STORE, rewritten);
    for (const r of requests) lines.push(answerLine(await engine.search(STORE, r)));
    writeFileSync(ANSWERS, `${lines.join("\n")}\n`);
    log(`answers written to ${ANSWERS}`);
  } finally {
    await engine.close();
    rmSync(copy, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(SIZE) || SIZE < 1 || SIZE > 1_000_000) throw new Error("--size must be a whole number from 1 to 1,000,000");
  const dir = DIR || mkdtempSync(join(tmpdir(), "sfs-search-cpu-"));
  const engine = await indexed(dir);
  if (PHASES) timePhases();
  try {
    log("recording the mix's engine searches");
    const recorded = await recordMix(engine);
    await timeMix(engine, recorded);
    await engine.close();
    if (ANSWERS) await writeAnswers(dir, recorded);
  } finally {
    await engine.close();
    if (!DIR) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
