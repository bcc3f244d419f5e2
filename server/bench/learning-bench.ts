/*
 * Learning benchmark (not a test): what 1 million shopper events cost search once the store has learnt from them.
 * Two stores hold the same demo products in one server. One gets 30 days of events (simulated-shoppers.ts: about
 * 125,000 sessions of 25,000 signed-in shoppers, over this bench's query mix and the products each query really
 * shows), written to the events store and counted by the real analytics worker with the consumers the events thread
 * runs (report counter, behaviour learner, experiment counter), so ranking evidence and shopper affinities are
 * populated. The other gets none. Then the real server, started on that data, answers GET /search one at a time
 * over the query mix, alternating between the stores request by request, every search carrying the userId of a
 * shopper with history (personalisation applies in the store with events): p50 and p99 per store, and the ratio
 * (goal: p99 with events <= 1.2x without). A third side in the same rotation searches the store with events
 * anonymously (behaviour ranking alone), to tell what of the difference is personalisation's.
 *
 *   bun server/bench/learning-bench.ts [--products 20000] [--events 1000000] [--queries 100] [--seconds 10] [--rounds 3]
 */
import { rmSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { createLogger } from "../src/log.ts";
import { AnalyticsWorker } from "../src/modules/analytics/analytics-worker.ts";
import { ReportCounter } from "../src/modules/analytics/report-counter.ts";
import { SqliteAnalyticsStateRepo } from "../src/modules/analytics/storage/analytics-state.sqlite.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";
import { ExperimentCounter } from "../src/modules/experiments/experiment-counter.ts";
import { SqliteExperimentsRepo } from "../src/modules/experiments/storage/experiments.sqlite.ts";
import { BehaviourLearner } from "../src/modules/ranking/behaviour-learner.ts";
import { ProductFacts } from "../src/modules/ranking/product-facts.ts";
import { StoreAdmin, type StoreKeys } from "../src/modules/stores/store-admin.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { demoDataDir } from "../eval/catalog.ts";
import { realQueryLog } from "../eval/judgments.ts";
import { spawnDrainedServer, type ChildServer } from "../test/support/child-server.ts";
import { demoProducts } from "../test/support/demo-products.ts";
import { indexOver } from "../test/support/indexed-child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { numberArg } from "./bench-args.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, percentile, summarize, type LatencySummary } from "./latency-load.ts";
import { appendSimulated, DAY_MS, type Listing } from "./simulated-shoppers.ts";

const PRODUCTS = numberArg("--products", 20_000);
const EVENTS = numberArg("--events", 1_000_000);
const QUERIES = numberArg("--queries", 100);
const SECONDS = numberArg("--seconds", 10);
const ROUNDS = numberArg("--rounds", 3);
const USERS = 25_000;
/** Shoppers with history whose userIds the measured searches carry. */
const SEARCHING_SHOPPERS = 1_000;
const PAGE_SIZE = 30;
const NOW = Date.now();
const LEARNT = "learnt-store";
const PLAIN = "plain-store";

const dir = tempDir("sfs-learning-bench-");
const serviceDb = join(dir, "service.db");

/** Both stores created before the events' 30 days, with their keys. */
async function createStores(): Promise<Record<string, StoreKeys>> {
  const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
  try {
    const admin = new StoreAdmin(new SqliteStoresRepo(db), () => NOW - 40 * DAY_MS);
    return { [LEARNT]: (await admin.create(LEARNT))!, [PLAIN]: (await admin.create(PLAIN))! };
  } finally {
    db.close();
  }
}

const headersOf = (keys: Record<string, StoreKeys>, store: string, kind: keyof StoreKeys) => ({
  "x-service-store-id": store,
  "x-service-api-key": keys[store]![kind],
});

