/*
 * Memory benchmark (not a test: it prints, it does not assert): where each KB of a product goes. N products (the
 * demo's real ones, multiplied with seeded variations beyond its size: catalog-multiplier.ts) are
 *
 *   server  indexed through POST /products into the real server (a child process), its enrichment held, then
 *           searched for --seconds with the search mix (every request with facets, sorts rotating) and asked for
 *           similar products and looks; the RSS of its process and descendants, after indexing and after the
 *           load, per product, beside an empty server's.
 *   parts   each structure the server holds, built alone in this process from the same products: the embedded
 *           engine (heap measured around its build, split by its memoryReport() estimates), the similarity and
 *           look models (heap measured around their builds), the stored shapes cache filled to its budget.
 *   peer    MiniSearch behind node:http (minisearch-peer-server.ts) on the same products: its RSS per product.
 *
 * Heap figures are JavaScriptCore's heap size after a full collection (typed arrays' buffers included); RSS also
 * holds what the allocator keeps after building (garbage not given back) and, for the server, SQLite's mapped file
 * pages (RssFile).
 *
 * --collect-after-load preloads heap-probe.ts into the server and, right after the load's RSS is read, has it run
 * a full collection: the RSS after it (and the serving thread's heap) tells the garbage not yet collected from what
 * stays live. The idle figure then follows that collection.
 *
 * --compare-env runs the server part again with each setting given (e.g. BUN_JSC_forceRAMSize=1073741824; one
 * setting of several variables joins them with "+": BUN_OPTIONS=--smol+MEMORY_LIMIT=2g) and prints it beside the
 * server as started, with the load's answers per second, p99 and the server's CPU per answer. --rounds runs the servers in turn that many times
 * (as started, each setting, as started, ...), so that a busy machine weighs on each alike; --no-parts skips the
 * structures built alone.
 *
 *   bun server/bench/memory-bench.ts [--size 50000] [--seconds 10] [--seed 42] [--settle-seconds 35] [--no-peer]
 *                                    [--compare-env KEY=VALUE[+KEY=VALUE],...] [--rounds 1] [--no-parts]
 *                                    [--collect-after-load]
 */
import { withMiniSearchPeer } from "./minisearch-peer.ts";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { ShapeCache } from "../src/modules/catalog/shape-cache.ts";
import { shapeJson, shapingFor } from "../src/modules/catalog/shaped-products.ts";
import { LookIndex } from "../src/modules/looks/look-index.ts";
import { SimilarityIndex } from "../src/modules/similarity/similarity-index.ts";
import { DEMO_KEYS, spawnDrainedServer } from "../test/support/child-server.ts";
import { indexOver } from "../test/support/indexed-child-server.ts";
import { stringArg } from "./bench-args.ts";
import { engineHeld, heapNow } from "./engine-memory-bench.ts";
import { multiplyCatalog } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, percentile } from "./latency-load.ts";
import { buildProductPageModels, latenciesByKind, MIX_KINDS, productMix } from "./product-mix.ts";
import { querySuggestions, queryTexts } from "./search-mix.ts";
import { treeRss } from "./tree-rss.ts";
import { cpuMsOf } from "./load.ts";

const SIZE = Number(stringArg("--size", "50000"));
const SECONDS = Number(stringArg("--seconds", "10"));
const SEED = Number(stringArg("--seed", "42"));
const SETTLE_SECONDS = Number(stringArg("--settle-seconds", "35"));
const PEER = !process.argv.includes("--no-peer");
const PARTS = !process.argv.includes("--no-parts");
const ROUNDS = Number(stringArg("--rounds", "1"));
const COLLECT_AFTER_LOAD = process.argv.includes("--collect-after-load");
/** Environment settings (KEY=VALUE, comma-separated) each measured on a server of their own beside the default. */
const COMPARE_ENV = stringArg("--compare-env", "")
  .split(",")
  .filter((e) => e.includes("="));
const CONCURRENCY = 8;
const DATA_DIR = loadConfig({}).demoCatalog.dir;

