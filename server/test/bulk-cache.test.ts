import { expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { BulkCache } from "../src/platform/sqlite/bulk-cache.ts";
import { openDatabase } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * A writing connection's page cache is widened while batches come and put back once they stop (bulk-cache.ts);
 * what that saves a bulk is measured by million-bench.ts, not here.
 */

const cacheKib = (db: Database) => -(db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;

async function until(done: () => boolean): Promise<void> {
  // A generous bound against a hang, not a time budget.
  for (let waited = 0; !done(); waited += 10) {
    if (waited > 10_000) throw new Error("the cache was never put back");
    await Bun.sleep(10);
  }
}

test("batches widen the cache until they pause, then it is put back", async () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 1024 });
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

test("a connection whose own cache is as large is left as it is", () => {
  const db = openDatabase(join(tempDir(), "bulk.db"), { synchronous: "NORMAL", cacheKib: 8192 });
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
  const cache = new BulkCache(db, 4096, 20);
  cache.widen();
  cache.close();
  db.close();
  // The put-back would throw on a closed connection (an uncaught error fails the test run).
  await Bun.sleep(100);
});
