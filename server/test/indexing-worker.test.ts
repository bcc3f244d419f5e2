import { afterEach, beforeEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { StorageHealth } from "../src/platform/storage-health.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { EngineRejectedError, EngineTransientError } from "../src/engine/errors.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { PreparedDocument } from "../src/engine/types.ts";
import { createLogger } from "../src/log.ts";
import { IndexingService } from "../src/modules/indexing/indexing-service.ts";
import { IndexingWorker } from "../src/modules/indexing/indexing-worker.ts";
import { enqueueProducts, product } from "./support/fixtures.ts";
import { tempDir } from "./support/test-server.ts";
import { StoreWriters } from "../src/modules/indexing/store-writers.ts";

/*
 * The worker's retry and failure handling. The engine is the real embedded one behind the port, wrapped so a test
 * can make its next writes fail the way an unreachable or rejecting engine would; the clock is manual.
 */

class FailingEngine extends SqliteEngine {
  failures: Error[] = [];
  /** The write the worker makes, of documents prepared on the indexing thread. */
  override async upsertPrepared(storeId: string, docs: readonly PreparedDocument[]) {
    const next = this.failures.shift();
    if (next) throw next;
    return super.upsertPrepared(storeId, docs);
  }
}

let dir: string;
let db: Database;
let engine: FailingEngine;
let clock: number;
let worker: IndexingWorker;
let indexing: IndexingService;
let tasks: SqliteTasksRepo;

beforeEach(async () => {
  dir = tempDir();
  db = openServiceDatabase(dir, { synchronous: "NORMAL" });
  const stores = new SqliteStoresRepo(db);
  await stores.create("s1", 0);
  engine = new FailingEngine({ dataDir: dir, synchronous: "NORMAL" });
  clock = 1_000_000;
  tasks = new SqliteTasksRepo(db);
  const catalog = new SqliteCatalogRepo(db);
  const now = () => clock;
  worker = new IndexingWorker({
    state: { kind: "sqlite", path: db.filename },
    tasks,
    catalog,
    engine,
    now,
    log: createLogger("silent"),
    maxAttempts: 3,
  });
  indexing = new IndexingService(tasks, catalog, now, () => {});
});

afterEach(async () => {
  await engine.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a transient engine failure is retried after a backoff, holding back later tasks, then completes", async () => {
  const first = await enqueueProducts(indexing, "s1", [product("a")]);
  const second = await enqueueProducts(indexing, "s1", [product("b")]);
  engine.failures = [new EngineTransientError("connection refused")];
  expect(await worker.runOnce()).toBe(0);
  expect((await indexing.task("s1", first)).status).toBe("pending");
  const wait = await worker.runOnce();
  expect(wait).toBeGreaterThan(0);
  expect((await indexing.task("s1", second)).status).toBe("pending");
  clock += wait;
  await worker.runOnce();
  expect((await indexing.task("s1", first)).status).toBe("complete");
  expect((await indexing.task("s1", second)).status).toBe("complete");
  expect(await engine.count("s1")).toBe(2);
});

/** Three attempts two minutes apart: past the retry limit and its backoff. */
async function attemptPastLimit(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    clock += 120_000;
    await worker.runOnce();
  }
}

test("a rejected update ends its task in error with a message; the queue moves on", async () => {
  const bad = await enqueueProducts(indexing, "s1", [product("a")]);
  engine.failures = [new EngineRejectedError("field price has the wrong type")];
  await worker.runOnce();
  const task = await indexing.task("s1", bad);
  expect(task.status).toBe("error");
  expect(task.message).toContain("field price has the wrong type");
  const next = await enqueueProducts(indexing, "s1", [product("b")]);
  await worker.runOnce();
  expect((await indexing.task("s1", next)).status).toBe("complete");
  expect((await engine.versions("s1", ["a", "b"])).has("a")).toBe(false);
});

