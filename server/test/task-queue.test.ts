import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { migrate, openDatabase } from "../src/platform/sqlite/connection.ts";
import { MIGRATIONS } from "../src/platform/sqlite/schema.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { createLogger } from "../src/log.ts";
import { IndexingService } from "../src/modules/indexing/indexing-service.ts";
import { IndexingWorker } from "../src/modules/indexing/indexing-worker.ts";
import { enqueueProducts, product } from "./support/fixtures.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * Task payloads live in their own table (a progress update must not rewrite a bulk's payload): tasks acknowledged
 * before the upgrade keep theirs, and a payload is dropped when its task ends.
 */

let dir: string;
let db: Database;
let engine: SqliteEngine;
beforeEach(() => {
  dir = tempDir();
});
afterEach(async () => {
  await engine.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function parts(database: Database) {
  const stores = new SqliteStoresRepo(database);
  const tasks = new SqliteTasksRepo(database);
  const catalog = new SqliteCatalogRepo(database);
  engine = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
  const worker = new IndexingWorker({
    state: { kind: "sqlite", path: database.filename },
    tasks,
    catalog,
    engine,
    now: Date.now,
    log: createLogger("silent"),
  });
  return { stores, tasks, worker, indexing: new IndexingService(tasks, catalog, Date.now, () => {}) };
}

const payloadRows = () => (db.query("SELECT count(*) AS n FROM task_payloads").get() as { n: number }).n;

test("a task pending before the upgrade keeps its payload and is applied after it", async () => {
  const moved = MIGRATIONS.findIndex((m) => m.includes("CREATE TABLE task_payloads"));
  expect(moved).toBeGreaterThan(0);
  db = openDatabase(`${dir}/service.db`, { synchronous: "NORMAL" });
  migrate(db, MIGRATIONS.slice(0, moved));
  db.query("INSERT INTO stores (id, created_at) VALUES ('s1', 0)").run();
  db.query(
    "INSERT INTO tasks (id, store_id, kind, status, payload, item_count, created_at, updated_at) VALUES ('old', 's1', 'upsert', 'pending', ?, 2, 0, 0)",
  ).run(JSON.stringify([product("a"), product("b")]));
  db.query(
    "INSERT INTO tasks (id, store_id, kind, status, payload, item_count, cursor, created_at, updated_at) VALUES ('done', 's1', 'upsert', 'complete', '', 1, 1, 0, 0)",
  ).run();

  migrate(db, MIGRATIONS);
  expect(payloadRows()).toBe(1);
  const { worker, indexing } = parts(db);
  while ((await worker.runOnce()) === 0);
  expect(await indexing.task("s1", "old")).toMatchObject({ status: "complete", processedCount: 2 });
  expect((await indexing.product("s1", "b")).version).toBe(1);
  expect(await engine.count("s1")).toBe(2);
  expect(payloadRows()).toBe(0);
});

test("a payload is kept while its task is pending and dropped when the task ends", async () => {
  db = openDatabase(`${dir}/service.db`, { synchronous: "NORMAL" });
  migrate(db, MIGRATIONS);
  const { stores, worker, indexing } = parts(db);
  await stores.create("s1", 0);
  const id = await enqueueProducts(indexing, "s1", [product("a")]);
  expect(payloadRows()).toBe(1);
  await worker.runOnce();
  expect((await indexing.task("s1", id)).status).toBe("complete");
  expect(payloadRows()).toBe(0);
});