const log = (text: string) => console.error(`[memory-bench ${SIZE.toLocaleString("en")}] ${text}`);
const kbPer = (bytes: number) => (bytes / 1024 / SIZE).toFixed(2);
const mib = (bytes: number) => (bytes / 1048576).toFixed(0);
const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** What has been measured stays referenced, so that nothing it holds is collected while the next is measured. */
const kept: unknown[] = [];

/** The heap a structure holds once built: heap after a full collection, with it, less before it. */
async function heldBy<M>(build: () => M | Promise<M>): Promise<{ model: M; bytes: number }> {
  const before = heapNow();
  const model = await build();
  kept.push(model);
  return { model, bytes: heapNow() - before };
}

/* ---------------------------------------------------------------- the server */

async function serverRun(
  env: Record<string, string>,
  products: Product[],
  queries: string[],
): Promise<{
  empty: number;
  indexed: number;
  models: number;
  loaded: number;
  collected: { rss: number; probe: string } | null;
  settled: number;
  file: number;
  files: number[];
  searches: number;
  failures: number;
  latencies: { loaded: Map<string, number[]>; alone: Map<string, number[]> };
  buildSeconds: number;
  perSecond: number;
  p99: number;
  cpuPerAnswer: number;
}> {
  const dataDir = tempDir("sfs-memory-bench-");
  log("server: starting");
  const probeFile = join(dataDir, "heap-probe.jsonl");
  const probe: Record<string, string> = COLLECT_AFTER_LOAD
    ? { BUN_OPTIONS: `--preload ${join(import.meta.dir, "heap-probe.ts")}`, HEAP_PROBE_FILE: probeFile }
    : {};
  const server = await spawnDrainedServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error", ...probe, ...env }, 30_000);
  const admin = {
    "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
    "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY,
    "content-type": "application/json",
  };
  const search = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY };
  const pid = server.proc.pid;
  try {
    await Bun.sleep(2000);
    const emptyRss = treeRss(pid);
    const empty = emptyRss.rss;
    log("server: indexing through POST /products");
    await indexOver(server.url, admin, products, 1000);
    // Enrichment would keep a core busy for minutes; what it holds is not a structure measured here.
    holdEnrichment(join(dataDir, "service.db"), Date.now() + 3_600_000);
    const indexedRss = treeRss(pid);
    const indexed = indexedRss.rss;
    // The first similar products and looks build their models from the catalog: timed apart from the load.
    const productId = products[0]!.id;
    const buildStarted = performance.now();
    await buildProductPageModels(server.url, search, productId);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    const modelsRss = treeRss(pid);
    const models = modelsRss.rss;
    log(`server: the search mix, similar products and looks for ${SECONDS} s`);
    const call = productMix(
      server.url,
      search,
      products.map((p) => p.id),
      queries,
    );
    const cpuBefore = cpuMsOf(`/proc/${pid}/stat`);
    const run = await measureLatencies(SECONDS, CONCURRENCY, call);
    const cpu = cpuMsOf(`/proc/${pid}/stat`) - cpuBefore;
    const after = treeRss(pid);
    const collected = COLLECT_AFTER_LOAD ? await collectedRss(pid, probeFile) : null;
    // What the runtime collects on its own once the server is idle.
    log(`server: idle for ${SETTLE_SECONDS} s`);
    await Bun.sleep(SETTLE_SECONDS * 1000);
    const settledRss = treeRss(pid).rss;
    // What a request pays for reading rows (mapped or not) shows best without queueing behind others.
    log(`server: the same mix at 1 in flight for ${SECONDS} s`);
    const alone = await measureLatencies(SECONDS, 1, call);
    return {
      empty,
      indexed,
      models,
      loaded: after.rss,
      collected,
      settled: settledRss,
      file: after.file,
      files: [emptyRss.file, indexedRss.file, modelsRss.file, after.file],
      searches: run.requests,
      failures: run.failures,
      latencies: { loaded: latenciesByKind(run), alone: latenciesByKind(alone) },
      buildSeconds,
      perSecond: run.perSecond,
      p99: percentile(run.latencies, 99),
      cpuPerAnswer: cpu / run.requests,
    };
  } finally {
    server.proc.kill();
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Has the server's probe run a full collection (heap-probe.ts); its RSS after it and the probe's line. */
async function collectedRss(pid: number, probeFile: string): Promise<{ rss: number; probe: string }> {
  process.kill(pid, "SIGUSR2");
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await Bun.sleep(50)) {
    if (existsSync(probeFile)) {
      const line = readFileSync(probeFile, "utf8").trim();
      if (line.endsWith("}")) return { rss: treeRss(pid).rss, probe: line };
    }
  }
  throw new Error("the server's heap probe did not answer in 30 s");
}

