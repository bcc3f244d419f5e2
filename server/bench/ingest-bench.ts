/*
 * Ingest benchmark (not a test): bulk indexing of the whole converted demo catalog, and shopper event ingest
 * with durable commits, single and batched. Every rate is also printed as a ratio to GET /health requests/s
 * measured on the same server in the same run, so the figures compare across noisy machines.
 *
 *   npm run bench            (all benchmarks)   bun server/bench/ingest-bench.ts [--limit N] [--seconds S]
 */
import { rmSync } from "node:fs";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { DEMO_KEYS, spawnServer } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { measureRate, peakRssMiB } from "./load.ts";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const SECONDS = arg("--seconds", 3);
const LIMIT = arg("--limit", 0);
const CONCURRENCY = 16;

const dataDir = tempDir("sfs-bench-");
const server = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error" });
const headers = (key: string) => ({ "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": key, "content-type": "application/json" });
const rows: [string, string, string][] = [];
const fmt = (n: number) => Math.round(n).toLocaleString("en");

try {
  const health = await measureRate(SECONDS, CONCURRENCY, () => fetch(server.url + "/health"));
  rows.push(["baseline GET /health", `${fmt(health.perSecond)} req/s`, "1.00"]);

  const event = (i: number) => ({ type: "Search", data: { query: `q${i}`, productIds: ["a", "b"], pageSize: 30 }, userId: "u1", sessionId: "s1" });
  const single = await measureRate(SECONDS, CONCURRENCY, (i) =>
    fetch(server.url + "/1.9/tracking", { method: "POST", headers: headers(DEMO_KEYS.DEMO_ANALYTICS_KEY), body: JSON.stringify(event(i)) }),
  );
  rows.push(["events, 1 per request", `${fmt(single.perSecond)} events/s`, (single.perSecond / health.perSecond).toFixed(2)]);
  const BATCH = 50;
  const batched = await measureRate(SECONDS, CONCURRENCY, (i) =>
    fetch(server.url + "/1.9/tracking", {
      method: "POST",
      headers: headers(DEMO_KEYS.DEMO_ANALYTICS_KEY),
      body: JSON.stringify(Array.from({ length: BATCH }, (_, j) => event(i * BATCH + j))),
    }),
  );
  rows.push([`events, ${BATCH} per request`, `${fmt(batched.perSecond * BATCH)} events/s`, ((batched.perSecond * BATCH) / health.perSecond).toFixed(2)]);

  const config = loadConfig({});
  const catalog = loadDemoCatalog({ dataDir: config.demoCatalog.dir, baseUrl: server.url, limit: LIMIT || undefined });
  const started = performance.now();
  const taskIds: string[] = [];
  for (let i = 0; i < catalog.length; i += 1000) {
    const res = await fetch(server.url + "/1.9/products", {
      method: "POST",
      headers: headers(DEMO_KEYS.DEMO_ADMIN_KEY),
      body: JSON.stringify(catalog.slice(i, i + 1000)),
    });
    taskIds.push(((await res.json()) as { taskId: string }).taskId);
  }
  for (const id of taskIds) {
    for (;;) {
      const task = (await (await fetch(server.url + `/1.9/tasks/${id}`, { headers: headers(DEMO_KEYS.DEMO_ADMIN_KEY) })).json()) as { status: string };
      if (task.status === "error") throw new Error(`task ${id} failed`);
      if (task.status === "complete") break;
      await Bun.sleep(20);
    }
  }
  const perSecond = catalog.length / ((performance.now() - started) / 1000);
  rows.push([`bulk indexing, ${fmt(catalog.length)} products`, `${fmt(perSecond)} products/s`, (perSecond / health.perSecond).toFixed(2)]);
  rows.push(["server peak RSS", `${await peakRssMiB(server.proc.pid)} MiB`, ""]);
} finally {
  server.proc.kill();
  await server.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nIngest benchmark (${SECONDS} s per rate, ${CONCURRENCY} requests in flight, DB_SYNCHRONOUS=FULL)`);
console.log("| measure | rate | ratio to /health |\n|---|---|---|");
for (const [a, b, c] of rows) console.log(`| ${a} | ${b} | ${c} |`);
