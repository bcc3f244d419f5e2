import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SimilarityResponse } from "../../widget/src/api/types.ts";
import { demoProducts } from "./support/demo-products.ts";
import { getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";

/*
 * GET /similarity answers the same on both engines: the model runs in the service, and the engines only answer
 * the set's page (an ids filter, a pinned order, facets), which the conformance suite covers. Here the real
 * server runs once on the embedded engine and once on the Typesense stand-in, over the same demo products.
 */

const products = demoProducts(400);
const cluster = new DocumentedCluster();
let node: { url: string; stop: () => Promise<void> };
let embedded: TestServer;
let typesense: TestServer;

beforeAll(async () => {
  node = cluster.serve();
  [embedded, typesense] = await Promise.all([startTestServer(), startTestServer({ TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY })]);
  await Promise.all([indexProducts(embedded, products), indexProducts(typesense, products)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([embedded?.stop(), typesense?.stop()]);
  await node?.stop();
});

const similar = async (s: TestServer, params: Record<string, string | number>) => (await getJson<SimilarityResponse>(s, "/similarity", params)).body;
const view = (r: SimilarityResponse) => ({
  total: r.totalProductCount,
  ids: r.products.map((p) => p.product.productId),
  facets: r.facets.map((f) => ({ key: f.key, values: f.values.map((v) => `${v.key}:${v.count}`).sort(), special: f.specialValues })),
  source: r.sourceProduct,
});

test("the same similar products, order, facets and special values on the embedded engine and on Typesense", async () => {
  for (const source of [products[0]!, products[57]!, products[211]!]) {
    const a = await similar(embedded, { productId: source.id, pageSize: 12 });
    expect(a.products.length).toBeGreaterThan(0);
    expect(view(await similar(typesense, { productId: source.id, pageSize: 12 }))).toEqual(view(a));
    const brand = a.facets.find((f) => f.key === "designer")!.values[0]!.key;
    const filtered = { productId: source.id, pageSize: 12, from: 1, facets: `designer:${brand}` };
    expect(view(await similar(typesense, filtered))).toEqual(view(await similar(embedded, filtered)));
  }
});
