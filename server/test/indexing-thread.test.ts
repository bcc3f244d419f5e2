import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import type { TaskRow } from "../src/modules/indexing/storage/tasks-repository.ts";
import { InvalidJsonError, ValidationError } from "../src/errors.ts";
import { IndexingThread } from "../src/modules/indexing/indexing-thread.ts";
import { textOf } from "../src/utf8-text.ts";
import { demoProducts } from "./support/demo-products.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The indexing thread prepares batches requested ahead only while no batch waits: a store's product requested
 * behind another store's bulk, prepared ahead, is answered before the bulk's queued slices. It also validates
 * POST /products bodies.
 */

const utf8 = new TextEncoder();

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
  const tasks = new SqliteTasksRepo(db);
  await tasks.insert({
    id: "bulk",
    storeId: "a",
    kind: "upsert",
    payload: JSON.stringify(demoProducts(SLICE * SLICES)),
    itemCount: SLICE * SLICES,
    now: 0,
  });
  await tasks.insert({ id: "one", storeId: "b", kind: "upsert", payload: JSON.stringify(demoProducts(1)), itemCount: 1, now: 0 });
  thread = new IndexingThread({ kind: "sqlite", path: join(dir, "service.db") }, "sqlite");
});

afterAll(() => {
  thread.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a slice a batch waits for is prepared before slices requested ahead of it, in the order each kind was asked", async () => {
  const [bulk, one] = (await new SqliteTasksRepo(db).pendingHeads()).sort((x, y) => x.seq - y.seq);
  const answered: string[] = [];
  const ask = (label: string, task: TaskRow, start: number, end: number, ahead: boolean) =>
    thread
      .prepare({ storeId: task.storeId, seq: task.seq, taskId: task.id, kind: "upsert", start, end, ahead })
      .then(() => answered.push(label));
  const all = Array.from({ length: SLICES }, (_, k) => ask(`a${k}`, bulk!, k * SLICE, (k + 1) * SLICE, true));
  all.push(ask("b", one!, 0, 1, false));
  await Promise.all(all);
  // The first slice of the bulk may have started before b was asked for; every later one waits for b.
  expect(answered.indexOf("b")).toBeLessThanOrEqual(1);
  expect(answered.filter((label) => label !== "b")).toEqual(Array.from({ length: SLICES }, (_, k) => `a${k}`));
});

test("bodies are validated on the thread: a clean array comes back as its own bytes, a cleaned one serialised again, a broken one refused as the request answers", async () => {
  const products = demoProducts(3);
  const sent = utf8.encode(JSON.stringify(products));
  const clean = await thread.accept(sent.slice(), "t-clean");
  expect(clean).toEqual({ accepted: 3, report: { warnings: 0, rejectedCount: 0, rejected: [] }, payload: sent });
  // A body that is a view into a larger buffer (a pooled Buffer) is copied, not moved: the buffer stays usable.
  const one = utf8.encode(JSON.stringify({ ...products[0], brand: null }));
  const pool = new Uint8Array(one.length + 200);
  pool.set(one, 100);
  const cleaned = await thread.accept(pool.subarray(100, 100 + one.length), "t-cleaned");
  expect(pool.byteLength).toBe(one.length + 200);
  const { brand: _, ...withoutBrand } = products[0]!;
  expect(cleaned.report.warnings).toBe(1);
  expect(JSON.parse(textOf(cleaned.payload))).toEqual([JSON.parse(JSON.stringify(withoutBrand))]);
  // Caught rather than expect().rejects, which does not let the thread's answer in while it waits.
  const refusal = (body: string) =>
    thread.accept(utf8.encode(body), "t-refused").then(
      () => null,
      (error: Error) => error,
    );
  expect(await refusal('[{"id": ')).toBeInstanceOf(InvalidJsonError);
  const empty = await refusal("[]");
  expect(empty).toBeInstanceOf(ValidationError);
  expect([empty?.message, (empty as ValidationError).details]).toEqual([
    "The product array is empty",
    [{ path: "body", problem: "must hold at least 1 product" }],
  ]);
});

test("a thread that ended when idle starts again on the next request: the same slice prepared the same, bodies validated", async () => {
  const [bulk] = (await new SqliteTasksRepo(db).pendingHeads()).sort((x, y) => x.seq - y.seq);
  const idle = new IndexingThread({ kind: "sqlite", path: join(dir, "service.db") }, "sqlite", 0);
  // Linux names a thread by its module: this process's indexing threads.
  const running = () =>
    readdirSync("/proc/self/task").filter((t) => readFileSync(`/proc/self/task/${t}/comm`, "utf8").startsWith("indexing-thread")).length;
  const before = existsSync("/proc/self/task") ? running() : 0;
  const ended = async () => {
    for (let i = 0; i < 200 && running() > before; i++) await Bun.sleep(25);
    return running() === before;
  };
  try {
    const slice = (start: number) =>
      idle.prepare({ storeId: bulk!.storeId, seq: bulk!.seq, taskId: bulk!.id, kind: "upsert", start, end: start + SLICE, ahead: false });
    const first = await slice(0);
    if (existsSync("/proc/self/task")) expect(await ended()).toBe(true);
    expect(await slice(0)).toEqual(first);
    const body = await idle.accept(utf8.encode(JSON.stringify(demoProducts(2))), "t-idle");
    expect(body.accepted).toBe(2);
    if (existsSync("/proc/self/task")) expect(await ended()).toBe(true);
    expect((await slice(SLICE)).textEnds.length).toBe(first.textEnds.length);
  } finally {
    idle.close();
  }
});
