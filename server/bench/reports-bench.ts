/*
 * Reports benchmark (not a test): 1 million shopper events over 30 days, in arrival order (searches, page
 * changes, clicks, carts, orders, recommendation events; 40,000 session ids, 5,000 queries with a Zipf-like popularity, 3 regions, 2
 * languages, 2 currencies) are written to a fresh database and counted by the real analytics worker (events/s);
 * then the real server is started on that data and every report is requested over HTTP with its default range
 * (7 days), a 30-day range and a region filter: p50 and p95 per report (goal: p95 <= 200 ms).
 *
 * Baseline, measured in the same run on the same database: one scan of the raw events of the same 30 days (what a
 * report would cost if it read events instead of aggregates), and GET /health over HTTP. The ratios hold on a
 * noisy machine.
 *
 *   bun server/bench/reports-bench.ts [--events 1000000] [--runs 30]
 */
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import { Database } from "bun:sqlite";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { createLogger } from "../src/log.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { BehaviourLearner } from "../src/modules/ranking/behaviour-learner.ts";
import { ProductFacts } from "../src/modules/ranking/product-facts.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { DEMO_KEYS, spawnServer } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { numberArg } from "./bench-args.ts";
import { appendSimulated, DAY_MS } from "./simulated-shoppers.ts";
import { percentile, timedGet } from "./latency-load.ts";

const EVENTS = numberArg("--events", 1_000_000);
const RUNS = numberArg("--runs", 30);
const NOW = Date.now();
const STORE = DEMO_KEYS.DEMO_STORE_ID;

const dir = tempDir("sfs-reports-bench-");
const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
await new SqliteStoresRepo(db).create(STORE, NOW - 40 * DAY_MS);
const events = new SqliteEventsRepo(db);
let t = performance.now();
const written = appendSimulated(events, STORE, { events: EVENTS, now: NOW, users: 25_000 });
console.log(`wrote ${written.toLocaleString("en")} events in ${((performance.now() - t) / 1000).toFixed(1)} s`);

t = performance.now();
const analyticsState = new SqliteAnalyticsStateRepo(db);
const worker = new AnalyticsWorker(
  analyticsState,
  events,
  [new ReportCounter(), new BehaviourLearner(analyticsState, new ProductFacts(new SqliteCatalogRepo(db)), () => NOW)],
  createLogger("silent"),
);
let counted = 0;
for (let n: number; (n = await worker.catchUp(100_000)) > 0; ) counted += n;
const countSeconds = (performance.now() - t) / 1000;
console.log(
  `analytics worker: ${counted.toLocaleString("en")} events counted in ${countSeconds.toFixed(1)} s = ${Math.round(counted / countSeconds).toLocaleString("en")} events/s`,
);

// Baseline: what reading the raw events of 30 days costs, once.
const raw = new Database(`${dir}/service.db`, { readonly: true });
t = performance.now();
raw.query("SELECT type, COUNT(*) FROM events WHERE store_id = ? AND received_at >= ? GROUP BY type").all(STORE, NOW - 30 * DAY_MS);
const rawScanMs = performance.now() - t;
raw.close();
db.close();

const server = await spawnServer({ DATA_DIR: dir, ...DEMO_KEYS, LOG_LEVEL: "silent" }, 60_000);
const headers = { "x-service-store-id": STORE, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const REPORTS = [
  "overview",
  "searches",
  "searches?filter=no-results",
  "searches?filter=no-clicks",
  "products",
  "click-positions",
  "recommendations",
  "preprod",
];
const VARIANTS: [string, string][] = [
  ["7 days", ""],
  ["30 days", `from=${day(NOW - 29 * DAY_MS)}&to=${day(NOW)}`],
  ["30 days, region", `from=${day(NOW - 29 * DAY_MS)}&to=${day(NOW)}&region=FR`],
];

const timed = (path: string) => timedGet(server.url + path, headers);

try {
  const health: number[] = [];
  for (let i = 0; i < RUNS; i++) health.push(await timed("/health"));
  const healthP50 = percentile(health, 50);
  console.log(`\nbaseline: raw scan of 30 days of events ${rawScanMs.toFixed(0)} ms; GET /health p50 ${healthP50.toFixed(2)} ms\n`);
  console.log("report                         | range            |  p50 ms |  p95 ms | p95 / raw scan | verdict (p95 <= 200 ms)");
  let worst = 0;
  for (const report of REPORTS) {
    for (const [label, params] of VARIANTS) {
      const path = `/1.9/reports/${report}${report.includes("?") ? (params ? "&" : "") : params ? "?" : ""}${params}`;
      await timed(path); // first request: the server's statements are prepared
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await timed(path));
      const p95 = percentile(times, 95);
      worst = Math.max(worst, p95);
      console.log(
        `${report.padEnd(30)} | ${label.padEnd(16)} | ${percentile(times, 50).toFixed(1).padStart(7)} | ${p95.toFixed(1).padStart(7)} | ${(p95 / rawScanMs).toFixed(2).padStart(14)} | ${p95 <= 200 ? "met" : "NOT MET"}`,
      );
    }
  }
  console.log(
    `\nworst p95 ${worst.toFixed(1)} ms over ${REPORTS.length * VARIANTS.length} report requests x ${RUNS} runs: ${worst <= 200 ? "goal met" : "goal NOT met"}`,
  );
} finally {
  server.proc.kill();
  await server.proc.exited;
}
