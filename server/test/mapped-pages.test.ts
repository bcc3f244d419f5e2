import { afterAll, expect, test } from "bun:test";
import { readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { product } from "./support/fixtures.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * With SQLITE_MMAP_MB, serving connections read their files mapped (connection.ts), and a mapped page stays in the
 * process's resident memory while the connection lives. The reads of a whole table (the product-page models' build
 * from the catalog, a store's load into the embedded engine) go through a connection of their own that maps
 * nothing, so after a restart that did both, only the few pages requests read are mapped, not the catalog; by
 * default nothing is. Counted in the pages the kernel reports resident for this process's mappings of each file
 * (Linux only).
 */

const PRODUCTS = 1500;
/** About 3 KB of words per product: the files are mostly these rows, not the schema or the indexes' upper pages. */
const words = ["linen", "cotton", "relaxed", "tailored", "breathable", "stitched", "collar", "cuffs", "summer", "travel"];
const description = (i: number) => Array.from({ length: 400 }, (_, w) => words[(i * 7 + w * 3) % words.length]).join(" ");

/** Resident bytes of this process's mappings of `file` (/proc/self/smaps: a header line per mapping, then its sizes). */
function residentMapped(file: string): number {
  const path = realpathSync(file);
  let bytes = 0;
  let ofFile = false;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) ofFile = line.endsWith(` ${path}`);
    else if (ofFile && line.startsWith("Rss:")) bytes += Number(line.split(/\s+/)[1]) * 1024;
  }
  return bytes;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function indexed(env: Record<string, string>): Promise<TestServer> {
  const dir = tempDir();
  dirs.push(dir);
  const first = await startTestServer(env, dir);
  try {
    for (let start = 0; start < PRODUCTS; start += 500) {
      const batch = Array.from({ length: 500 }, (_, k) =>
        product(`p${start + k}`, { name: `Shirt ${start + k}`, description: description(start + k) }),
      );
      const res = await first.call("admin", "POST", "/1.9/products", batch);
      expect(res.status).toBe(202);
      expect((await first.waitForTask(((await res.json()) as { taskId: string }).taskId)).status).toBe("complete");
    }
  } finally {
    await first.stop();
  }
  // Stopped: the log is checkpointed into the files, where mapped reads would find every row.
  return reopenTestServer(first, env);
}

/** A restarted server's mapped bytes of each file once it searched and answered similar products and looks. */
async function mappedAfterRestart(env: Record<string, string>): Promise<{ file: string; size: number; mapped: number }[]> {
  const server = await indexed(env);
  try {
    const found = (await (await server.call("search", "GET", "/1.9/search?query=shirt")).json()) as { totalProductCount: number };
    expect(found.totalProductCount).toBe(PRODUCTS);
    for (const path of ["/1.9/similarity?productId=p7", "/1.9/ctl?productId=p7"])
      expect((await server.call("search", "GET", path)).status).toBe(200);
    return [join(server.dataDir, "service.db"), join(server.dataDir, "engine", `${server.storeId}.db`)].map((file) => ({
      file,
      size: statSync(file).size,
      mapped: residentMapped(file),
    }));
  } finally {
    await server.stop();
  }
}

test.skipIf(process.platform !== "linux")(
  "after a restart, a search and the first similar products and looks, neither file has its rows mapped",
  async () => {
    for (const { file, size, mapped } of await mappedAfterRestart({ SQLITE_MMAP_MB: "1024" })) {
      expect(size, file).toBeGreaterThan(PRODUCTS * 3000);
      // What requests read is mapped (so the count sees mappings at all); through a serving connection the
      // store's load and the models' build would have made nearly the whole file resident (98-100% here).
      expect(mapped, file).toBeGreaterThan(0);
      expect(mapped, file).toBeLessThan(size / 2);
    }
  },
  120_000,
);

test.skipIf(process.platform !== "linux")(
  "by default the serving connections map nothing",
  async () => {
    for (const { file, mapped } of await mappedAfterRestart({})) expect(mapped, file).toBe(0);
  },
  120_000,
);
