import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DEMO_KEYS, spawnServer } from "./support/child-server.ts";
import { product } from "./support/fixtures.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/* Stores and keys changed with the stores CLI (another process) while, or between, server runs. */

const STORES_CLI = join(import.meta.dir, "../src/cli/stores.ts");
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** Runs the stores CLI on a data directory; asynchronous, since the server under test may run in this process. */
async function storesCli(dataDir: string, ...args: string[]): Promise<string> {
  const proc = Bun.spawn([process.execPath, STORES_CLI, ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`stores ${args.join(" ")} exited ${code}: ${err}`);
  return out;
}

const keyOf = (out: string, kind: string) => new RegExp(`${kind}\\s+(\\S+)`).exec(out)![1]!;

describe("DEMO_* settings and the stores CLI", () => {
  test("a key rotated or revoked with the CLI never comes back through a stale setting", async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const settings = (url: string, key: string) =>
      fetch(url + "/1.9/settings", { headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": key } }).then(
        (r) => r.status,
      );
    const first = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS });
    expect(await settings(first.url, DEMO_KEYS.DEMO_ADMIN_KEY)).toBe(200);
    const rotated = /: (sk_admin_\S+)/.exec(
      await storesCli(dataDir, "rotate", DEMO_KEYS.DEMO_STORE_ID, "admin", "--grace-hours", "0"),
    )![1]!;
    expect(await settings(first.url, DEMO_KEYS.DEMO_ADMIN_KEY)).toBe(401);
    first.proc.kill();
    await first.proc.exited;

    const second = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "warn" });
    try {
      expect(await settings(second.url, DEMO_KEYS.DEMO_ADMIN_KEY)).toBe(401);
      expect(await settings(second.url, rotated)).toBe(200);
      // The other kinds were never rotated: their configured keys still work.
      const search = await fetch(second.url + "/1.9/search?query=x", {
        headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY },
      });
      expect(search.status).toBe(200);
    } finally {
      second.proc.kill();
      await second.proc.exited;
    }
    const warned = await new Response(second.proc.stdout as ReadableStream).text();
    expect(warned).toContain("demo store key setting is out of date");
    // A key the store never had is still a way to rotate through the setting.
    const third = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS, DEMO_ADMIN_KEY: "sk_admin_brand_new_0123456789" });
    try {
      expect(await settings(third.url, "sk_admin_brand_new_0123456789")).toBe(200);
      expect(await settings(third.url, rotated)).toBe(401);
    } finally {
      third.proc.kill();
      await third.proc.exited;
    }
  }, 60_000);
});

describe("a store deleted and created again while the server runs", () => {
  test("the new store starts empty, none of the old index is left, and no new product is lost", async () => {
    // A directory of our own: the restart below must find it again.
    let s: TestServer = await startTestServer({}, tempDir());
    try {
      const created = await storesCli(s.dataDir, "create", "shop");
      const oldKeys = { admin: keyOf(created, "admin"), search: keyOf(created, "search") };
      const call = (keys: { admin: string; search: string }, kind: "admin" | "search", method: string, path: string, body?: unknown) =>
        fetch(s.url + path, {
          method,
          headers: { "x-service-store-id": "shop", "x-service-api-key": keys[kind], "content-type": "application/json" },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const indexed = async (keys: typeof oldKeys, products: unknown[]) => {
        const { taskId } = (await (await call(keys, "admin", "POST", "/1.9/products", products)).json()) as { taskId: string };
        for (let i = 0; i < 400; i++) {
          const task = (await (await call(keys, "admin", "GET", `/1.9/tasks/${taskId}`)).json()) as { status: string };
          if (task.status === "complete") return;
          await Bun.sleep(25);
        }
        throw new Error(
          `task ${taskId} did not complete: ${JSON.stringify(await (await call(keys, "admin", "GET", `/1.9/tasks/${taskId}`)).json())}`,
        );
      };
      const found = async (keys: typeof oldKeys) => {
        const res = await call(keys, "search", "GET", "/1.9/search?query=linen&pageSize=100");
        const body = (await res.json()) as { products: { productId: string }[] };
        if (res.status !== 200) throw new Error(`search answered ${res.status}: ${JSON.stringify(body)}`);
        return body.products.map((p) => p.productId).sort();
      };
      await indexed(
        oldKeys,
        ["old-1", "old-2", "old-3"].map((id) => product(id, { name: `Linen shirt ${id}` })),
      );
      expect(await found(oldKeys)).toEqual(["old-1", "old-2", "old-3"]);

      await storesCli(s.dataDir, "delete", "shop");
      const recreated = await storesCli(s.dataDir, "create", "shop");
      const newKeys = { admin: keyOf(recreated, "admin"), search: keyOf(recreated, "search") };
      expect((await call(oldKeys, "search", "GET", "/1.9/search?query=linen")).status).toBe(401);
      expect(await found(newKeys)).toEqual([]);
      await indexed(newKeys, [product("new-1", { name: "Linen trousers" })]);
      expect(await found(newKeys)).toEqual(["new-1"]);
      expect(await s.service.engineCount("shop")).toBe(1);

      // After a restart the engine reopens from its files: still only the new store's product.
      await s.stop();
      s = await reopenTestServer(s);
      expect(await found(newKeys)).toEqual(["new-1"]);
    } finally {
      await s.stop();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
