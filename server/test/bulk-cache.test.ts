import { expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { BulkCache } from "../src/platform/sqlite/bulk-cache.ts";
import { openDatabase } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * A writing connection's page cache is widened while batches come, as far as its file's size warrants, and put back
 * once they stop (bulk-cache.ts); what that saves a bulk is measured by million-bench.ts, not here.
 */

const cacheKib = (db: Database) => -(db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
const fileKib = (db: Database) =>
  ((db.query("PRAGMA page_count").get() as { page_count: number }).page_count *
    (db.query("PRAGMA page_size").get() as { page_size: number }).page_size) /
  1024;

/** Appends `mib` MiB of rows to the file. */
function grow(db: Database, mib: number): void {
  db.exec("CREATE TABLE IF NOT EXISTS rows (body BLOB)");
  const insert = db.prepare("INSERT INTO rows VALUES (zeroblob(65536))");
  db.transaction(() => {
    for (let i = 0; i < mib * 16; i++) insert.run();
  })();
}

async function until(done: () => boolean): Promise<void> {
  // A generous bound against a hang, not a time budget.
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error("the cache was never put back");
    await Bun.sleep(10);
  }
}

test("batches widen the cache until they pause, then it is put back", async () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 1024 });
  grow(db, 128);
  const cache = new BulkCache(db, 4096, 50);
  try {
    cache.widen();
    expect(cacheKib(db)).toBe(4096);
    // A batch while wide keeps it wide.
    cache.widen();
    expect(cacheKib(db)).toBe(4096);
    await until(() => cacheKib(db) === 1024);
    // The next bulk widens it again.
    cache.widen();
    expect(cacheKib(db)).toBe(4096);
  } finally {
    cache.close();
    db.close();
  }
});

test("as wide as a 24th of the file: none wider for a small file, more as a bulk grows it, at most the bulk's", async () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 1024 });
  const cache = new BulkCache(db, 4096, 50);
  try {
    cache.widen();
    expect(cacheKib(db)).toBe(1024);
    grow(db, 48);
    cache.widen();
    expect(cacheKib(db)).toBe(Math.ceil(fileKib(db) / 24));
    expect(cacheKib(db)).toBeGreaterThan(1024);
    expect(cacheKib(db)).toBeLessThan(4096);
    grow(db, 96);
    cache.widen();
    expect(cacheKib(db)).toBe(4096);
    await until(() => cacheKib(db) === 1024);
  } finally {
    cache.close();
    db.close();
  }
});

test("a connection whose own cache is as large is left as it is", () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 8192 });
  grow(db, 256);
  const cache = new BulkCache(db, 4096, 50);
  try {
    cache.widen();
    expect(cacheKib(db)).toBe(8192);
  } finally {
    cache.close();
    db.close();
  }
});

test("closed before the pause ends, nothing runs on the closed connection", async () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 1024 });
  grow(db, 128);
  const cache = new BulkCache(db, 4096, 20);
  cache.widen();
  expect(cacheKib(db)).toBe(4096);
  cache.close();
  db.close();
  // The put-back would throw on a closed connection (an uncaught error fails the test run).
  await Bun.sleep(100);
});
