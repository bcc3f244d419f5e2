/*
 * Million-product benchmark (not a test: it prints, it does not assert): every goal of "one machine carries a
 * million products" beside its target, on the real server as a child process, over HTTP, at any --size.
 *
 *   index    the demo's real products multiplied with seeded variations (catalog-multiplier.ts), made as they are
 *            sent: POST /1.9/products in bulks of --bulk, at most --ahead tasks unfinished, each task followed to
 *            its end; the rate per window of --window products (the slowest window is the sustained rate) and the
 *            RSS of the server's process and its descendants at each window's end. The server's enrichment runs
 *            meanwhile, as it does for a store's import.
 *   search   the enrichment backlog held (its jobs postponed a day, in the server's database) and the server idle,
 *            the search mix of search-bench.ts (search-mix.ts: real queries, every request with facets, sorts and
 *            selections): a warm-up under load, then 1 in flight (p50/p99, the "facets + sort" class judged), then
 *            16 in flight (searches/s); GET /similarity and GET /ctl at 1 in flight for --sources products spread
 *            over the catalog (their first answers, which build the models, timed apart); RSS after the load and
 *            after --idle-seconds idle.
 *   restart  SIGTERM, the exit waited for, the server started again on the same data directory: the time until
 *            its first search answers 200 with products, then its first similar products and looks.
 *
 *   bun server/bench/million-bench.ts [--size 1000000] [--bulk 2000] [--ahead 4] [--window 100000] [--seed 42]
 *        [--seconds 15] [--load-seconds 10] [--warm-seconds 10] [--sources 500] [--idle-seconds 30] [--index-only]
 *
 *   --index-only stops after the index phase and prints its windows alone (each window's server CPU by thread and
 *   the serving thread's I/O too).
 */
import type { CtlResponse, SearchResponse, SimilarityResponse } from "@storefront-search/contract";
import { rmSync, mkdtempSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { chunked } from "../src/lib/chunked.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "../test/support/child-server.ts";
import { indexBulksOver } from "../test/support/indexed-child-server.ts";
import { numberArg } from "./bench-args.ts";
import { multipliedProducts } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, rssMiB, summarize, type LatencySummary } from "./latency-load.ts";
import { cpuMsOf, mainThreadIo, settled, threadCpuMs } from "./load.ts";
import {
  buildMix,
  classOf,
  factsOfAnswer,
  querySuggestions,
  queryTexts,
  searchParams,
  type MixItem,
  type QueryFacts,
} from "./search-mix.ts";
import { treeRss } from "./tree-rss.ts";

const SIZE = numberArg("--size", 1_000_000);
const BULK = numberArg("--bulk", 2000);
const AHEAD = numberArg("--ahead", 4);
const WINDOW = numberArg("--window", Math.min(100_000, Math.ceil(SIZE / 10)));
const SEED = numberArg("--seed", 42);
const SECONDS = numberArg("--seconds", 15);
const LOAD_SECONDS = numberArg("--load-seconds", 10);
const WARM_SECONDS = numberArg("--warm-seconds", 10);
const SOURCES = numberArg("--sources", 500);
const IDLE_SECONDS = numberArg("--idle-seconds", 30);
/** How long the server may stay busy after indexing (its meaning training) before the search phase starts anyway. */
const SETTLE_SECONDS = numberArg("--settle-seconds", 1800);
const INDEX_ONLY = process.argv.includes("--index-only");
const CONCURRENCY = 16;
/** How long a start, or a first answer (a restart's first search, the first similar products), may take before the bench gives up. */
const START_TIMEOUT_MS = 1_800_000;

const GOAL = {
  indexPerSecond: 8000,
  /** The search p99 at 1 in flight: 25 ms is the goal at 50,000 products, 50 ms the goal up to a million. */
  searchP99: SIZE <= 50_000 ? 25 : 50,
  searchesPerSecond: 200,
  similarOfSearch: 2,
  looksOfSearch: 3,
  kbPerProduct: 8,
  restartSeconds: 30,
};

