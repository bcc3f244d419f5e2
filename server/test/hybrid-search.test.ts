import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { MAX_SEMANTIC_RISE } from "../src/modules/ranking/result-reranker.ts";
import { bothEngines } from "./support/both-engines.ts";
import { startEmbeddingsStandIn, STAND_IN_KEY, STAND_IN_MODEL, type EmbeddingsStandIn } from "./support/embeddings-stand-in.ts";
import { product } from "./support/fixtures.ts";
import { deleteProduct, getJson, indexProducts, search } from "./support/search-client.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Hybrid search (issue 37) through the real server, on both engines (usearch over SQLite files; Typesense's vector
 * search on the stand-in cluster), with products and queries embedded by a stand-in OpenAI-compatible endpoint
 * (support/embeddings-stand-in.ts: a concept table, so which products are near a query is plain to see). Words
 * still decide what a query matches; vectors move the first results a bounded few places and answer a query whose
 * words find nothing.
 */

const shoe = (id: string, name: string) =>
  product(id, { name, brand: "Stride", categories: ["Footwear", "Shoes", "Sports Shoes"], tags: [] });
const dress = (id: string, name: string) =>
  product(id, { name, brand: "Aura", categories: ["Apparel", "Dress", "Dresses"], gender: "Women", tags: [] });
const watch = (id: string, name: string) =>
  product(id, { name, brand: "Tempo", categories: ["Accessories", "Watches", "Watches"], tags: [] });
const shirt = (id: string, name: string) => product(id, { name, categories: ["Apparel", "Topwear", "Shirts"], tags: [] });

/** Eight products say "summer"; the last indexed says it three ways (summer, floral, beach), nearest the query's meaning. */
const SUMMER = [
  shirt("summer-1", "Summer shirt"),
  watch("summer-2", "Summer watch"),
  shoe("summer-3", "Summer shoe"),
  shirt("summer-4", "Summer tee"),
  watch("summer-5", "Summer chronograph"),
  shoe("summer-6", "Summer sandal"),
  dress("summer-7", "Summer dress"),
  dress("summer-8", "Summer floral beach dress"),
];

const CATALOG: Product[] = [
  shoe("shoe-1", "Pegasus running shoe"),
  shoe("shoe-2", "Court sneaker"),
  shoe("shoe-3", "Trail running shoe"),
  dress("dress-1", "Wrap dress"),
  dress("dress-2", "Party gown"),
  watch("watch-1", "Steel wristwatch"),
  watch("watch-2", "Diver watch"),
  shirt("shirt-1", "Oxford shirt"),
  ...SUMMER,
];

type HybridState = {
  enabled: boolean;
  model?: string;
  vectors?: number;
  syncing?: boolean;
  lastSync?: { embedded: number; removed: number; products: number; error?: string } | null;
};
type Explained = {
  explain: {
    products: {
      productId: string;
      position: number;
      reranking?: { engineRank: number; semantic?: { similarity: number; boost: number } };
    }[];
  };
};

describe("EMBEDDINGS_* settings", () => {
  test("off by default; a URL needs a model; a URL must be http(s)", () => {
    expect(loadConfig({}).embeddings).toBeNull();
    expect(() => loadConfig({ EMBEDDINGS_URL: "http://127.0.0.1:9/v1/embeddings" })).toThrow(ConfigError);
    expect(() => loadConfig({ EMBEDDINGS_URL: "ftp://x/embeddings", EMBEDDINGS_MODEL: "m" })).toThrow(/EMBEDDINGS_URL/);
    expect(
      loadConfig({
        EMBEDDINGS_URL: "https://api.openai.com/v1/embeddings",
        EMBEDDINGS_MODEL: "text-embedding-3-small",
        EMBEDDINGS_DIMENSIONS: "256",
      }).embeddings,
    ).toMatchObject({
      model: "text-embedding-3-small",
      dimensions: 256,
      apiKey: null,
      minSimilarity: 0.3,
    });
  });
});