/* ---------------------------------------------------------------- the peer */

async function peerRss(products: Product[], queries: string[]): Promise<number> {
  log("peer: MiniSearch behind node:http");
  return withMiniSearchPeer(products, async (url, pid) => {
    await measureLatencies(Math.min(SECONDS, 5), CONCURRENCY, (i) => ({
      send: () => fetch(`${url}?${new URLSearchParams({ query: queries[i % queries.length]! })}`),
    }));
    return treeRss(pid).rss;
  });
}

/* ---------------------------------------------------------------- the parts, in this process */

let pauseMs = Number.NaN;

/** Milliseconds of one full collection of this process's heap, with every part built: the pause heap settling costs. */
function collectionMs(): number {
  const t = performance.now();
  Bun.gc(true);
  return performance.now() - t;
}

async function parts(products: Product[]): Promise<{ name: string; bytes: number; method: string }[]> {
  const rows: { name: string; bytes: number; method: string }[] = [];
  log("parts: the similarity and look models");
  const similarity = await heldBy(() => {
    const index = new SimilarityIndex();
    for (const p of products) index.put(p);
    return index;
  });
  rows.push({ name: "similarity model", bytes: similarity.bytes, method: "heap measured around the build" });
  const looks = await heldBy(() => {
    const index = new LookIndex();
    for (const p of products) index.put(p);
    index.get("");
    return index;
  });
  rows.push({ name: "look model", bytes: looks.bytes, method: "heap measured around the build" });

  log("parts: the stored shapes cache, filled");
  const shaping = shapingFor("bench", {});
  const cache = await heldBy(() => {
    const kept = new ShapeCache();
    for (const p of products) kept.keep("bench", p.id, shaping.key, 1, shapeJson(p, shaping));
    return kept;
  });
  rows.push({ name: "stored shapes cache (a budget, not per product)", bytes: cache.bytes, method: "heap measured, filled to its budget" });

  // Last: closing it frees what it held, which would come off the next structure's figure.
  log("parts: the embedded engine");
  const engineDir = tempDir("sfs-memory-bench-engine-");
  const engine = new SqliteEngine({ dataDir: engineDir, synchronous: "NORMAL" });
  try {
    const built = await engineHeld(engine, products);
    kept.push(engine);
    const { report } = built;
    let estimated = 0;
    for (const [name, bytes] of Object.entries(report)) {
      rows.push({ name: `engine: ${name}`, bytes, method: "memoryReport() estimate" });
      estimated += bytes;
    }
    rows.push({
      name: "engine: the rest (SQLite connection and statements, estimates' error)",
      bytes: built.bytes - estimated,
      method: "measured heap less the estimates",
    });
    rows.push({ name: "engine: total", bytes: built.bytes, method: "heap measured around the build" });
    pauseMs = collectionMs();
  } finally {
    await engine.close();
    rmSync(engineDir, { recursive: true, force: true });
  }

  return rows;
}

/* ---------------------------------------------------------------- main */

const real = loadDemoCatalog({ dataDir: DATA_DIR, baseUrl: "http://localhost:8080" });
const products = multiplyCatalog(real, SIZE, SEED);
const queries = queryTexts(await querySuggestions());
log(`${products.length.toLocaleString("en")} products (${Math.min(real.length, SIZE).toLocaleString("en")} real)`);