for (const [flag, value, min, max] of [
  ["--size", SIZE, 1, 10_000_000],
  ["--bulk", BULK, 1, 10_000],
  ["--ahead", AHEAD, 1, 1000],
  ["--window", WINDOW, 1, 10_000_000],
] as const) {
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`${flag} must be a whole number from ${min} to ${max}`);
}

const fmt = (n: number) => Math.round(n).toLocaleString("en");
const ms = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : fmt(n));
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(1)} s`;
const mib = (bytes: number) => fmt(bytes / 1048576);
const kbPer = (bytes: number) => bytes / 1024 / SIZE;
const log = (text: string) => console.error(`[million-bench ${fmt(SIZE)}] ${text}`);

const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
const searchKey = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY };

/** Each phase's wall time, in the order run. */
const phases: { name: string; ms: number }[] = [];
async function phase<T>(name: string, run: () => Promise<T>): Promise<T> {
  log(name);
  const started = performance.now();
  try {
    return await run();
  } finally {
    phases.push({ name, ms: performance.now() - started });
  }
}

/** The products as made, with the ids of `count` of them spread evenly over the catalog kept in `sources`. */
function* keepingSources(products: Iterable<Product>, count: number, sources: string[]): Generator<Product> {
  const step = Math.max(1, Math.floor(SIZE / count));
  let i = 0;
  for (const p of products) {
    if (i++ % step === 0 && sources.length < count) sources.push(p.id);
    yield p;
  }
}

interface IndexWindow {
  upTo: number;
  ms: number;
  rss: number;
  /** CPU time spent in the window by the server (all its threads) and by this process (making and sending bulks). */
  serverCpuMs: number;
  benchCpuMs: number;
  /** The server's CPU in the window by thread: serving (main), indexing and events (workers), the runtime's own. */
  threads: ReturnType<typeof threadCpuMs>;
  /** The serving thread's I/O in the window. */
  io: ReturnType<typeof mainThreadIo>;
}

/** User + system CPU milliseconds of this process. */
function benchCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/*
 * The machine the bench runs on may be shared: CPU time per product and per search, beside the wall-clock rates,
 * say what the server costs whatever else runs; the load average says how shared the machine was.
 */
const serverCpuMs = (server: ChildServer) => cpuMsOf(`/proc/${server.proc.pid}/stat`);
const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");

/** Indexes the catalog through POST /products; the time and the server's RSS at the end of each window. */
async function indexCatalog(server: ChildServer, real: readonly Product[], sources: string[]): Promise<IndexWindow[]> {
  const windows: IndexWindow[] = [];
  let done = 0;
  let windowStart = performance.now();
  let windowDone = 0;
  let [serverCpu, benchCpu, threads, io] = [serverCpuMs(server), benchCpuMs(), threadCpuMs(server.proc.pid), mainThreadIo(server.proc.pid)];
  const products = keepingSources(multipliedProducts(real, SIZE, SEED), 2 * SOURCES, sources);
  await indexBulksOver(server.url, admin, chunked(products, BULK), {
    ahead: AHEAD,
    onDone: (n) => {
      done += n;
      if (done - windowDone < WINDOW && done < SIZE) return;
      const now = performance.now();
      const [serverNow, benchNow, threadsNow, ioNow] = [
        serverCpuMs(server),
        benchCpuMs(),
        threadCpuMs(server.proc.pid),
        mainThreadIo(server.proc.pid),
      ];
      windows.push({
        upTo: done,
        ms: now - windowStart,
        rss: treeRss(server.proc.pid).rss,
        serverCpuMs: serverNow - serverCpu,
        benchCpuMs: benchNow - benchCpu,
        threads: {
          main: threadsNow.main - threads.main,
          workers: threadsNow.workers - threads.workers,
          runtime: threadsNow.runtime - threads.runtime,
        },
        io: {
          reads: ioNow.reads - io.reads,
          readBytes: ioNow.readBytes - io.readBytes,
          writes: ioNow.writes - io.writes,
          writtenBytes: ioNow.writtenBytes - io.writtenBytes,
        },
      });
      [serverCpu, benchCpu, threads, io] = [serverNow, benchNow, threadsNow, ioNow];
      log(`indexed ${fmt(done)} (${fmt(((done - windowDone) * 1000) / (now - windowStart))} products/s in the window)`);
      [windowStart, windowDone] = [now, done];
    },
  });
  return windows;
}

const cpuPerThousand = (cpuMs: number, products: number) => fmt((cpuMs * 1000) / products);
const mbPerThousand = (bytes: number, products: number) => ((bytes * 1000) / products / 1e6).toFixed(1);

/**
 * The index phase window by window: its rate, the server's CPU per 1,000 products (all, and by thread), the serving
 * thread's I/O per 1,000 (read calls and MB, write calls and MB: SQLite's pages and the HTTP bodies), RSS.
 */
function printWindows(windows: IndexWindow[]): void {
  console.log(
    "\n| indexed | window | products/s | server CPU per 1,000: all / serving / indexing and events / runtime | serving thread I/O per 1,000: reads (MB) / writes (MB) | bench CPU per 1,000 | RSS (KB per product indexed) |\n|---:|---:|---:|---:|---:|---:|---:|",
  );
  windows.forEach((w, i) => {
    const products = w.upTo - (windows[i - 1]?.upTo ?? 0);
    const perThousand = (cpuMs: number) => cpuPerThousand(cpuMs, products);
    console.log(
      `| ${fmt(w.upTo)} | ${seconds(w.ms)} | ${fmt((products * 1000) / w.ms)} | ` +
        `${perThousand(w.serverCpuMs)} / ${perThousand(w.threads.main)} / ${perThousand(w.threads.workers)} / ${perThousand(w.threads.runtime)} ms | ` +
        `${perThousand(w.io.reads)} (${mbPerThousand(w.io.readBytes, products)}) / ${perThousand(w.io.writes)} (${mbPerThousand(w.io.writtenBytes, products)}) | ` +
        `${perThousand(w.benchCpuMs)} ms | ${mib(w.rss)} MiB (${(w.rss / 1024 / w.upTo).toFixed(2)}) |`,
    );
  });
}

/** GET a route as the search key; the parsed body of a 200, or null with the status of anything else. */
async function getJson<T>(url: string): Promise<{ status: number; body: T | null }> {
  const res = await fetch(url, { headers: searchKey });
  if (!res.ok) {
    await res.arrayBuffer();
    return { status: res.status, body: null };
  }
  return { status: res.status, body: (await res.json()) as T };
}

/** A query's facts over HTTP. */
async function factsOver(url: string, query: string): Promise<QueryFacts> {
  const { status, body } = await getJson<SearchResponse>(`${url}/1.9/search?${new URLSearchParams({ query, returnFacets: "true" })}`);
  if (!body) throw new Error(`GET /search for "${query}" answered ${status}`);
  return factsOfAnswer(body);
}

const similarUrl = (url: string, productId: string) => `${url}/1.9/similarity?${new URLSearchParams({ productId })}`;
const looksUrl = (url: string, productId: string) => `${url}/1.9/ctl?${new URLSearchParams({ productId })}`;

/** Milliseconds until `url` answers 200 (a 4xx or 5xx is a failure: the bench stops). */
async function timedAnswer(url: string): Promise<number> {
  const started = performance.now();
  const { status, body } = await getJson<SimilarityResponse | CtlResponse>(url);
  if (!body) throw new Error(`${new URL(url).pathname} answered ${status}`);
  return performance.now() - started;
}

/** Connections cut before a first answer came, by route: what a shopper's browser would have seen as an error. */
const cutOff = new Map<string, number>();

/**
 * Milliseconds until `url` first answers 200. A request whose connection is cut (the server closes one idle for
 * 30 s, Bun's fetch gives up after 5 minutes) is counted in `cutOff` and sent again: a model built on the first
 * request goes on meanwhile, and at a million products it may take longer than either.
 */
async function firstAnswer(url: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const answer = await getJson<SimilarityResponse | CtlResponse | SearchResponse>(url).catch((error: Error) => error);
    if (!(answer instanceof Error)) {
      if (!answer.body) throw new Error(`${new URL(url).pathname} answered ${answer.status}`);
      return performance.now() - started;
    }
    if (performance.now() - started > START_TIMEOUT_MS) throw answer;
    const path = new URL(url).pathname;
    cutOff.set(path, (cutOff.get(path) ?? 0) + 1);
  }
}

/** Each of `urls` asked once, one at a time, after each of `warm` unmeasured. */
async function oneAtATime(urls: string[], warm: string[]): Promise<LatencySummary> {
  for (const url of warm) await timedAnswer(url);
  const samples: number[] = [];
  for (const url of urls) samples.push(await timedAnswer(url));
  return summarize(samples);
}

interface Restart {
  stopMs: number;
  healthMs: number;
  firstSearchMs: number;
  refusedSearches: number;
  firstSimilarMs: number;
  firstLooksMs: number;
}

/** Stops the server (SIGTERM, its exit waited for) and starts it on the same data; its first answers, timed from the start. */
async function restart(server: ChildServer, env: Record<string, string>, first: MixItem, source: string) {
  let started = performance.now();
  server.proc.kill("SIGTERM");
  await server.proc.exited;
  const stopMs = performance.now() - started;
  started = performance.now();
  const next = await spawnDrainedServer(env, START_TIMEOUT_MS);
  const healthMs = performance.now() - started;
  let refusedSearches = 0;
  for (;;) {
    const { body } = await getJson<SearchResponse>(`${next.url}/1.9/search?${searchParams(first)}`).catch(() => {
      cutOff.set("/1.9/search", (cutOff.get("/1.9/search") ?? 0) + 1);
      return { body: null };
    });
    if (body && body.products.length > 0) break;
    if (performance.now() - started > START_TIMEOUT_MS) throw new Error("the restarted server never answered a search with products");
    refusedSearches++;
    await Bun.sleep(50);
  }
  const firstSearchMs = performance.now() - started;
  await firstAnswer(similarUrl(next.url, source));
  const firstSimilarMs = performance.now() - started;
  await firstAnswer(looksUrl(next.url, source));
  const firstLooksMs = performance.now() - started;
  return { server: next, result: { stopMs, healthMs, firstSearchMs, refusedSearches, firstSimilarMs, firstLooksMs } satisfies Restart };
}

async function main(): Promise<void> {
  const loadAtStart = loadAverage();
  const catalogDir = loadConfig({}).demoCatalog.dir;
  const real = await phase("loading the demo catalog and the query suggestions", async () =>
    loadDemoCatalog({ dataDir: catalogDir, baseUrl: "http://localhost:8080" }),
  );
  const queries = queryTexts(await querySuggestions());
  const dataDir = mkdtempSync(join(tmpdir(), "sfs-million-bench-"));
  const env = { DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error" };
  let server = await phase("starting the server", () => spawnDrainedServer(env, START_TIMEOUT_MS));
  try {
    const emptyRss = treeRss(server.proc.pid).rss;
    // Every other one is asked unmeasured first, so that the measured ones meet a warm server but no cache of theirs.
    const spread: string[] = [];
    const windows = await phase(`indexing ${fmt(SIZE)} products over HTTP`, () => indexCatalog(server, real, spread));
    const sources = spread.filter((_, i) => i % 2 === 0);
    const warm = spread.filter((_, i) => i % 2 === 1).slice(0, 50);
    const indexMs = windows.reduce((sum, w) => sum + w.ms, 0);
    const indexedRss = treeRss(server.proc.pid).rss;
    if (INDEX_ONLY) {
      const indexCpu = windows.reduce((sum, w) => sum + w.serverCpuMs, 0);
      console.log(
        `\n### Million-product benchmark, index phase: ${fmt(SIZE)} products (seed ${SEED}) in ${seconds(indexMs)}, ` +
          `${fmt((SIZE * 1000) / indexMs)} products/s overall, server CPU ${cpuPerThousand(indexCpu, SIZE)} ms per 1,000; ` +
          `load average ${loadAtStart} at the start and ${loadAverage()} at the end`,
      );
      printWindows(windows);
      return;
    }

    const held = await phase("holding the enrichment backlog, waiting for the server to settle", async () => {
      const jobs = holdEnrichment(join(dataDir, "service.db"), Date.now() + 86_400_000);
      // Idle over a window longer than the quiet time (5 s) after which the store's meaning training starts.
      return { jobs, settledMs: await settled(server.proc.pid, { windowMs: 6000, maxMs: SETTLE_SECONDS * 1000 }) };
    });

    /** How many products each query finds, for the slowest queries' line. */
    const matches = new Map<string, number>();
    const { mix, found } = await phase(`the search mix (${fmt(queries.length)} queries asked once)`, () =>
      buildMix(queries, 4000, async (q) => {
        const facts = await factsOver(server.url, q);
        matches.set(q, facts.total);
        return facts;
      }),
    );
    // Each latency is labelled with its item's place in the mix.
    const searchCall = (i: number) => {
      const item = mix[i % mix.length]!;
      return { label: String(i % mix.length), send: () => fetch(`${server.url}/1.9/search?${searchParams(item)}`, { headers: searchKey }) };
    };
    await phase(`warm-up: the search mix at ${CONCURRENCY} in flight for ${WARM_SECONDS} s`, () =>
      measureLatencies(WARM_SECONDS, CONCURRENCY, (i) => searchCall(i + 10_000)),
    );
    const single = await phase(`the search mix at 1 in flight for ${SECONDS} s`, () =>
      measureLatencies(SECONDS, 1, (i) => searchCall(i + 20_000)),
    );
    const facetsSortTimes = new Map<string, number[]>();
    single.latencies.forEach((latency, i) => {
      const item = mix[Number(single.labels[i])]!;
      if (classOf(item) === "facets + sort") facetsSortTimes.set(item.query, [...(facetsSortTimes.get(item.query) ?? []), latency]);
    });
    const facetsSort = summarize([...facetsSortTimes.values()].flat());
    const slowestQueries = [...facetsSortTimes]
      .map(([query, times]) => ({ query, median: summarize(times).p50 }))
      .sort((a, b) => b.median - a.median)
      .slice(0, 5)
      .map((q) => `"${q.query}" ${ms(q.median)} ms (${fmt(matches.get(q.query) ?? 0)} matches)`);
    const cpuBeforeLoad = serverCpuMs(server);
    const loaded = await phase(`the search mix at ${CONCURRENCY} in flight for ${LOAD_SECONDS} s`, () =>
      measureLatencies(LOAD_SECONDS, CONCURRENCY, (i) => searchCall(i + 40_000)),
    );
    const cpuPerSearch = (serverCpuMs(server) - cpuBeforeLoad) / loaded.requests;

    const source = sources[0]!;
    const firstSimilarMs = await phase("the first similar products (the model built)", () => firstAnswer(similarUrl(server.url, source)));
    const similar = await phase(`similar products for ${fmt(sources.length)} products, 1 in flight`, () =>
      oneAtATime(
        sources.map((id) => similarUrl(server.url, id)),
        warm.map((id) => similarUrl(server.url, id)),
      ),
    );
    const firstLooksMs = await phase("the first complete-the-look (the model built)", () => firstAnswer(looksUrl(server.url, source)));
    const looks = await phase(`complete-the-look for ${fmt(sources.length)} products, 1 in flight`, () =>
      oneAtATime(
        sources.map((id) => looksUrl(server.url, id)),
        warm.map((id) => looksUrl(server.url, id)),
      ),
    );
    const loadedRss = treeRss(server.proc.pid);
    await phase(`idle for ${IDLE_SECONDS} s`, () => Bun.sleep(IDLE_SECONDS * 1000));
    const idleRss = treeRss(server.proc.pid);
    const peakMiB = (await rssMiB(server.proc.pid)).peak;

    const first = mix.find((item) => classOf(item) === "facets + sort")!;
    const restarted = await phase("restart: SIGTERM, exit, start on the same data, first answers", () =>
      restart(server, env, first, source),
    );
    server = restarted.server;
    const again = restarted.result;
    const restartedRss = treeRss(server.proc.pid).rss;

    /* ---------------------------------------------------------------- the report */
    const rates = windows.map((w, i) => ((w.upTo - (windows[i - 1]?.upTo ?? 0)) * 1000) / w.ms);
    const slowest = Math.min(...rates);
    const slowestAt = windows[rates.indexOf(slowest)]!.upTo;
    const verdict = (ok: boolean) => (ok ? "met" : "**missed**");
    const failed = (r: { failures: number }) => (r.failures ? ` (${fmt(r.failures)} failed)` : "");
    const kb = (bytes: number) => `${kbPer(bytes).toFixed(2)} KB per product (${mib(bytes)} MiB)`;

    console.log(
      `\n### Million-product benchmark: ${fmt(SIZE)} products (seed ${SEED}), ${navigator.hardwareConcurrency} cores, ` +
        `load average ${loadAtStart} at the start and ${loadAverage()} at the end\n`,
    );
    console.log("| goal | target | measured | met? |\n|---|---|---|---|");
    const goal = (name: string, target: string, measured: string, ok: boolean) =>
      console.log(`| ${name} | ${target} | ${measured} | ${verdict(ok)} |`);
    goal(
      `bulk indexing over HTTP, slowest window of ${fmt(WINDOW)} (bulks of ${fmt(BULK)})`,
      `≥ ${fmt(GOAL.indexPerSecond)} products/s`,
      `${fmt(slowest)} products/s (window ending at ${fmt(slowestAt)}); overall ${fmt((SIZE * 1000) / indexMs)} products/s in ${seconds(indexMs)}`,
      slowest >= GOAL.indexPerSecond,
    );
    goal(
      "search p99, facets + sort, 1 in flight",
      `≤ ${GOAL.searchP99} ms${SIZE <= 50_000 ? " (at 50,000)" : ""}`,
      `${ms(facetsSort.p99)} ms (p50 ${ms(facetsSort.p50)}, n=${fmt(facetsSort.n)}); whole mix p99 ${ms(summarize(single.latencies).p99)} ms${failed(single)}`,
      facetsSort.p99 <= GOAL.searchP99,
    );
    goal(
      `searches/s, the mix at ${CONCURRENCY} in flight`,
      `≥ ${GOAL.searchesPerSecond}`,
      `${fmt(loaded.perSecond)} (p99 ${ms(summarize(loaded.latencies).p99)} ms; ${ms(cpuPerSearch)} ms of server CPU each)${failed(loaded)}`,
      loaded.perSecond >= GOAL.searchesPerSecond,
    );
    goal(
      "similar products p99, 1 in flight",
      `≤ ${GOAL.similarOfSearch}× search p99 = ${ms(GOAL.similarOfSearch * facetsSort.p99)} ms`,
      `${ms(similar.p99)} ms (${(similar.p99 / facetsSort.p99).toFixed(2)}×; p50 ${ms(similar.p50)})`,
      similar.p99 <= GOAL.similarOfSearch * facetsSort.p99,
    );
    goal(
      "complete-the-look p99, 1 in flight",
      `≤ ${GOAL.looksOfSearch}× search p99 = ${ms(GOAL.looksOfSearch * facetsSort.p99)} ms`,
      `${ms(looks.p99)} ms (${(looks.p99 / facetsSort.p99).toFixed(2)}×; p50 ${ms(looks.p50)})`,
      looks.p99 <= GOAL.looksOfSearch * facetsSort.p99,
    );
    goal(
      "memory: RSS of the server's processes after the load",
      `≤ ${GOAL.kbPerProduct} KB per product`,
      `${kb(loadedRss.rss)}, of which ${mib(loadedRss.file)} MiB mapped files`,
      kbPer(loadedRss.rss) <= GOAL.kbPerProduct,
    );
    goal(
      `memory: the same after ${IDLE_SECONDS} s idle`,
      `≤ ${GOAL.kbPerProduct} KB per product`,
      `${kb(idleRss.rss)}, of which ${mib(idleRss.file)} MiB mapped files`,
      kbPer(idleRss.rss) <= GOAL.kbPerProduct,
    );
    goal(
      "restart: its first search answers 200 with products",
      `≤ ${GOAL.restartSeconds} s`,
      `${seconds(again.firstSearchMs)} after the start (health after ${seconds(again.healthMs)}; ${fmt(again.refusedSearches)} searches refused, cut or without products first)`,
      again.firstSearchMs <= GOAL.restartSeconds * 1000,
    );

    console.log("\n| also measured | value |\n|---|---|");
    const also = (name: string, value: string) => console.log(`| ${name} | ${value} |`);
    const indexCpu = windows.reduce((sum, w) => sum + w.serverCpuMs, 0);
    also(
      "indexing: CPU per 1,000 products, the server (all its threads) / this process (making and sending bulks)",
      `${cpuPerThousand(indexCpu, SIZE)} ms / ${cpuPerThousand(
        windows.reduce((sum, w) => sum + w.benchCpuMs, 0),
        SIZE,
      )} ms: ${fmt((SIZE * 1000) / indexCpu)} products per server CPU-second`,
    );
    also("RSS empty, after indexing", `${kb(emptyRss)}; ${kb(indexedRss)}`);
    also(
      "peak RSS of the server's main process (VmHWM), before the restart",
      `${fmt(peakMiB)} MiB (${((peakMiB * 1024) / SIZE).toFixed(2)} KB per product)`,
    );
    also(
      "enrichment jobs held after indexing",
      `${fmt(held.jobs)}; the server busy after that (its meaning training) ${held.settledMs === null ? `beyond ${fmt(SETTLE_SECONDS)} s: the search phase started anyway` : `for ${seconds(held.settledMs)}`}`,
    );
    also("query mix", `${fmt(queries.length)} real queries, ${fmt(found)} find products here; 4,000 requests`);
    also("slowest queries, facets + sort at 1 in flight (median)", slowestQueries.join("; "));
    also("the first similar products / looks (their models built)", `${ms(firstSimilarMs)} ms / ${ms(firstLooksMs)} ms`);
    also("restart: SIGTERM to exit", seconds(again.stopMs));
    also(
      "restart: its first similar products / looks, after the start",
      `${seconds(again.firstSimilarMs)} / ${seconds(again.firstLooksMs)}`,
    );
    also("restart: RSS after those answers", kb(restartedRss));
    also(
      "first answers whose connection was cut before they came (sent again)",
      cutOff.size ? [...cutOff].map(([path, n]) => `${path} ${fmt(n)}`).join(", ") : "none",
    );

    printWindows(windows);
    console.log("\n| phase | time |\n|---|---:|");
    for (const p of phases) console.log(`| ${p.name} | ${seconds(p.ms)} |`);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
