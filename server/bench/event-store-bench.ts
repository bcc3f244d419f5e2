/*
 * Event store benchmark (not a test): shopper event ingest on PostgreSQL against the embedded SQLite database,
 * same machine, same run (issue 17: PostgreSQL at >= 50% of the SQLite figure). Both with their durability
 * promise: an event counts once its commit returned, SQLite with synchronous=FULL (the server default),
 * PostgreSQL as a throwaway cluster with fsync and synchronous commits on (its defaults). Both through the
 * service's own path below HTTP: TrackingService's GroupCommit batching what arrives while a commit runs, and the
 * backend's EventIngest (events, look clicks, orders in one transaction). HTTP is the same for both and left out.
 *
 * The mix is a shop's: searches, product views and clicks, a look click in 20 and an order in 50. Rounds alternate
 * the backends so that drift of the machine falls on both; each figure is its median round.
 *
 *   bun server/bench/event-store-bench.ts [--seconds 3] [--rounds 3] [--concurrency 16] [--batch 1]
 */
import { rmSync } from "node:fs";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteEventIngest } from "../src/modules/tracking/storage/event-ingest.sqlite.ts";
import type { EventIngest } from "../src/modules/tracking/storage/event-ingest-repository.ts";
import type { NewEvent } from "../src/modules/events/storage/events-repository.ts";
import { GroupCommit } from "../src/platform/group-commit.ts";
import { migratePostgres, openPostgres } from "../src/platform/postgres/connection.ts";
import { PostgresEventIngest } from "../src/modules/tracking/storage/event-ingest.postgres.ts";
import { PostgresStoresRepo } from "../src/modules/stores/storage/stores.postgres.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { effectsOf } from "../src/modules/tracking/event-effects.ts";
import { startPostgresCluster } from "../test/support/postgres-cluster.ts";
import { tempDir } from "../test/support/test-server.ts";
import { numberArg } from "./bench-args.ts";

const SECONDS = numberArg("--seconds", 3);
const ROUNDS = numberArg("--rounds", 3);
const CONCURRENCY = numberArg("--concurrency", 16);
const BATCH = numberArg("--batch", 1);
const GOAL = 0.5;
const STORE = "bench";

function event(i: number): NewEvent {
  const session = `s${i % 500}`;
  const base = { storeId: STORE, userId: i % 3 ? `u${i % 300}` : null, sessionId: session, apiVersion: "1.9", receivedAt: Date.now() };
  if (i % 50 === 0)
    return {
      ...base,
      type: "Purchase",
      data: {
        orderId: `o${i}`,
        products: [
          { id: `p${i % 97}`, price: 20 },
          { id: `p${i % 89}`, price: 35 },
        ],
      },
    };
  if (i % 20 === 0)
    return { ...base, type: "CTLProductClick", data: { baseProductId: `p${i % 97}`, selectedProduct: { productId: `p${i % 71}` } } };
  const type = ["Search", "ProductView", "ProductClick"][i % 3]!;
  return { ...base, type, data: { query: `query ${i % 400}`, productIds: [`p${i % 97}`, `p${i % 89}`], position: i % 30 } };
}

/** Events/s with CONCURRENCY writers each awaiting its commit before sending the next. */
async function rate(ingest: EventIngest): Promise<number> {
  const writer = new GroupCommit<NewEvent>(async (batch) => void (await ingest.commit(batch, effectsOf(batch))));
  let i = 0;
  let events = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < until) {
        const batch = Array.from({ length: BATCH }, () => event(i++));
        await writer.add(batch);
        events += batch.length;
      }
    }),
  );
  return events / ((performance.now() - started) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

const dir = tempDir("sfs-event-bench-");
const db = openServiceDatabase(dir, { synchronous: "FULL" });
await new SqliteStoresRepo(db).create(STORE, Date.now());
const cluster = await startPostgresCluster({ durable: true });
const sql = openPostgres(await cluster.createDatabase());
try {
  await migratePostgres(sql);
  await new PostgresStoresRepo(sql).create(STORE, Date.now());
  const backends: [string, EventIngest][] = [
    ["SQLite (synchronous=FULL)", new SqliteEventIngest(db)],
    ["PostgreSQL (fsync, synchronous_commit on)", new PostgresEventIngest(sql)],
  ];
  const rates = backends.map(() => [] as number[]);
  for (const [, ingest] of backends) await rate(ingest); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    for (const [b, [name, ingest]] of backends.entries()) {
      rates[b]!.push(await rate(ingest));
      console.error(`round ${round + 1}/${ROUNDS}: ${name} ${fmt(rates[b]!.at(-1)!)} events/s`);
    }
  }
  const sqlite = median(rates[0]!);
  console.log(`\nEvent ingest, ${CONCURRENCY} writers, ${BATCH} event(s) per write, median of ${ROUNDS} rounds of ${SECONDS} s\n`);
  console.log("| store | events/s | ratio to SQLite |\n|---|---|---|");
  for (const [b, [name]] of backends.entries()) {
    const r = median(rates[b]!);
    const verdict = b === 0 ? "1.00" : `${(r / sqlite).toFixed(2)} (goal ≥ ${GOAL}: ${r / sqlite >= GOAL ? "met" : "**missed**"})`;
    console.log(`| ${name} | ${fmt(r)} | ${verdict} |`);
  }
} finally {
  await sql.end();
  await cluster.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
