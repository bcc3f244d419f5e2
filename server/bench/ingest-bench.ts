/*
 * Ingest benchmark (not a test): bulk indexing of the whole converted demo catalog through the public API, and
 * shopper event ingest with durable commits, single and batched. Rates are also printed as ratios to figures
 * measured on the same machine in the same run, so they compare across noisy machines: GET /health requests/s
 * on the same server, and, for indexing, rows/s of a plain SQLite insert of the same product JSON (one table of
 * id and doc, one transaction, the server's synchronous setting).
 *
 * Bulk indexing, per bulk size: a fresh server; bulks are POSTed one after the other (as a store's feed would),
 * then every task is polled until complete; products/s counts from the first POST to the last task complete. The
 * server's CPU time over that span is printed per product, in all and by thread (the main thread serves requests
 * and commits; the worker threads are the indexing thread, which prepares batches, and the log checkpoint
 * thread). "Visible to search" is the time from the last task reported complete to a search for the last
 * product's id finding it (the target is at most 1 s). Each bulk size runs --runs times, each with a plain insert
 * measured just before it: on a shared 2-core machine one run varies by ±15% with the neighbours' load, so the
 * row is the median run, with every run's figure beside it.
 *
 *   npm run bench            (all benchmarks)
 *   bun server/bench/ingest-bench.ts [--limit N] [--seconds S] [--bulks 1000,5000] [--runs 3]
 */
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { DEMO_KEYS, spawnServer, type ChildServer } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { cpuMsOf, measureRate, peakRssMiB, threadCpuMs } from "./load.ts";
import { stringArg } from "./bench-args.ts";

const SECONDS = Number(stringArg("--seconds", "3"));
const LIMIT = Number(stringArg("--limit", "0"));
const BULKS = stringArg("--bulks", "1000,5000").split(",").map(Number);
const RUNS = Math.max(1, Number(stringArg("--runs", "3")));
const GOAL_PER_SECOND = 8000;
const CONCURRENCY = 16;
const SYNCHRONOUS = "FULL";
const VISIBLE_TARGET_MS = 1000;
/**
 * Task polls while a bulk is applied. A feed polls every second or so; every 10 ms, as this bench did, the polls
 * took ~4% of a core on the client and the server, which share the two cores. 25 ms adds at most 25 ms to a run
 * of ~7 s.
 */
const POLL_MS = 25;

const headers = (key: string) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
});
const admin = headers(DEMO_KEYS.DEMO_ADMIN_KEY);
const fmt = (n: number) => Math.round(n).toLocaleString("en");
const rows: [string, string, string, string][] = [];

