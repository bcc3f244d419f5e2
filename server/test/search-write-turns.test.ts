import { afterAll, beforeAll, expect, test } from "bun:test";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";
import { product } from "./support/fixtures.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { eventually, getJson, indexProducts, type SearchBody } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Two parts of the service write a product into search: the indexing worker, and the enrichment sync that adds
 * a finished stage's words. Here the sync's write of a product is held on its way to the Typesense stand-in
 * while the store deletes that product: the deletion must not be undone when the held write lands.
 */

const cluster = new DocumentedCluster();
const node = cluster.serve();
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY });
});
afterAll(async () => {
  await s.stop();
  await node.stop();
});

test("a product deleted while the enrichment sync writes it stays out of search", async () => {
  let imports = 0;
  // The indexing worker's write of the new product is its first import; the sync's, after the text stage, the second.
  const held = cluster.holdImport((body) => body.includes("velvet-1") && ++imports === 2);
  await indexProducts(s, [
    product("velvet-1", { name: "Velvet blazer", brand: "Roadster" }),
    product("plain-1", { name: "Cotton blazer" }),
  ]);
  await held.arrived;
  const res = await s.call("admin", "DELETE", "/1.9/products/velvet-1");
  expect(res.status).toBe(202);
  const { taskId } = (await res.json()) as { taskId: string };
  // Time for the deletion to be applied while the sync's write is held, were the two writers not taking turns.
  const applied = await eventually(
    async () => (await getJson<{ status: string }>(s, `/tasks/${taskId}`, {}, "admin")).body.status !== "pending",
    2_000,
  );
  held.release();
  expect(await s.waitForTask(taskId)).toMatchObject({ status: "complete" });
  expect(await eventually(async () => textStagesInSearch(s.dataDir), 30_000)).toBe(true);
  const found = (await getJson<SearchBody>(s, "/search", { query: "blazer" })).body;
  expect(found.products.map((p) => p.productId)).toEqual(["plain-1"]);
  expect(found.totalProductCount).toBe(1);
  // The deletion waited for the sync's turn.
  expect(applied).toBe(false);
}, 60_000);