async function firstPage(server: ChildServer, headers: Record<string, string>, params: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${server.url}/1.9/search?${new URLSearchParams({ pageSize: String(PAGE_SIZE), ...params })}`, { headers });
  if (!res.ok) throw new Error(`GET /search answered ${res.status}`);
  return ((await res.json()) as { products: { productId: string }[] }).products.map((p) => p.productId);
}

/** Counts the events as the events thread does; answers events counted a second. */
async function learn(db: Database, events: SqliteEventsRepo): Promise<number> {
  const state = new SqliteAnalyticsStateRepo(db);
  const worker = new AnalyticsWorker(
    state,
    events,
    [
      new ReportCounter(),
      new BehaviourLearner(state, new ProductFacts(new SqliteCatalogRepo(db)), () => NOW),
      new ExperimentCounter(new SqliteExperimentsRepo(db)),
    ],
    createLogger("silent"),
  );
  const started = performance.now();
  let counted = 0;
  for (let n: number; (n = await worker.catchUp(100_000)) > 0; ) counted += n;
  return counted / ((performance.now() - started) / 1000);
}

const count = (db: Database, sql: string) => (db.query(sql).get(LEARNT) as { n: number }).n;
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
const line = (s: LatencySummary) => `p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms (n=${s.n})`;

const keys = await createStores();
const products = demoProducts(PRODUCTS);
let server = await spawnDrainedServer({ DATA_DIR: dir, LOG_LEVEL: "error" }, 60_000);
let listings: Listing[];
try {
  console.error(`[learning-bench] indexing ${PRODUCTS.toLocaleString("en")} demo products into both stores`);
  for (const store of [LEARNT, PLAIN]) await indexOver(server.url, headersOf(keys, store, "admin"), products);
  // Both stores keep the catalog as indexed: enrichment's work would land on one side of the comparison only.
  holdEnrichment(serviceDb, NOW + 3_600_000);
  const learntSearch = headersOf(keys, LEARNT, "search");
  listings = [];
  for (const { query } of realQueryLog(demoDataDir())) {
    if (listings.length === QUERIES) break;
    const productIds = await firstPage(server, learntSearch, { query });
    if (productIds.length > 0 && !listings.some((l) => l.query === query)) listings.push({ query, productIds });
  }
} finally {
  server.proc.kill();
  await server.proc.exited;
}

const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
const events = new SqliteEventsRepo(db);
const t = performance.now();
const written = appendSimulated(events, LEARNT, { events: EVENTS, now: NOW, users: USERS, listings });
console.log(
  `wrote ${written.toLocaleString("en")} events over ${listings.length} queries in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
const perSecond = await learn(db, events);
const evidenceRows = count(db, "SELECT COUNT(*) AS n FROM behaviour_scores WHERE store_id = ?");
const affinityShoppers = count(db, "SELECT COUNT(DISTINCT shopper) AS n FROM shopper_affinities WHERE store_id = ?");
const shoppers = (
  db
    .query("SELECT DISTINCT shopper FROM shopper_affinities WHERE store_id = ? AND shopper LIKE 'u:%' ORDER BY shopper LIMIT ?")
    .all(LEARNT, SEARCHING_SHOPPERS) as { shopper: string }[]
).map((r) => r.shopper.slice(2));
db.close();
console.log(
  `analytics worker: ${Math.round(perSecond).toLocaleString("en")} events/s; ${evidenceRows.toLocaleString("en")} evidence rows, affinities of ${affinityShoppers.toLocaleString("en")} shoppers (users and sessions)`,
);

server = await spawnDrainedServer({ DATA_DIR: dir, LOG_LEVEL: "error" }, 60_000);
try {
  const search = (headers: Record<string, string>, p: Record<string, string>) =>
    fetch(`${server.url}/1.9/search?${new URLSearchParams({ ...p, pageSize: String(PAGE_SIZE) })}`, { headers });
  const params = (i: number) => ({ query: listings[i % listings.length]!.query, userId: shoppers[i % shoppers.length]! });
  // The sides measured in turn, request by request. The anonymous one (behaviour ranking alone) shows what of the
  // difference personalisation's reads cost.
  const SIDES = [
    { name: "with events, as the shopper", headers: headersOf(keys, LEARNT, "search"), anonymous: false },
    { name: "with events, anonymous", headers: headersOf(keys, LEARNT, "search"), anonymous: true },
    { name: "without events", headers: headersOf(keys, PLAIN, "search"), anonymous: false },
  ];
  const sideParams = (side: (typeof SIDES)[number], i: number) => (side.anonymous ? { query: params(i).query } : params(i));
  // Every query once per side: the server's statements prepared and the engine's pages read before the clock.
  for (let i = 0; i < listings.length; i++) for (const side of SIDES) await (await search(side.headers, sideParams(side, i))).arrayBuffer();

  // That the searches measured do read what was learnt: the explained first page of one of them.
  const explained = (
    (await (await search(headersOf(keys, LEARNT, "admin"), { ...params(0), explain: "true" })).json()) as {
      explain: { products: { reranking?: { behaviour: { boost: number }; personalisation: { boost: number } } }[] };
    }
  ).explain.products;
  const moved = (part: "behaviour" | "personalisation") => explained.filter((p) => (p.reranking?.[part].boost ?? 0) > 0).length;
  console.log(
    `"${params(0).query}" as ${params(0).userId}: ${moved("behaviour")} of ${explained.length} results with a behaviour boost, ${moved("personalisation")} with a personal one`,
  );

  const samples = new Map(SIDES.map((side) => [side.name, [] as number[]]));
  console.log(`\nmachine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Bun ${Bun.version}`);
  console.log(`round | ${SIDES.map((side) => `${side.name} (p50 / p99 ms)`).join(" | ")} | p99 ratio`);
  for (let round = 1; round <= ROUNDS; round++) {
    const run = await measureLatencies(SECONDS, 1, (i) => {
      const side = SIDES[i % SIDES.length]!;
      const p = sideParams(side, Math.floor(i / SIDES.length));
      return { label: side.name, send: () => search(side.headers, p) };
    });
    if (run.failures) throw new Error(`${run.failures} searches failed`);
    const of = (name: string) => run.latencies.filter((_, i) => run.labels[i] === name);
    for (const [name, list] of samples) list.push(...of(name));
    const figures = SIDES.map((side) => of(side.name));
    console.log(
      `${String(round).padStart(5)} | ${figures.map((f) => `${ms(percentile(f, 50))} / ${ms(percentile(f, 99))}`).join(" | ")} | ${(percentile(figures[0]!, 99) / percentile(figures[2]!, 99)).toFixed(2)}`,
    );
  }
  const [learnt, anonymous, plain] = SIDES.map((side) => summarize(samples.get(side.name)!));
  const ratio = learnt!.p99 / plain!.p99;
  console.log(`\nwith ${written.toLocaleString("en")} events, as the shopper: ${line(learnt!)}`);
  console.log(`with them, anonymous (behaviour alone): ${line(anonymous!)}`);
  console.log(`without events: ${line(plain!)}`);
  console.log(
    `as the shopper against without: p50 ratio ${(learnt!.p50 / plain!.p50).toFixed(2)}, p99 ratio ${ratio.toFixed(2)} (goal <= 1.2: ${ratio <= 1.2 ? "met" : "NOT met"}); anonymous: p50 ${(anonymous!.p50 / plain!.p50).toFixed(2)}, p99 ${(anonymous!.p99 / plain!.p99).toFixed(2)}`,
  );
} finally {
  server.proc.kill();
  await server.proc.exited;
  rmSync(dir, { recursive: true, force: true });
}
