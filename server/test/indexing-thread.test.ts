import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { openServiceDatabase } from "../src/db/connection.ts";
import { SqliteStoresRepo } from "../src/db/stores-repo.ts";
import { TasksRepo } from "../src/db/tasks-repo.ts";
import { IndexingThread } from "../src/modules/indexing/indexing-thread.ts";
import { demoProducts } from "./support/demo-products.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The indexing thread prepares batches requested ahead only while no batch waits: a store's product requested
 * behind another store's bulk, prepared ahead, is answered before the bulk's queued slices.
 */

let dir: string;
let db: Database;
let thread: IndexingThread;
const SLICE = 500;
const SLICES = 6;

beforeAll(async () => {
  dir = tempDir("sfs-indexing-thread-");
  db = openServiceDatabase(dir, { synchronous: "NORMAL" });
  const stores = new SqliteStoresRepo(db);
  await stores.create("a", 0);
  await stores.create("b", 0);
  const tasks = new TasksRepo(db);
  await tasks.insert({ id: "bulk", storeId: "a", kind: "upsert", payload: JSON.stringify(demoProducts(SLICE * SLICES)), itemCount: SLICE * SLICES, now: 0 });
  await tasks.insert({ id: "one", storeId: "b", kind: "upsert", payload: JSON.stringify(demoProducts(1)), itemCount: 1, now: 0 });
  thread = new IndexingThread({ kind: "sqlite", path: join(dir, "service.db") });
});

afterAll(() => {
  thread.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a slice a batch waits for is prepared before slices requested ahead of it, in the order each kind was asked", async () => {
  const [bulk, one] = (await new TasksRepo(db).pendingHeads()).sort((x, y) => x.seq - y.seq);
  const answered: string[] = [];
  const ask = (label: string, storeId: string, seq: number, start: number, end: number, ahead: boolean) =>
    thread.prepare({ storeId, seq, kind: "upsert", start, end, ahead }).then(() => answered.push(label));
  const all = Array.from({ length: SLICES }, (_, k) => ask(`a${k}`, "a", bulk!.seq, k * SLICE, (k + 1) * SLICE, true));
  all.push(ask("b", "b", one!.seq, 0, 1, false));
  await Promise.all(all);
  // The first slice of the bulk may have started before b was asked for; every later one waits for b.
  expect(answered.indexOf("b")).toBeLessThanOrEqual(1);
  expect(answered.filter((label) => label !== "b")).toEqual(Array.from({ length: SLICES }, (_, k) => `a${k}`));
});
