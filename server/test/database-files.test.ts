import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { openDatabase } from "../src/platform/sqlite/connection.ts";
import { product } from "./support/fixtures.ts";
import { reopenTestServer, startTestServer, tempDir } from "./support/test-server.ts";

/*
 * New database files get 16 KB pages (connection.ts: a tenth of a bulk's indexing CPU went on the extra log
 * writes of 4 KB pages); a file made before keeps its 4 KB pages and the server works on it as before. Reads map
 * the file only as far as SQLITE_MMAP_MB says (mapped-pages.test.ts).
 */

const pageSize = (path: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
  } finally {
    db.close();
  }
};

async function indexAndFind(server: Awaited<ReturnType<typeof startTestServer>>, id: string): Promise<void> {
  const res = await server.call("admin", "POST", "/1.9/products", product(id, { name: `Lantern ${id}` }));
  expect(res.status).toBe(202);
  expect((await server.waitForTask(((await res.json()) as { taskId: string }).taskId)).status).toBe("complete");
  const found = (await (await server.call("search", "GET", `/1.9/search?query=${id}`)).json()) as { products: { productId: string }[] };
  expect(found.products.map((p) => p.productId)).toContain(id);
}

test("a new data directory's service and engine databases have 16 KB pages", async () => {
  const server = await startTestServer();
  try {
    await indexAndFind(server, "p-new");
    expect(pageSize(join(server.dataDir, "service.db"))).toBe(16_384);
    expect(pageSize(join(server.dataDir, "engine", `${server.storeId}.db`))).toBe(16_384);
  } finally {
    await server.stop();
  }
});

test("a database file made with 4 KB pages keeps them, and the service works on it", async () => {
  const dir = tempDir();
  const old = new Database(join(dir, "service.db"), { create: true });
  old.exec("PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; CREATE TABLE made_before (x)");
  old.close();
  const server = await startTestServer({}, dir);
  try {
    await indexAndFind(server, "p-old");
  } finally {
    await server.stop();
  }
  expect(pageSize(join(dir, "service.db"))).toBe(4096);
  const again = await reopenTestServer(server);
  try {
    await indexAndFind(again, "p-again");
  } finally {
    await again.stop();
  }
});

test("a connection keeps an 8 MiB page cache unless told another and reads its file mapped only as far as asked", () => {
  const dir = tempDir();
  const mmapSize = (db: Database) => (db.query("PRAGMA mmap_size").get() as { mmap_size: number }).mmap_size;
  const db = openDatabase(join(dir, "service.db"), { synchronous: "NORMAL" });
  const mapped = openDatabase(join(dir, "service.db"), { synchronous: "NORMAL", mmapBytes: 1024 ** 3, cacheKib: 1024 });
  const cacheSize = (c: Database) => (c.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
  try {
    expect(cacheSize(db)).toBe(-8192);
    expect(cacheSize(mapped)).toBe(-1024);
    expect(mmapSize(db)).toBe(0);
    expect(mmapSize(mapped)).toBe(1024 ** 3);
  } finally {
    mapped.close();
    db.close();
  }
});
