/*
 * Hostile-search benchmark (not a test: it prints, it does not assert). The real server (a child process)
 * holding a sample of the demo catalog answers, in the same run:
 *
 *   one in flight   GET /search and GET /suggestions with each hostile query shape, against an ordinary mix
 *                   of the real query suggestions (and their keystrokes), as p50/p99 and as ratios to it;
 *   under load      GET /health, one after another, while CONCURRENCY hostile searches (or typeahead requests)
 *                   are in flight, against /health while the ordinary mix is in flight and /health alone.
 *
 * The shapes are the worst cases the limits in server/src/text/query-limits.ts and the fallback cap in
 * search-service.ts are about: a character that folds into many words, very long words, many words, many
 * compound pieces, FTS5 syntax, and sixteen common words that match nothing together (the longest fallback).
 *
 *   bun server/bench/hostile-search-bench.ts [--products N] [--seconds S]
 */
import { join } from "node:path";
import { loadConfig } from "../src/config.ts";
import { MAX_QUERY_WORDS } from "../src/text/query-limits.ts";
import { demoProducts } from "../test/support/demo-products.ts";
import { startIndexedServer } from "../test/support/indexed-child-server.ts";
import { UNLIMITED } from "../test/support/test-server.ts";
import { measureLatencies, summarize, type LatencySummary } from "./latency-load.ts";
import { numberArg } from "./bench-args.ts";

const PRODUCTS = numberArg("--products", 5000);
const SECONDS = numberArg("--seconds", 2);
const CONCURRENCY = 16;
const QUERIES_FILE = join(loadConfig(process.env).demoCatalog.dir, "query-suggestions", "fashion-query-suggestions.json");

let seed = 42;
/** Deterministic letters (a small LCG): every run sends the same "random" words. */
const randomLetters = (n: number) =>
  Array.from({ length: n }, () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return String.fromCharCode(97 + ((seed >>> 16) % 26));
  }).join("");

const COMMON = "women men cotton solid printed regular fit casual shirt dress black blue white red green yellow".split(" ");

