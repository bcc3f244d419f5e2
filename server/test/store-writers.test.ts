import { afterEach, beforeEach, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { StoreWriters } from "../src/modules/indexing/store-writers.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * StoreWriters over the real leases of the embedded database: a store's search writes take turns, other stores'
 * do not wait for them, and a store another holder has leased is left alone until its lease ends. (The race it
 * closes, through the whole server: search-write-turns.test.ts.)
 */

let dir: string;
let db: Database;
let tasks: SqliteTasksRepo;
let clock: number;

beforeEach(() => {
  dir = tempDir();
  db = openServiceDatabase(dir, { synchronous: "NORMAL" });
  tasks = new SqliteTasksRepo(db);
  clock = 1_000_000;
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("one store's writes run one at a time, in the order asked; another store's run meanwhile", async () => {
  const writers = new StoreWriters(tasks, () => clock);
  const log: string[] = [];
  const gate = Promise.withResolvers<void>();
  const write = (name: string, wait?: Promise<void>) => async () => {
    log.push(`${name} start`);
    await wait;
    log.push(`${name} end`);
    return name;
  };
  const first = writers.exclusive("s1", write("a", gate.promise));
  const second = writers.exclusive("s1", write("b"));
  const other = writers.exclusive("s2", write("c"));
  expect(await other).toBe("c");
  expect(log).toEqual(["a start", "c start", "c end"]);
  gate.resolve();
  expect(await Promise.all([first, second])).toEqual(["a", "b"]);
  expect(log).toEqual(["a start", "c start", "c end", "a end", "b start", "b end"]);
});

test("a write that fails ends its turn: the next one runs, and the failure reaches its caller", async () => {
  const writers = new StoreWriters(tasks, () => clock);
  const failing = writers.exclusive("s1", async () => {
    throw new Error("engine down");
  });
  const next = writers.exclusive("s1", async () => "written");
  await expect(failing).rejects.toThrow("engine down");
  expect(await next).toBe("written");
});

test("a store another holder leased is not written until its lease ends; then this holder has it", async () => {
  const here = new StoreWriters(tasks, () => clock, 5_000);
  const elsewhere = new StoreWriters(tasks, () => clock, 5_000);
  expect(await elsewhere.exclusive("s1", async () => "theirs")).toBe("theirs");
  let ran = false;
  expect(await here.exclusive("s1", async () => (ran = true))).toBeNull();
  expect(ran).toBe(false);
  // Other stores are free.
  expect(await here.exclusive("s2", async () => "mine")).toBe("mine");
  clock += 5_000;
  expect(await here.exclusive("s1", async () => "mine now")).toBe("mine now");
  expect(await elsewhere.exclusive("s1", async () => "theirs")).toBeNull();
});