for (const [engine, engineEnv, stopEngine] of bothEngines()) {
  describe(`hybrid search, ${engine}`, () => {
    let s: TestServer;
    let endpoint: EmbeddingsStandIn;
    let env: Record<string, string>;
    let dataDir: string;
    const sync = async () => (await (await s.call("admin", "POST", "/1.9/hybrid/sync")).json()) as HybridState;

    beforeAll(async () => {
      endpoint = startEmbeddingsStandIn();
      env = { ...(await engineEnv()), EMBEDDINGS_URL: endpoint.url, EMBEDDINGS_MODEL: STAND_IN_MODEL, EMBEDDINGS_API_KEY: STAND_IN_KEY };
      // A directory of the test's own: the server is restarted on it.
      dataDir = tempDir();
      s = await startTestServer(env, dataDir);
      await indexProducts(s, CATALOG);
    }, 60_000);
    afterAll(async () => {
      await s?.stop();
      endpoint.stop();
      await stopEngine();
      rmSync(dataDir, { recursive: true, force: true });
    });

    test("every product is embedded once; the state is the admins' to read", async () => {
      expect((await getJson(s, "/hybrid", {}, "search")).status).toBe(401);
      const state = await sync();
      expect(state).toMatchObject({ enabled: true, model: `${STAND_IN_MODEL}/native`, vectors: CATALOG.length, syncing: false });
      expect(new Set(endpoint.inputs).size).toBe(CATALOG.length);
      expect(endpoint.inputs.length).toBe(CATALOG.length);
      expect(endpoint.inputs.find((t) => t.startsWith("Pegasus running shoe"))).toContain("Category: Footwear, Shoes, Sports Shoes");
      // Nothing changed: nothing is embedded again.
      expect((await sync()).lastSync).toMatchObject({ embedded: 0, removed: 0, products: CATALOG.length });
      expect(endpoint.inputs.length).toBe(CATALOG.length);
    });

    test("a query whose words find nothing is answered by the products nearest its meaning, said as such", async () => {
      // No product says "timepiece", and the store's own words do not know it.
      const body = await search(s, { query: "timepiece", pageSize: 10, returnFacets: true });
      expect({ recovered: body.recovered, fallback: body.fallback }).toEqual({ recovered: true, fallback: true });
      // The watches, and nothing else.
      expect(body.products.map((p) => p.productId).sort()).toEqual(["summer-2", "summer-5", "watch-1", "watch-2"]);
      expect(body.totalProductCount).toBe(4);
      // The recovered set is a result like any other: a filter narrows it, sorts order it.
      expect((await search(s, { query: "timepiece", pageSize: 10, facets: "designer:Tempo" })).totalProductCount).toBe(4);
      expect((await search(s, { query: "timepiece", pageSize: 10, facets: "designer:Stride" })).totalProductCount).toBe(0);
      // Only the nearest: "athletic" brings the running shoes, not every shoe.
      expect((await search(s, { query: "athletic", pageSize: 10 })).products.map((p) => p.productId).sort()).toEqual(["shoe-1", "shoe-3"]);
    });

    test("words still decide the result set: closeness in meaning moves the first results at most MAX_SEMANTIC_RISE places", async () => {
      const { body } = await getJson<Explained>(s, "/search", { query: "summer", pageSize: 20, explain: "true" }, "admin");
      const shown = body.explain.products;
      expect(shown.map((p) => p.productId).sort()).toEqual(SUMMER.map((p) => p.id).sort());
      for (const p of shown) {
        expect(p.reranking?.semantic?.similarity).toBeGreaterThan(0);
        expect(p.reranking!.engineRank - p.position).toBeLessThanOrEqual(MAX_SEMANTIC_RISE);
      }
      const nearest = shown.reduce((a, b) => (b.reranking!.semantic!.similarity > a.reranking!.semantic!.similarity ? b : a));
      expect(nearest.productId).toBe("summer-8");
      expect(nearest.reranking!.semantic!.boost).toBe(1);
      expect(nearest.position).toBeLessThan(nearest.reranking!.engineRank);
      // The shopper's answer is the explained order; sorted by price it is the same set.
      expect((await search(s, { query: "summer", pageSize: 20 })).products.map((p) => p.productId)).toEqual(shown.map((p) => p.productId));
      expect((await search(s, { query: "summer", pageSize: 20, sortBy: "pricea" })).totalProductCount).toBe(SUMMER.length);
    });

    test("vectors follow the catalog: a changed product is embedded again, a deleted one's vector goes", async () => {
      const before = endpoint.inputs.length;
      await indexProducts(s, [{ ...CATALOG[1]!, name: "Court sneaker, white" }, CATALOG[2]!]);
      await deleteProduct(s, "watch-2");
      const state = await sync();
      expect(state.vectors).toBe(CATALOG.length - 1);
      expect(endpoint.inputs.slice(before)).toEqual([expect.stringContaining("Court sneaker, white")]);
    });

    test("an endpoint that fails or answers nonsense costs no search: words answer alone, and the next sync tries again", async () => {
      endpoint.mode = "fail";
      await indexProducts(s, [{ ...CATALOG[0]!, name: "Pegasus running shoe 41" }]);
      const failed = await sync();
      expect(failed.lastSync?.error).toContain("HTTP 503");
      // A query not asked before needs the endpoint: the search is answered without it.
      const plain = await search(s, { query: "wrap dress", pageSize: 10 });
      expect(plain.products.map((p) => p.productId)).toEqual(["dress-1"]);
      expect((await s.call("search", "GET", "/1.9/search?query=gumboots")).status).toBe(200);
      endpoint.mode = "garbage";
      expect((await sync()).lastSync?.error).toContain("embedding is not a list");
      endpoint.mode = "ok";
      const healed = await sync();
      expect(healed.lastSync).toMatchObject({ embedded: 1 });
      expect(healed.lastSync?.error).toBeUndefined();
    });

    test("a restart keeps the vectors: nothing is embedded again, and recovery answers at once", async () => {
      await s.stop();
      const before = endpoint.inputs.length;
      s = await reopenTestServer(s, env);
      expect((await search(s, { query: "timepiece", pageSize: 10 })).recovered).toBe(true);
      expect((await sync()).lastSync).toMatchObject({ embedded: 0, removed: 0 });
      // The only text sent since the restart is the query's (query vectors are kept in memory only).
      expect(endpoint.inputs.slice(before)).toEqual(["timepiece"]);
    }, 60_000);
  });
}

describe("hybrid search off", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await indexProducts(s, CATALOG);
  });
  afterAll(() => s?.stop());

  test("says so, and search has no semantic part", async () => {
    expect((await getJson<HybridState>(s, "/hybrid", {}, "admin")).body).toEqual({ enabled: false });
    const { body } = await getJson<Explained>(s, "/search", { query: "summer", pageSize: 20, explain: "true" }, "admin");
    expect(body.explain.products.every((p) => p.reranking?.semantic === undefined)).toBe(true);
    expect((await search(s, { query: "trainers", pageSize: 10 })).recovered).toBeUndefined();
  });
});
