import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { product } from "./support/fixtures.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function upsert(body: unknown): Promise<string> {
  const res = await s.call("admin", "POST", "/1.0/products", body);
  expect(res.status).toBe(202);
  const { taskId } = (await res.json()) as { taskId: string };
  expect(taskId).toBeString();
  return taskId;
}

async function remove(id: string): Promise<string> {
  const res = await s.call("admin", "DELETE", `/1.0/products/${encodeURIComponent(id)}`);
  expect(res.status).toBe(202);
  return ((await res.json()) as { taskId: string }).taskId;
}

async function catalogEntry(id: string): Promise<{ status: number; version?: number; product?: Record<string, unknown> }> {
  const res = await s.call("admin", "GET", `/1.0/products/${encodeURIComponent(id)}`);
  return res.status === 200 ? { status: 200, ...((await res.json()) as object) } : { status: res.status };
}

describe("indexing tasks", () => {
  test("a task is pending, then complete, with ISO timestamps (milliseconds, Z)", async () => {
    const taskId = await upsert(product("life-1"));
    const first = (await (await s.call("admin", "GET", `/1.0/tasks/${taskId}`)).json()) as Record<string, string>;
    expect(["pending", "complete"]).toContain(first.status!);
    expect(first.createdAt!).toMatch(ISO_MS);
    expect(first.updatedAt!).toMatch(ISO_MS);
    expect(await s.waitForTask(taskId)).toMatchObject({ status: "complete" });
    const done = (await (await s.call("admin", "GET", `/1.0/tasks/${taskId}`)).json()) as Record<string, string>;
    expect(done).not.toHaveProperty("message");
    expect(Date.parse(done.updatedAt!)).toBeGreaterThanOrEqual(Date.parse(done.createdAt!));
    expect(await s.service.engineCount(s.storeId)).toBeGreaterThanOrEqual(1);
  });

  test("the catalog keeps a version per product that increases on every change, not on a repeat", async () => {
    await s.waitForTask(await upsert(product("ver-1", { name: "First name" })));
    expect((await catalogEntry("ver-1")).version).toBe(1);
    await s.waitForTask(await upsert(product("ver-1", { name: "First name" })));
    expect((await catalogEntry("ver-1")).version).toBe(1);
    await s.waitForTask(await upsert(product("ver-1", { name: "Second name" })));
    const entry = await catalogEntry("ver-1");
    expect(entry.version).toBe(2);
    expect(entry.product?.name).toBe("Second name");
    expect((await s.service.engineVersions(s.storeId, ["ver-1"])).get("ver-1")).toBe(2);
  });

  test("a bulk is kept as its bytes were sent: multi-byte text whole, bytes that are not UTF-8 as U+FFFD", async () => {
    const body = Buffer.concat([
      Buffer.from('[{"id":"utf8-1","name":"Café – Levi’s 漢字 🎨"},{"id":"utf8-2","name":"Bad bytes","description":"before '),
      Buffer.from([0xff, 0xc3]),
      Buffer.from(' after"}]'),
    ]);
    const headers = { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.admin, "content-type": "application/json" };
    const res = await fetch(`${s.service.url}/1.0/products`, { method: "POST", headers, body });
    expect(res.status).toBe(202);
    await s.waitForTask(((await res.json()) as { taskId: string }).taskId);
    expect((await catalogEntry("utf8-1")).product?.name).toBe("Café – Levi’s 漢字 🎨");
    expect((await catalogEntry("utf8-2")).product?.description).toBe("before \uFFFD\uFFFD after");
  });

  test("a product is replaced whole, not merged", async () => {
    await s.waitForTask(await upsert(product("whole-1", { description: "long text" })));
    await s.waitForTask(await upsert({ id: "whole-1", name: "Only a name" }));
    expect((await catalogEntry("whole-1")).product).toEqual({ id: "whole-1", name: "Only a name" });
  });

  test("delete removes from the catalog and the engine; deleting again is a complete no-op", async () => {
    await s.waitForTask(await upsert(product("del-1")));
    expect(await s.waitForTask(await remove("del-1"))).toMatchObject({ status: "complete" });
    expect((await catalogEntry("del-1")).status).toBe(404);
    expect((await s.service.engineVersions(s.storeId, ["del-1"])).has("del-1")).toBe(false);
    expect(await s.waitForTask(await remove("del-1"))).toMatchObject({ status: "complete" });
    expect(await s.waitForTask(await remove("never-existed"))).toMatchObject({ status: "complete" });
  });

  test("order per product holds: upsert then delete of the same id ends deleted, delete then upsert ends present", async () => {
    const a = await upsert(product("ord-1"));
    const b = await remove("ord-1");
    const c = await remove("ord-2");
    const d = await upsert(product("ord-2", { name: "Back again" }));
    for (const t of [a, b, c, d]) expect((await s.waitForTask(t)).status).toBe("complete");
    expect((await catalogEntry("ord-1")).status).toBe(404);
    expect((await catalogEntry("ord-2")).product?.name).toBe("Back again");
    const versions = await s.service.engineVersions(s.storeId, ["ord-1", "ord-2"]);
    expect(versions.has("ord-1")).toBe(false);
    expect(versions.get("ord-2")).toBe(1);
  });

  test("a deleted and re-added product continues its version numbers", async () => {
    await s.waitForTask(await upsert(product("re-1")));
    await s.waitForTask(await remove("re-1"));
    await s.waitForTask(await upsert(product("re-1")));
    expect((await catalogEntry("re-1")).version).toBe(3);
  });

  test("ids with spaces, slashes and unicode work in the path", async () => {
    const id = "Größe 42/blue ✓";
    await s.waitForTask(await upsert(product(id)));
    expect((await catalogEntry(id)).product?.id).toBe(id);
    await s.waitForTask(await remove(id));
    expect((await catalogEntry(id)).status).toBe(404);
  });

  test("the last of duplicate ids in one bulk wins", async () => {
    await s.waitForTask(await upsert([product("dup-1", { name: "A" }), product("dup-1", { name: "B" })]));
    const entry = await catalogEntry("dup-1");
    expect(entry.product?.name).toBe("B");
    expect(entry.version).toBe(2);
  });

  test("bulk bodies hold up to 10,000 products; more is a 400", async () => {
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ id: `m${i}`, name: "n" }));
    const res = await s.call("admin", "POST", "/1.0/products", tooMany);
    expect(res.status).toBe(400);
    expect((await errorBody(res)).message).toContain("10000");
  });
});

describe("real catalog", () => {
  test("a bulk of 5,000 real products is indexed: catalog, versions and engine agree", async () => {
    const real = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: s.url, limit: 5000 });
    expect(real).toHaveLength(5000);
    const taskId = await upsert(real);
    expect(await s.waitForTask(taskId, 60_000)).toMatchObject({ status: "complete" });
    const task = (await (await s.call("admin", "GET", `/1.0/tasks/${taskId}`)).json()) as Record<string, unknown>;
    expect(task).toMatchObject({ itemCount: 5000, processedCount: 5000 });
    for (const p of [real[0]!, real[2500]!, real[4999]!]) {
      const entry = await catalogEntry(p.id);
      expect(entry.product).toEqual(JSON.parse(JSON.stringify(p)));
      expect(entry.version).toBe(1);
    }
    const versions = await s.service.engineVersions(
      s.storeId,
      real.map((p) => p.id),
    );
    expect(versions.size).toBe(5000);
    expect(new Set(versions.values())).toEqual(new Set([1]));
  }, 120_000);
});