/** Search shapes: a fixed text, or a new one per request. */
const SEARCH_SHAPES: Record<string, () => string> = {
  "U+FDFA × 512 (folds to ~1,500 words)": () => "\uFDFA".repeat(512),
  "512-letter random word": () => randomLetters(512),
  "256 one-letter words": () => Array.from({ length: 256 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(" "),
  "a-a-a-… (256 pieces)": () => Array(256).fill("a").join("-"),
  "FTS5 operators and quotes": () => '"jeans" AND (shirt OR NEAR(dress, 2)) NOT ^top* col:umn "" * '.repeat(7),
  [`${MAX_QUERY_WORDS} common words, no product has all`]: () => COMMON.join(" "),
  "U+3316 × 512 (one 3,072-letter word)": () => "\u3316".repeat(512),
};
const SUGGEST_SHAPES: Record<string, () => string> = {
  "U+FDFA × 100": () => "\uFDFA".repeat(100),
  "100-letter random word": () => randomLetters(100),
  "50 one-letter words": () => Array.from({ length: 50 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(" "),
};

const ms = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString());
const line = (s: LatencySummary) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} ms (n=${s.n})`;
const ratio = (a: number, b: number) => (a / b).toFixed(2);

console.error(`[hostile-search-bench] loading ${PRODUCTS} demo products and the real queries`);
const products = demoProducts(PRODUCTS);
const queries = ((await Bun.file(QUERIES_FILE).json()) as { query: string }[]).map((q) => q.query.trim()).filter(Boolean);
const keystrokes = queries.slice(0, 500).flatMap((q) => Array.from({ length: q.length }, (_, n) => q.slice(0, n + 1)));

console.error("[hostile-search-bench] indexing through the public API");
const server = await startIndexedServer(products, UNLIMITED);
const url = (path: string, query: string) => `${server.url}/1.9${path}?${new URLSearchParams({ query, returnFacets: "true" })}`;
const search = (query: string) => () => fetch(url("/search", query), { headers: server.searchHeaders });
const suggest = (query: string) => () => fetch(url("/suggestions", query), { headers: server.searchHeaders });
const ordinarySearch = (i: number) => search(queries[i % queries.length]!);
const ordinarySuggest = (i: number) => suggest(keystrokes[i % keystrokes.length]!);

interface Row {
  name: string;
  s: LatencySummary;
  failures: number;
}

async function oneInFlight(name: string, send: (i: number) => () => Promise<Response>): Promise<Row> {
  const run = await measureLatencies(SECONDS, 1, (i) => ({ send: send(i) }));
  return { name, s: summarize(run.latencies), failures: run.failures };
}

/** /health one after another while `send` keeps CONCURRENCY requests in flight (or nothing, without `send`). */
async function healthUnder(name: string, send?: (i: number) => () => Promise<Response>): Promise<Row> {
  const [health, load] = await Promise.all([
    measureLatencies(SECONDS, 1, () => ({ send: () => fetch(`${server.url}/health`) })),
    send ? measureLatencies(SECONDS, CONCURRENCY, (i) => ({ send: send(i) })) : null,
  ]);
  return { name, s: summarize(health.latencies), failures: health.failures + (load?.failures ?? 0) };
}

try {
  console.error("[hostile-search-bench] warm-up");
  for (let i = 0; i < 200; i++) await (await ordinarySearch(i)()).arrayBuffer();
  for (let i = 0; i < 200; i++) await (await ordinarySuggest(i)()).arrayBuffer();

  console.error(`[hostile-search-bench] one request in flight, ${SECONDS} s per shape`);
  const health = await oneInFlight("GET /health", () => () => fetch(`${server.url}/health`));
  const searchBase = await oneInFlight("ordinary mix (real queries)", ordinarySearch);
  const searchRows: Row[] = [];
  for (const [name, text] of Object.entries(SEARCH_SHAPES)) searchRows.push(await oneInFlight(name, () => search(text())));
  const suggestBase = await oneInFlight("ordinary keystrokes", ordinarySuggest);
  const suggestRows: Row[] = [];
  for (const [name, text] of Object.entries(SUGGEST_SHAPES)) suggestRows.push(await oneInFlight(name, () => suggest(text())));

  console.error(`[hostile-search-bench] /health under load, ${CONCURRENCY} in flight`);
  const idle = await healthUnder("nothing else");
  const underOrdinary = await healthUnder("the ordinary search mix", ordinarySearch);
  const underSearch = await healthUnder("U+FDFA × 512 searches", () => search(SEARCH_SHAPES["U+FDFA × 512 (folds to ~1,500 words)"]!()));
  const underWorst = await healthUnder(`${MAX_QUERY_WORDS} common words searches`, () => search(COMMON.join(" ")));
  const underSuggest = await healthUnder("U+FDFA × 100 typeahead", () => suggest(SUGGEST_SHAPES["U+FDFA × 100"]!()));

  const failed = (r: Row) => (r.failures ? ` (${r.failures} failed)` : "");
  console.log(
    `\n### Hostile-search benchmark, ${products.length.toLocaleString("en")} demo products (${navigator.hardwareConcurrency} cores)\n`,
  );
  console.log("| GET /search, 1 in flight | latency | p50 / ordinary p50 | p99 / ordinary p99 |\n|---|---|---|---|");
  for (const r of [searchBase, ...searchRows])
    console.log(`| ${r.name} | ${line(r.s)}${failed(r)} | ${ratio(r.s.p50, searchBase.s.p50)} | ${ratio(r.s.p99, searchBase.s.p99)} |`);
  console.log(`\n| GET /suggestions, 1 in flight | latency | p50 / ordinary p50 | p99 / ordinary p99 |\n|---|---|---|---|`);
  for (const r of [suggestBase, ...suggestRows])
    console.log(`| ${r.name} | ${line(r.s)}${failed(r)} | ${ratio(r.s.p50, suggestBase.s.p50)} | ${ratio(r.s.p99, suggestBase.s.p99)} |`);
  console.log(
    `\n| GET /health while ${CONCURRENCY} requests of … are in flight | latency | p99 / idle p99 | p99 / p99 under ordinary |\n|---|---|---|---|`,
  );
  for (const r of [idle, underOrdinary, underSearch, underWorst, underSuggest]) {
    console.log(`| ${r.name} | ${line(r.s)}${failed(r)} | ${ratio(r.s.p99, idle.s.p99)} | ${ratio(r.s.p99, underOrdinary.s.p99)} |`);
  }
  console.log(
    `\nGET /health alone, 1 in flight: ${line(health.s)}. Worst hostile search p99 ${ms(Math.max(...searchRows.map((r) => r.s.p99)))} ms ` +
      `= ${ratio(Math.max(...searchRows.map((r) => r.s.p99)), searchBase.s.p99)} × the ordinary mix's p99.`,
  );
} finally {
  await server.stop();
}