const servers: { label: string; run: Awaited<ReturnType<typeof serverRun>> }[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const setting of ["as started", ...COMPARE_ENV]) {
    const env =
      setting === "as started"
        ? {}
        : Object.fromEntries(setting.split("+").map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
    const label = ROUNDS > 1 ? `${setting} (${round})` : setting;
    log(`server ${label}`);
    servers.push({ label, run: await serverRun(env, products, queries) });
  }
}
const peer = PEER ? await peerRss(products, queries) : null;
const rows = PARTS ? await parts(products) : [];

console.log(`\nMemory benchmark: ${SIZE.toLocaleString("en")} products (seed ${SEED}), ${navigator.hardwareConcurrency} cores\n`);
console.log(
  `| server RSS, MiB (KB per product) | ${servers.map((s) => s.label).join(" | ")} |\n|---|${servers.map(() => "---:").join("|")}|`,
);
const cell = (bytes: number) => `${mib(bytes)} (${kbPer(bytes)})`;
const line = (name: string, of: (r: Awaited<ReturnType<typeof serverRun>>) => number) =>
  console.log(`| ${name} | ${servers.map((s) => cell(of(s.run))).join(" | ")} |`);
line("empty (before indexing)", (r) => r.empty);
line("after indexing", (r) => r.indexed);
line("after the first similar products and looks (their models built)", (r) => r.models);
line(`after the load (${SECONDS} s, ${CONCURRENCY} in flight)`, (r) => r.loaded);
line("of which mapped file pages (SQLite's mmap, the executable)", (r) => r.file);
console.log(
  `| mapped file pages empty / after indexing / the models / the load | ${servers.map((s) => s.run.files.map(mib).join(" / ")).join(" | ")} |`,
);
if (COLLECT_AFTER_LOAD) {
  line("right after a full collection after the load", (r) => r.collected!.rss);
  for (const s of servers) console.log(`| the probe (${s.label}): serving thread's heap, bytes | ${s.run.collected!.probe} |`);
}
line("after the load less the empty server", (r) => r.loaded - r.empty);
line(`after ${SETTLE_SECONDS} s idle after the load`, (r) => r.settled);
console.log(
  `| the first similar products and looks (their models' build), s | ${servers.map((s) => s.run.buildSeconds.toFixed(1)).join(" | ")} |`,
);
for (const [when, of] of [
  [`${CONCURRENCY} in flight (the load)`, (r: Awaited<ReturnType<typeof serverRun>>) => r.latencies.loaded],
  ["1 in flight (after the idle)", (r: Awaited<ReturnType<typeof serverRun>>) => r.latencies.alone],
] as const)
  for (const kind of new Set(MIX_KINDS))
    console.log(
      `| ${kind} p50 / p99 ms, ${when} | ${servers.map((s) => `${percentile(of(s.run).get(kind) ?? [], 50).toFixed(2)} / ${percentile(of(s.run).get(kind) ?? [], 99).toFixed(2)}`).join(" | ")} |`,
    );
console.log(`| answers in the load (failed) | ${servers.map((s) => `${s.run.searches} (${s.run.failures})`).join(" | ")} |`);
console.log(`| the load's answers per second | ${servers.map((s) => s.run.perSecond.toFixed(0)).join(" | ")} |`);
console.log(`| the load's p99, ms | ${servers.map((s) => s.run.p99.toFixed(1)).join(" | ")} |`);
// The server's CPU per answer depends far less than its rate on what else the machine runs meanwhile.
console.log(`| the server's CPU per answer in the load, ms | ${servers.map((s) => s.run.cpuPerAnswer.toFixed(1)).join(" | ")} |`);
if (peer !== null) console.log(`\nMiniSearch peer (node:http) RSS after its load: ${cell(peer)}.`);
if (PARTS) {
  console.log("\n| structure (built alone in the bench process) | MiB | KB per product | method |\n|---|---:|---:|---|");
  for (const r of rows) console.log(`| ${r.name} | ${mib(r.bytes)} | ${kbPer(r.bytes)} | ${r.method} |`);
  console.log(`\nA full collection of this process's heap, every part built: ${pauseMs.toFixed(0)} ms.`);
}
