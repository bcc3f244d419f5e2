import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BulkCache } from "../src/platform/sqlite/bulk-cache.ts";
import { openDatabase } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "./support/test-server.ts";

/* A bulk's page cache follows the size of the file it writes: none wider for a small store, at most the setting's. */

const cacheKib = (db: ReturnType<typeof openDatabase>) => -(db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;

test("widened as far as the file warrants, at most the bulk's, and put back once batches stop", async () => {
  const dir = tempDir("sfs-bulk-cache-");
  const db = openDatabase(join(dir, "a.db"), { synchronous: "NORMAL", cacheKib: 1024 });
  try {
    db.exec("CREATE TABLE rows (body BLOB)");
    const cache = new BulkCache(db, 4096, 200);
    // A file of a few pages: a bulk into it keeps the usual cache.
    cache.widen();
    expect(cacheKib(db)).toBe(1024);
    // 48 MiB of rows: the file warrants 2 MiB (a 24th), under the bulk's 4 MiB.
    const insert = db.prepare("INSERT INTO rows VALUES (zeroblob(65536))");
    db.transaction(() => {
      for (let i = 0; i < 768; i++) insert.run();
    })();
    cache.widen();
    const pages = (db.query("PRAGMA page_count").get() as { page_count: number }).page_count;
    const fileKib = (pages * (db.query("PRAGMA page_size").get() as { page_size: number }).page_size) / 1024;
    expect(cacheKib(db)).toBe(Math.ceil(fileKib / 24));
    expect(cacheKib(db)).toBeGreaterThan(1024);
    expect(cacheKib(db)).toBeLessThan(4096);
    // 144 MiB: the bulk's 4 MiB at most.
    db.transaction(() => {
      for (let i = 0; i < 1536; i++) insert.run();
    })();
    cache.widen();
    expect(cacheKib(db)).toBe(4096);
    // No batch for the idle time: the usual cache again.
    await Bun.sleep(600);
    expect(cacheKib(db)).toBe(1024);
    cache.close();
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