test("an engine that stays down ends the task in error after the attempt limit", async () => {
  const id = await enqueueProducts(indexing, "s1", [product("a")]);
  engine.failures = [1, 2, 3].map((i) => new EngineTransientError(`down ${i}`));
  await attemptPastLimit();
  const task = await indexing.task("s1", id);
  expect(task.status).toBe("error");
  expect(task.message).toContain("down 3");
  expect(await tasks.pendingHeads()).toEqual([]);
});

test("a task the indexing thread cannot prepare (its payload is gone) is retried, then ends in error saying so", async () => {
  const id = await enqueueProducts(indexing, "s1", [product("a")]);
  db.run("DELETE FROM task_payloads");
  await attemptPastLimit();
  const task = await indexing.task("s1", id);
  expect(task.status).toBe("error");
  expect(task.message).toStartWith("The update could not be prepared:");
  const next = await enqueueProducts(indexing, "s1", [product("b")]);
  await worker.runOnce();
  expect((await indexing.task("s1", next)).status).toBe("complete");
});

test("a bulk task is applied in chunks and reports progress", async () => {
  const small = new IndexingWorker({
    state: { kind: "sqlite", path: db.filename },
    tasks,
    catalog: new SqliteCatalogRepo(db),
    engine,
    now: () => clock,
    log: createLogger("silent"),
    batchSize: 40,
  });
  const id = await enqueueProducts(
    indexing,
    "s1",
    Array.from({ length: 100 }, (_, i) => product(`p${i}`)),
  );
  await small.runOnce();
  expect(await indexing.task("s1", id)).toMatchObject({ status: "pending", processedCount: 40, itemCount: 100 });
  await small.runOnce();
  await small.runOnce();
  expect(await indexing.task("s1", id)).toMatchObject({ status: "complete", processedCount: 100 });
  expect(await engine.count("s1")).toBe(100);
});

test("a store another worker applies is left to it while its lease runs; then the other takes over where it stopped", async () => {
  const make = () =>
    new IndexingWorker({
      state: { kind: "sqlite", path: db.filename },
      tasks,
      catalog: new SqliteCatalogRepo(db),
      engine,
      now: () => clock,
      log: createLogger("silent"),
      batchSize: 40,
      writers: new StoreWriters(tasks, () => clock, 5_000),
    });
  const [a, b] = [make(), make()];
  const id = await enqueueProducts(
    indexing,
    "s1",
    Array.from({ length: 100 }, (_, i) => product(`p${i}`)),
  );
  await a.runOnce();
  // A is gone (no more batches from it); B waits for A's lease before it touches the store.
  expect(await b.runOnce()).toBeGreaterThan(0);
  expect((await indexing.task("s1", id)).processedCount).toBe(40);
  clock += 5_000;
  await b.runOnce();
  await b.runOnce();
  expect(await indexing.task("s1", id)).toMatchObject({ status: "complete", processedCount: 100 });
  expect(await engine.count("s1")).toBe(100);
  expect((await engine.versions("s1", ["p0", "p99"])).get("p0")).toBe(1);
});

test("busy while a bulk's batches are applied, not after its last one (background work starts at once)", async () => {
  const seen: boolean[] = [];
  const w: IndexingWorker = new IndexingWorker({
    state: { kind: "sqlite", path: db.filename },
    tasks,
    catalog: new SqliteCatalogRepo(db),
    engine,
    now: () => clock,
    log: createLogger("silent"),
    batchSize: 40,
    onApplied: () => seen.push(w.busy()),
  });
  await enqueueProducts(
    indexing,
    "s1",
    Array.from({ length: 100 }, (_, i) => product(`p${i}`)),
  );
  w.start();
  w.wake();
  for (let polls = 0; seen.length < 3; polls++) {
    expect(polls).toBeLessThan(400);
    await Bun.sleep(10);
  }
  await w.stop();
  expect(seen).toEqual([true, true, false]);
});

