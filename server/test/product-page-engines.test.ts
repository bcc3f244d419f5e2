import { afterAll, beforeAll, expect, test } from "bun:test";
import type { SimilarityResponse } from "@storefront-search/contract";
import { demoProducts } from "./support/demo-products.ts";
import { deleteProduct, getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";

/*
 * GET /similarity and GET /ctl answer the same on both engines: their models run in the service, and the engines
 * only answer an ids filter (with a pinned order and facets for similar products), which the conformance suite
 * covers. Here the real server runs once on the embedded engine and once on the Typesense stand-in, over the
 * same demo products.
 */

const products = demoProducts(400);
const cluster = new DocumentedCluster();
let node: { url: string; stop: () => Promise<void> };
let embedded: TestServer;
let typesense: TestServer;

beforeAll(async () => {
  node = cluster.serve();
  [embedded, typesense] = await Promise.all([
    startTestServer(),
    startTestServer({ TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY }),
  ]);
  await Promise.all([indexProducts(embedded, products), indexProducts(typesense, products)]);
}, 60_000);
afterAll(async () => {
  await Promise.all([embedded?.stop(), typesense?.stop()]);
  await node?.stop();
});

const similar = async (s: TestServer, params: Record<string, string | number>) =>
  (await getJson<SimilarityResponse>(s, "/similarity", params)).body;
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

interface LooksBody {
  ctlProducts: { productId: string; internalCategory?: string; price?: { first?: number } }[][];
  sourceProduct: { productId: string };
}
const looks = async (s: TestServer, productId: string) => (await getJson<LooksBody>(s, "/ctl", { productId })).body;
const lookIds = (r: LooksBody) => r.ctlProducts.map((look) => look.map((p) => `${p.internalCategory}:${p.productId}`));

test("the same looks on the embedded engine and on Typesense, and a deleted piece leaves both", async () => {
  const sources = products.filter((_, i) => i % 40 === 0).slice(0, 6);
  const answered: { id: string; first: LooksBody }[] = [];
  for (const source of sources) {
    const a = await looks(embedded, source.id);
    expect(lookIds(await looks(typesense, source.id))).toEqual(lookIds(a));
    if (a.ctlProducts.length) answered.push({ id: source.id, first: a });
  }
  expect(answered.length).toBeGreaterThanOrEqual(3);
  const { id: sourceId, first: before } = answered[0]!;
  const piece = before.ctlProducts[0]![0]!.productId;
  await Promise.all([deleteProduct(embedded, piece), deleteProduct(typesense, piece)]);
  const [afterA, afterB] = await Promise.all([looks(embedded, sourceId), looks(typesense, sourceId)]);
  expect(
    lookIds(afterA)
      .flat()
      .some((id) => id.endsWith(`:${piece}`)),
  ).toBe(false);
  expect(lookIds(afterB)).toEqual(lookIds(afterA));
});
