import { afterAll, beforeAll, expect, test } from "bun:test";
import type { StoreKeys } from "../src/modules/stores/store-admin.ts";
import { product } from "./support/fixtures.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { until } from "./support/webhook-support.ts";

/*
 * Stores take turns at the indexing worker: while store A's 50,000-product bulk is being indexed, store B's single
 * product is applied within a second of its POST, and A's bulk still ends with every product at version 1.
 */

const A_PRODUCTS = 50_000;
const PER_REQUEST = 10_000;
const B_STORE = "store-b";

let server: TestServer;
let bKeys: StoreKeys;
beforeAll(async () => {
  server = await startTestServer();
  bKeys = await server.createStore(B_STORE);
});
afterAll(() => server.stop());

const asB = (kind: keyof StoreKeys) => ({ "x-service-store-id": B_STORE, "x-service-api-key": bKeys[kind] });
const taskStatus = async (taskId: string, headers: Record<string, string> = {}) =>
  ((await (await server.call("admin", "GET", `/1.9/tasks/${taskId}`, undefined, headers)).json()) as { status: string }).status;

test("one store's bulk does not hold back another store's product", async () => {
  const aTasks: string[] = [];
  for (let start = 0; start < A_PRODUCTS; start += PER_REQUEST) {
    const bulk = Array.from({ length: PER_REQUEST }, (_, i) => product(`a-${start + i}`, { description: `Bulk item ${start + i}` }));
    const res = await server.call("admin", "POST", "/1.9/products", bulk);
    expect(res.status).toBe(202);
    aTasks.push(((await res.json()) as { taskId: string }).taskId);
  }

  const res = await server.call("admin", "POST", "/1.9/products", product("b-1", { name: "Store B only" }), asB("admin"));
  expect(res.status).toBe(202);
  const bTask = ((await res.json()) as { taskId: string }).taskId;
  // Fair whatever the machine's speed: B's one product is done while A's last bulk has not even started.
  await until(async () => (await taskStatus(bTask, asB("admin"))) === "complete" || null, 30_000, "B's task to complete");
  expect(await taskStatus(aTasks.at(-1)!)).toBe("pending");

  const search = await server.call("search", "GET", "/1.9/search?query=store%20b%20only", undefined, asB("search"));
  const found = (await search.json()) as { products: { productId: string }[] };
  expect(found.products.map((p) => p.productId)).toEqual(["b-1"]);

  for (const id of aTasks) expect(await server.waitForTask(id, 120_000)).toMatchObject({ status: "complete" });
  expect(await server.service.engineCount(server.storeId)).toBe(A_PRODUCTS);
  const sample = ["a-0", "a-12345", `a-${A_PRODUCTS - 1}`];
  expect(Object.fromEntries(await server.service.engineVersions(server.storeId, sample))).toEqual(
    Object.fromEntries(sample.map((id) => [id, 1])),
  );
  for (const id of sample) {
    const entry = (await (await server.call("admin", "GET", `/1.9/products/${id}`)).json()) as { version: number };
    expect(entry.version).toBe(1);
  }
  expect(await server.service.engineCount(B_STORE)).toBe(1);
}, 180_000);
