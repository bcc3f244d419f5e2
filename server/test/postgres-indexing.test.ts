import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migratePostgres, openPostgres, type Sql } from "../src/platform/postgres/connection.ts";
import { PostgresCatalogRepo } from "../src/modules/catalog/storage/catalog.postgres.ts";
import { PostgresEnrichmentRepo } from "../src/modules/enrichment/storage/enrichment.postgres.ts";
import { PostgresStoresRepo } from "../src/modules/stores/storage/stores.postgres.ts";
import { PostgresTasksRepo } from "../src/modules/indexing/storage/tasks.postgres.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { createLogger } from "../src/log.ts";
import { IndexingService } from "../src/modules/indexing/indexing-service.ts";
import { IndexingWorker } from "../src/modules/indexing/indexing-worker.ts";
import { enqueueProducts, product } from "./support/fixtures.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The indexing pipeline on PostgreSQL state: tasks acknowledged into PostgreSQL are prepared by the indexing
 * thread reading payloads and ranking inputs through its own PostgreSQL connection, and committed there; two
 * workers (two replicas) share the queue, one store each at a time.
 */

let cluster: PostgresCluster;
let sql: Sql;
let url: string;
const dir = tempDir("sfs-pg-indexing-");
const engine = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
beforeAll(async () => {
  cluster = await startPostgresCluster();
  url = await cluster.createDatabase();
  sql = openPostgres(url);
  await migratePostgres(sql);
}, 60_000);
afterAll(async () => {
  await sql?.end();
  await cluster?.stop();
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

test("bulks acknowledged into PostgreSQL are applied by two workers, each product once, with its purchases ranked from PostgreSQL", async () => {
  const stores = new PostgresStoresRepo(sql);
  await stores.create("s1", 1);
  await stores.create("s2", 1);
  // As event ingest counts purchases (postgres/event-ingest.ts).
  await sql`INSERT INTO product_signals (store_id, product_id, purchases) VALUES ('s1', 's1-p7', 3)`;
  const tasks = new PostgresTasksRepo(sql);
  const catalog = new PostgresCatalogRepo(sql);
  const indexing = new IndexingService(tasks, catalog, Date.now, () => {});
  const worker = () =>
    new IndexingWorker({
      state: { kind: "postgres", url },
      tasks,
      catalog,
      engine,
      now: Date.now,
      log: createLogger("silent"),
      batchSize: 50,
    });
  const workers = [worker(), worker()];
  const ids = [];
  for (const storeId of ["s1", "s2"])
    ids.push([
      storeId,
      await enqueueProducts(
        indexing,
        storeId,
        Array.from({ length: 120 }, (_, i) => product(`${storeId}-p${i}`)),
      ),
    ] as const);
  ids.push(["s1", await enqueueProducts(indexing, "s1", [product("s1-p0", { name: "Renamed" })])] as const);
  for (let round = 0; round < 20 && (await tasks.pendingItemCount()) > 0; round++) await Promise.all(workers.map((w) => w.runOnce()));
  for (const [storeId, id] of ids) expect((await indexing.task(storeId, id)).status).toBe("complete");
  expect(await engine.count("s1")).toBe(120);
  expect(await engine.count("s2")).toBe(120);
  expect((await catalog.get("s1", "s1-p0"))?.version).toBe(2);
  expect((await catalog.get("s2", "s2-p119"))?.version).toBe(1);
  expect(await new PostgresEnrichmentRepo(sql).pendingCount()).toBe(240);
  const top = await engine.search("s1", {
    text: "",
    matching: { typos: false, prefixLast: false },
    filters: [],
    facets: [],
    rangeFacets: [],
    sort: [{ kind: "number", field: "purchases", order: "desc" }],
    offset: 0,
    limit: 1,
  });
  expect(top.hits[0]?.id).toBe("s1-p7");
  await Promise.all(workers.map((w) => w.stop()));
}, 60_000);