test("stores take turns: another store's task waits for one batch of a large bulk, not for the bulk", async () => {
  await new SqliteStoresRepo(db).create("s2", 0);
  const small = new IndexingWorker({
    state: { kind: "sqlite", path: db.filename },
    tasks,
    catalog: new SqliteCatalogRepo(db),
    engine,
    now: () => clock,
    log: createLogger("silent"),
    batchSize: 10,
  });
  const bulk = await enqueueProducts(
    indexing,
    "s1",
    Array.from({ length: 50 }, (_, i) => product(`p${i}`)),
  );
  const single = await enqueueProducts(indexing, "s2", [product("q")]);
  await small.runOnce();
  expect(await indexing.task("s1", bulk)).toMatchObject({ status: "pending", processedCount: 10 });
  await small.runOnce();
  expect((await indexing.task("s2", single)).status).toBe("complete");
  expect(await indexing.task("s1", bulk)).toMatchObject({ status: "pending", processedCount: 10 });
  for (let i = 0; i < 4; i++) await small.runOnce();
  expect(await indexing.task("s1", bulk)).toMatchObject({ status: "complete", processedCount: 50 });
});

test("a task waiting for a retry holds back only its own store, and its store's later tasks stay behind it", async () => {
  await new SqliteStoresRepo(db).create("s2", 0);
  const first = await enqueueProducts(indexing, "s1", [product("a")]);
  const second = await enqueueProducts(indexing, "s1", [product("a", { name: "Renamed" })]);
  const other = await enqueueProducts(indexing, "s2", [product("b")]);
  engine.failures = [new EngineTransientError("connection refused")];
  await worker.runOnce();
  expect((await indexing.task("s1", first)).status).toBe("pending");
  expect(await worker.runOnce()).toBe(0);
  expect((await indexing.task("s2", other)).status).toBe("complete");
  const wait = await worker.runOnce();
  expect(wait).toBeGreaterThan(0);
  expect((await indexing.task("s1", second)).status).toBe("pending");
  clock += wait;
  await worker.runOnce();
  expect((await indexing.task("s1", first)).status).toBe("complete");
  expect((await indexing.task("s1", second)).status).toBe("complete");
  expect(await indexing.product("s1", "a")).toMatchObject({ version: 2, product: { name: "Renamed" } });
  expect(await engine.count("s2")).toBe(1);
});

/** A real SQLITE_FULL from SQLite: a database that may not grow past one page. */
function diskFullError(): Error {
  const full = new Database(":memory:");
  try {
    full.exec("PRAGMA max_page_count = 2; CREATE TABLE t (x BLOB)");
    full.query("INSERT INTO t VALUES (zeroblob(100000))").run();
  } catch (error) {
    return error as Error;
  } finally {
    full.close();
  }
  throw new Error("expected SQLITE_FULL");
}

test("our own storage failing (disk full) never fails an acknowledged task, however often; health says why", async () => {
  const storage = new StorageHealth({ dataDir: dir, minFreeBytes: 0, log: createLogger("silent") });
  const patient = new IndexingWorker({
    state: { kind: "sqlite", path: db.filename },
    tasks,
    catalog: new SqliteCatalogRepo(db),
    engine,
    now: () => clock,
    log: createLogger("silent"),
    maxAttempts: 3,
    storage,
  });
  const full = diskFullError();
  expect((full as { code?: string }).code).toBe("SQLITE_FULL");
  const id = await enqueueProducts(indexing, "s1", [product("a")]);
  engine.failures = Array.from({ length: 6 }, () => full);
  // Twice the attempt limit of engine failures: each failed batch waits for its backoff, then is tried again.
  while (engine.failures.length) {
    clock += await patient.runOnce();
    expect((await indexing.task("s1", id)).status).toBe("pending");
  }
  expect(storage.reason).toContain("SQLITE_FULL");
  // The worker sleeps at most a second at a time; the last backoff is 32 s.
  for (let i = 0; i < 100 && (await indexing.task("s1", id)).status === "pending"; i++) clock += await patient.runOnce();
  expect((await indexing.task("s1", id)).status).toBe("complete");
  expect(await engine.count("s1")).toBe(1);
});
