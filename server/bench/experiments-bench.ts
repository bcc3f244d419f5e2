/*
 * Experiments benchmark (not a test): an A/B test on all searches runs through 30 days of 1 million shopper
 * events (simulated-shoppers.ts, every session a shopper of its own, so about 125,000 shoppers), written to a fresh
 * database and counted by the real analytics worker with the consumers the events thread runs for them (the report
 * counter, then the experiments' per-shopper counters); then the real server is started on that data and
 * GET /experiments/{id}/results is requested over HTTP: p50 and p95 (goal: p95 <= 200 ms).
 *
 * Beside it, in the same run on the same data: the plain reports over the same 30 days (GET /reports/overview and
 * /reports/searches), whose aggregates are kept per day rather than per shopper, and GET /health.
 *
 *   bun server/bench/experiments-bench.ts [--events 1000000] [--runs 30]
 */
import { rmSync } from "node:fs";
import { cpus } from "node:os";
import { createLogger } from "../src/log.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import { ExperimentCounter } from "../src/modules/experiments/experiment-counter.ts";
import type { ExperimentBody } from "../src/modules/experiments/experiment-schema.ts";
import { SqliteExperimentsRepo } from "../src/modules/experiments/storage/experiments.sqlite.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { DEMO_KEYS, spawnServer } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { numberArg } from "./bench-args.ts";
import { percentile, timedGet } from "./latency-load.ts";
import { appendSimulated, DAY_MS } from "./simulated-shoppers.ts";

const EVENTS = numberArg("--events", 1_000_000);
const RUNS = numberArg("--runs", 30);
const NOW = Date.now();
const STORE = DEMO_KEYS.DEMO_STORE_ID;
const EXPERIMENT = "exp_00000000000000000000000000be7c40";

const dir = tempDir("sfs-experiments-bench-");
const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
await new SqliteStoresRepo(db).create(STORE, NOW - 40 * DAY_MS);
const experiments = new SqliteExperimentsRepo(db);
const body: ExperimentBody = {
  name: "bench: behaviour ranking off",
  scope: { type: "all" },
  mode: "ab",
  variants: [
    { name: "control", share: 50 },
    { name: "plain", share: 50, overrides: { settings: { behaviourRanking: false } } },
  ],
};
// Started before the first event, so every event of the 30 days counts.
const started = NOW - 31 * DAY_MS;
await experiments.change(STORE, () => ({
  write: {
    put: {
      id: EXPERIMENT,
      body: JSON.stringify(body),
      status: "running",
      winner: null,
      createdAt: started,
      updatedAt: started,
      startedAt: started,
      endedAt: null,
    },
  },
  result: null,
}));

const events = new SqliteEventsRepo(db);
let t = performance.now();
const written = appendSimulated(events, STORE, { events: EVENTS, now: NOW, users: null });
console.log(`wrote ${written.toLocaleString("en")} events in ${((performance.now() - t) / 1000).toFixed(1)} s`);

t = performance.now();
const worker = new AnalyticsWorker(
  new SqliteAnalyticsStateRepo(db),
  events,
  [new ReportCounter(), new ExperimentCounter(experiments)],
  createLogger("silent"),
);
let counted = 0;
for (let n: number; (n = await worker.catchUp(100_000)) > 0; ) counted += n;
const countSeconds = (performance.now() - t) / 1000;
const rows = (await experiments.shoppers(STORE, EXPERIMENT)).length;
console.log(
  `analytics worker (reports and experiment counters): ${counted.toLocaleString("en")} events in ${countSeconds.toFixed(1)} s = ${Math.round(counted / countSeconds).toLocaleString("en")} events/s; ${rows.toLocaleString("en")} shopper rows`,
);
db.close();

const server = await spawnServer({ DATA_DIR: dir, ...DEMO_KEYS, LOG_LEVEL: "silent" }, 60_000);
const headers = { "x-service-store-id": STORE, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const month = `from=${day(NOW - 29 * DAY_MS)}&to=${day(NOW)}`;

const timed = (path: string) => timedGet(server.url + path, headers);

/** p50 and p95 of `RUNS` requests, after one that prepares the server's statements. */
async function measure(path: string): Promise<{ p50: number; p95: number }> {
  await timed(path);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(path));
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

try {
  const answer = (await (await fetch(`${server.url}/1.9/experiments/${EXPERIMENT}/results`, { headers })).json()) as {
    variants: { name: string; shoppers: number; searches: number }[];
    excluded: { bots: number; tooManyEvents: number; emptySearches: number };
  };
  console.log(
    `results: ${answer.variants.map((v) => `${v.name} ${v.shoppers.toLocaleString("en")} shoppers, ${v.searches.toLocaleString("en")} searches`).join("; ")}; excluded ${JSON.stringify(answer.excluded)}`,
  );
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Bun ${Bun.version}\n`);
  console.log("request                                  |  p50 ms |  p95 ms | verdict (p95 <= 200 ms)");
  const lines: [string, string][] = [
    ["GET /experiments/{id}/results", `/1.9/experiments/${EXPERIMENT}/results`],
    ["GET /reports/overview (30 days)", `/1.9/reports/overview?${month}`],
    ["GET /reports/searches (30 days)", `/1.9/reports/searches?${month}`],
    ["GET /health", "/health"],
  ];
  for (const [label, path] of lines) {
    const { p50, p95 } = await measure(path);
    console.log(`${label.padEnd(40)} | ${p50.toFixed(1).padStart(7)} | ${p95.toFixed(1).padStart(7)} | ${p95 <= 200 ? "met" : "NOT MET"}`);
  }
} finally {
  server.proc.kill();
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}