async function withServer<T>(run: (server: ChildServer) => Promise<T>): Promise<T> {
  const dataDir = tempDir("sfs-bench-");
  const server = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error", DB_SYNCHRONOUS: SYNCHRONOUS });
  try {
    return await run(server);
  } finally {
    server.proc.kill();
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const cpuMs = (pid: number) => cpuMsOf(`/proc/${pid}/stat`);

/** Rows/s of inserting the products' JSON into one id/doc table in one transaction, as a floor for any indexing. */
function plainInsertRate(products: Product[]): number {
  const dir = tempDir("sfs-bench-plain-");
  try {
    const db = new Database(join(dir, "plain.db"), { create: true, strict: true });
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA synchronous = ${SYNCHRONOUS}`);
    db.exec("CREATE TABLE products (id TEXT PRIMARY KEY, doc TEXT NOT NULL)");
    const docs = products.map((p) => JSON.stringify(p));
    const insert = db.query("INSERT INTO products (id, doc) VALUES (?, ?)");
    const started = performance.now();
    db.transaction(() => products.forEach((p, i) => insert.run(p.id, docs[i]!)))();
    const rate = products.length / ((performance.now() - started) / 1000);
    db.close();
    return rate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function waitComplete(url: string, taskId: string): Promise<void> {
  for (;;) {
    const task = (await (await fetch(`${url}/1.9/tasks/${taskId}`, { headers: admin })).json()) as { status: string; message?: string };
    if (task.status === "error") throw new Error(`task ${taskId} failed: ${task.message}`);
    if (task.status === "complete") return;
    await Bun.sleep(POLL_MS);
  }
}

/** Milliseconds until a search for the product's id returns it. */
async function timeToVisible(url: string, productId: string): Promise<number> {
  const started = performance.now();
  const search = `${url}/1.9/search?query=${encodeURIComponent(productId)}&pageSize=1`;
  for (;;) {
    const body = (await (await fetch(search, { headers: headers(DEMO_KEYS.DEMO_SEARCH_KEY) })).json()) as {
      products?: { productId: string }[];
    };
    if (body.products?.[0]?.productId === productId) return performance.now() - started;
    if (performance.now() - started > 30_000) throw new Error(`${productId} not searchable 30 s after its task completed`);
    await Bun.sleep(5);
  }
}

async function bulkIndexing(products: Product[], bulk: number) {
  // Bodies serialised (to UTF-8 bytes) before the clock starts, as a feed's files would be: on two cores, the
  // client's own JSON.stringify would otherwise be counted against the server.
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < products.length; i += bulk) bodies.push(new TextEncoder().encode(JSON.stringify(products.slice(i, i + bulk))));
  return withServer(async ({ url, proc }) => {
    const cpuBefore = cpuMs(proc.pid);
    const threadsBefore = threadCpuMs(proc.pid);
    const started = performance.now();
    const taskIds: string[] = [];
    for (const body of bodies) {
      const res = await fetch(`${url}/1.9/products`, { method: "POST", headers: admin, body });
      if (res.status !== 202) throw new Error(`POST /products answered ${res.status}: ${await res.text()}`);
      taskIds.push(((await res.json()) as { taskId: string }).taskId);
    }
    for (const id of taskIds) await waitComplete(url, id);
    const seconds = (performance.now() - started) / 1000;
    const cpuPerProductUs = ((cpuMs(proc.pid) - cpuBefore) * 1000) / products.length;
    const threads = threadCpuMs(proc.pid);
    const mainUs = ((threads.main - threadsBefore.main) * 1000) / products.length;
    const indexingUs = ((threads.workers - threadsBefore.workers) * 1000) / products.length;
    const visibleMs = await timeToVisible(url, products.at(-1)!.id);
    return { perSecond: products.length / seconds, cpuPerProductUs, mainUs, indexingUs, visibleMs, rssMiB: await peakRssMiB(proc.pid) };
  });
}

const config = loadConfig(process.env);
const catalog = loadDemoCatalog({ dataDir: config.demoCatalog.dir, baseUrl: "http://localhost:8080", limit: LIMIT || undefined });

const health = await withServer(async ({ url }) => {
  const health = await measureRate(SECONDS, CONCURRENCY, () => fetch(url + "/health"));
  rows.push(["baseline GET /health", `${fmt(health.perSecond)} req/s`, "1.00", ""]);
  const event = (i: number) => ({
    type: "Search",
    data: { query: `q${i}`, productIds: ["a", "b"], pageSize: 30 },
    userId: "u1",
    sessionId: "s1",
  });
  const tracking = { method: "POST", headers: headers(DEMO_KEYS.DEMO_ANALYTICS_KEY) };
  const single = await measureRate(SECONDS, CONCURRENCY, (i) =>
    fetch(url + "/1.9/tracking", { ...tracking, body: JSON.stringify(event(i)) }),
  );
  rows.push(["events, 1 per request", `${fmt(single.perSecond)} events/s`, (single.perSecond / health.perSecond).toFixed(2), ""]);
  const BATCH = 50;
  const batched = await measureRate(SECONDS, CONCURRENCY, (i) =>
    fetch(url + "/1.9/tracking", { ...tracking, body: JSON.stringify(Array.from({ length: BATCH }, (_, j) => event(i * BATCH + j))) }),
  );
  rows.push([
    `events, ${BATCH} per request`,
    `${fmt(batched.perSecond * BATCH)} events/s`,
    ((batched.perSecond * BATCH) / health.perSecond).toFixed(2),
    "",
  ]);
  return health.perSecond;
});

const late: string[] = [];
const verdicts: string[] = [];
for (const bulk of BULKS) {
  const runs: { run: Awaited<ReturnType<typeof bulkIndexing>>; plain: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const plain = plainInsertRate(catalog);
    runs.push({ run: await bulkIndexing(catalog, bulk), plain });
  }
  runs.sort((a, b) => a.run.perSecond - b.run.perSecond);
  const { run, plain } = runs[(runs.length - 1) >> 1]!;
  const label = `bulk indexing, ${fmt(catalog.length)} products in bulks of ${fmt(bulk)} (median of ${RUNS})`;
  rows.push([
    `plain SQLite insert of the same products' JSON, before that run`,
    `${fmt(plain)} rows/s`,
    (plain / health).toFixed(2),
    "1.00",
  ]);
  rows.push([label, `${fmt(run.perSecond)} products/s`, (run.perSecond / health).toFixed(2), (run.perSecond / plain).toFixed(3)]);
  rows.push([
    `  every run (products/s, ratio to its plain insert)`,
    runs.map((r) => `${fmt(r.run.perSecond)} (${(r.run.perSecond / r.plain).toFixed(3)})`).join(", "),
    "",
    "",
  ]);
  rows.push([`  server CPU per product`, `${Math.round(run.cpuPerProductUs)} µs`, "", ""]);
  rows.push([`  of which main thread / worker threads`, `${Math.round(run.mainUs)} µs / ${Math.round(run.indexingUs)} µs`, "", ""]);
  rows.push([`  visible to search after its task completed`, `${Math.round(run.visibleMs)} ms`, "", ""]);
  rows.push([`  server peak RSS`, `${run.rssMiB} MiB`, "", ""]);
  const best = runs.at(-1)!.run.perSecond;
  verdicts.push(
    `bulks of ${fmt(bulk)}: median ${fmt(run.perSecond)} products/s, best ${fmt(best)} (goal ≥ ${fmt(GOAL_PER_SECOND)}: ${run.perSecond >= GOAL_PER_SECOND ? "met" : best >= GOAL_PER_SECOND ? "met by the best run only" : "missed"})`,
  );
  for (const { run: r } of runs) if (r.visibleMs > VISIBLE_TARGET_MS) late.push(`bulks of ${bulk}: ${Math.round(r.visibleMs)} ms`);
}

console.log(`\nIngest benchmark (${SECONDS} s per rate, ${CONCURRENCY} requests in flight, DB_SYNCHRONOUS=${SYNCHRONOUS})`);
console.log("| measure | rate | ratio to /health | ratio to plain insert |\n|---|---|---|---|");
for (const [a, b, c, d] of rows) console.log(`| ${a} | ${b} | ${c} | ${d} |`);
console.log(`\n${verdicts.map((v) => `- ${v}`).join("\n")}`);
if (late.length) {
  console.log(`\nThe last product was searchable later than ${VISIBLE_TARGET_MS} ms after its task completed: ${late.join("; ")}`);
  process.exit(1);
}
