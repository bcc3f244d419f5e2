import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { MAX_MULTI_SEARCH_REQUESTS } from "@storefront-search/contract";
import { demoProducts } from "./support/demo-products.ts";
import { bothEngines } from "./support/both-engines.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { eventually, indexProducts, search, type Params, type SearchBody } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * POST /multi-search on the real server over real demo products: each answer is what GET /search answers for the
 * same parameters, a bad item is named by its index, the number of searches and the body are capped, the key
 * rules are search's, and only shoppers' searches are logged.
 */

let s: TestServer;

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, demoProducts(1500));
  // The text enrichment's words reach search after indexing: the comparisons must not see them arrive between calls.
  expect(await eventually(async () => textStagesInSearch(s.dataDir), 90_000, 100)).toBe(true);
}, 180_000);
afterAll(() => s?.stop());

const multiSearch = (requests: unknown, kind: "search" | "admin" | "analytics" | null = "search", headers: Record<string, string> = {}) =>
  s.call(kind, "POST", "/1.9/multi-search", { requests }, headers);

async function results(requests: Params[]): Promise<SearchBody[]> {
  const res = await multiSearch(requests);
  expect(res.status).toBe(200);
  const body = (await res.json()) as { results: SearchBody[] };
  expect(body.results).toHaveLength(requests.length);
  return body.results;
}

function loggedSearches(): { query: string | null; resultCount: number }[] {
  const db = new Database(`${s.dataDir}/service.db`, { readonly: true });
  try {
    return db.query("SELECT query, result_count AS resultCount FROM search_log ORDER BY seq").all() as {
      query: string | null;
      resultCount: number;
    }[];
  } finally {
    db.close();
  }
}

/** Searches are written to the log in batches every 250 ms. */
const logSettled = () => Bun.sleep(400);

describe("answers", () => {
  test("N searches in one call answer, in order, what N calls of GET /search answer", async () => {
    const requests: Params[] = [
      { query: "shirt", pageSize: 5 },
      { query: "blue jeans", returnFacets: true, pageSize: 10, from: 10 },
      { query: "shoes", sortBy: "pricea", pageSize: 8 },
      { query: "dress", facets: "gender:Women,price:500-2000", returnFacets: true, pageSize: 4 },
      { browse: true, pageSize: 3 },
    ];
    const batched = await results(requests);
    const single = await Promise.all(requests.map((r) => search(s, r)));
    expect(batched).toEqual(single);
    expect(batched.every((r) => r.totalProductCount > 0)).toBe(true);
    expect(batched.map((r) => r.products.length)).toEqual([5, 10, 8, 4, 3]);
  });

  test("pageSize 0 answers the count and the facets of the same search, without products", async () => {
    const params = { query: "shirt", facets: "designer:Roadster", returnFacets: true };
    const [countOnly] = await results([{ ...params, pageSize: 0 }]);
    const full = await search(s, { ...params, pageSize: 1 });
    expect(countOnly!.products).toEqual([]);
    expect(countOnly!.totalProductCount).toBe(full.totalProductCount);
    expect(countOnly!.facets).toEqual(full.facets);
    expect(countOnly!.facets.length).toBeGreaterThan(0);
  });
});

describe("count-only items under a rule's pins", () => {
  test("the count and facets are those of the page a shopper would see", async () => {
    const pinned = demoProducts(1500)[7]!.id;
    const rule = { conditions: [{ pattern: "shirt", anchoring: "contains" }], consequence: { pins: [{ productId: pinned, position: 1 }] } };
    expect((await s.call("admin", "PUT", "/1.9/rules/ms-pin", rule)).status).toBe(200);
    try {
      const params = { query: "shirt", returnFacets: true };
      const [countOnly] = await results([{ ...params, pageSize: 0 }]);
      const page = await search(s, { ...params, pageSize: 1 });
      expect(page.products.map((p) => p.productId)).toEqual([pinned]);
      expect(countOnly!.products).toEqual([]);
      expect(countOnly!.totalProductCount).toBe(page.totalProductCount);
      expect(countOnly!.facets).toEqual(page.facets);
    } finally {
      await s.call("admin", "DELETE", "/1.9/rules/ms-pin");
    }
  });
});

describe("bad requests", () => {
  test("a bad item is a 400 whose message and detail path name its index; no search runs", async () => {
    await logSettled();
    const before = loggedSearches().length;
    const res = await multiSearch([{ query: "shirt" }, { query: "jeans" }, { query: "shoes", pageSize: 500 }]);
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.code).toBe("invalid_request");
    expect(body.message).toContain("requests[2]");
    expect(body.details?.[0]?.path).toBe("body.requests[2].pageSize");
    await logSettled();
    expect(loggedSearches().length).toBe(before);
  });

  test.each([
    [[{ query: "a" }, "shirt"], "body.requests[1]"],
    [[{ query: "a" }, { query: { nested: true } }], "body.requests[1].query"],
    [[{ pageSize: 5 }], "body.requests[0].query"],
    [[{ query: "shirt", facets: "nokey:x" }], "body.requests[0].facets"],
    [[{ query: "shirt", sortBy: "cheapest" }], "body.requests[0].sortBy"],
  ])("%j is a 400 naming %s", async (requests, path) => {
    const res = await multiSearch(requests);
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0]?.path).toBe(path);
  });

  test("a body without a requests array, or with none, is a 400 naming body.requests", async () => {
    for (const body of [{}, { requests: [] }, { requests: { query: "x" } }, []]) {
      const res = await s.call("search", "POST", "/1.9/multi-search", body);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.[0]?.path).toBe("body.requests");
    }
    const notJson = await s.call("search", "POST", "/1.9/multi-search", "{not json");
    expect(notJson.status).toBe(400);
    expect((await errorBody(notJson)).code).toBe("invalid_json");
  });

  test(`at most ${MAX_MULTI_SEARCH_REQUESTS} searches per call`, async () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ query: "shirt", pageSize: 1, from: i, analytics: false }));
    expect((await results(many(MAX_MULTI_SEARCH_REQUESTS))).length).toBe(MAX_MULTI_SEARCH_REQUESTS);
    const res = await multiSearch(many(MAX_MULTI_SEARCH_REQUESTS + 1));
    expect(res.status).toBe(400);
    const body = await errorBody(res);
    expect(body.message).toContain(String(MAX_MULTI_SEARCH_REQUESTS));
    expect(body.details?.[0]?.path).toBe("body.requests");
  });

  test("a body over 256 KiB is a 413", async () => {
    const res = await multiSearch([{ query: "shirt", campaignProducts: "x".repeat(300 * 1024) }]);
    expect(res.status).toBe(413);
    expect((await errorBody(res)).code).toBe("payload_too_large");
  });
});

describe("keys", () => {
  test("search's key rules: a search key, or an admin key from a server; not an analytics key, nor an admin key in a browser", async () => {
    const one = [{ query: "shirt", pageSize: 1, analytics: false }];
    expect((await multiSearch(one, "search")).status).toBe(200);
    expect((await multiSearch(one, "admin")).status).toBe(200);
    expect((await multiSearch(one, "analytics")).status).toBe(401);
    expect((await multiSearch(one, null)).status).toBe(401);
    expect((await multiSearch(one, "admin", { origin: "https://shop.example" })).status).toBe(401);
  });

  test("pages on other origins may call it (CORS), within the store's allowed origins", async () => {
    const pre = await fetch(`${s.url}/1.9/multi-search`, {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-service-store-id, x-service-api-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    const one = [{ query: "shirt", pageSize: 1, analytics: false }];
    expect((await multiSearch(one, "search", { origin: "https://shop.example" })).headers.get("access-control-allow-origin")).toBe(
      "https://shop.example",
    );
    expect((await s.call("admin", "PATCH", "/1.9/settings", { allowedOrigins: ["https://shop.example"] })).status).toBe(200);
    try {
      expect((await multiSearch(one, "search", { origin: "https://shop.example" })).status).toBe(200);
      const foreign = await multiSearch(one, "search", { origin: "https://elsewhere.example" });
      expect(foreign.status).toBe(403);
      expect((await errorBody(foreign)).code).toBe("origin_not_allowed");
    } finally {
      await s.call("admin", "PATCH", "/1.9/settings", { allowedOrigins: null });
    }
  });

  test("explain stays the admin key's", async () => {
    const explained = [{ query: "shirt", pageSize: 1, explain: true }];
    expect((await multiSearch(explained, "search")).status).toBe(401);
    const res = await multiSearch(explained, "admin");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: { explain?: unknown }[] }).results[0]!.explain).toBeDefined();
  });
});

describe("search log", () => {
  test("the shopper's query is logged once; count-only items and analytics: false are not", async () => {
    await logSettled();
    const before = loggedSearches().length;
    const [hits] = await results([
      { query: "Blue Jeans", facets: "designer:Roadster", returnFacets: true, pageSize: 12 },
      { query: "Blue Jeans", returnFacets: true, pageSize: 0 },
      { query: "Blue Jeans", facets: "gender:Men", returnFacets: true, pageSize: 0 },
      { query: "kurta", pageSize: 12, analytics: false },
      { browse: true, pageSize: 12 },
    ]);
    await logSettled();
    expect(loggedSearches().slice(before)).toEqual([{ query: "blue jeans", resultCount: hits!.totalProductCount }]);
  });

  test("GET /search takes analytics=false too, and still refuses pageSize 0", async () => {
    await logSettled();
    const before = loggedSearches().length;
    expect((await search(s, { query: "shirt", analytics: false, pageSize: 2 })).products).toHaveLength(2);
    const zero = await s.call("search", "GET", "/1.9/search?query=shirt&pageSize=0");
    expect(zero.status).toBe(400);
    await logSettled();
    expect(loggedSearches().length).toBe(before);
  });
});

describe("rate limit", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_BROWSER_PER_SECOND: "1", RATE_LIMIT_BROWSER_BURST: "10", TRUST_PROXY: "true" });
  });
  afterAll(() => limited?.stop());

  const from = (address: string) => ({ "x-forwarded-for": address });
  const searches = (n: number) => ({ requests: Array.from({ length: n }, () => ({ query: "shirt", pageSize: 1 })) });

  test("each search a call carries is charged to the client's request limit", async () => {
    expect((await limited.call("search", "POST", "/1.9/multi-search", searches(10), from("198.51.100.1"))).status).toBe(200);
    const after = await limited.call("search", "GET", "/1.9/search?query=shirt", undefined, from("198.51.100.1"));
    expect(after.status).toBe(429);
    const over = await limited.call("search", "POST", "/1.9/multi-search", searches(11), from("198.51.100.2"));
    expect(over.status).toBe(429);
    expect((await errorBody(over)).message).toContain("11 searches in one call");
  });
});

for (const [engine, engineEnv, stopEngine] of bothEngines()) {
  describe(`on the ${engine}`, () => {
    let e: TestServer;
    beforeAll(async () => {
      e = await startTestServer(await engineEnv());
      await indexProducts(e, demoProducts(300));
      expect(await eventually(async () => textStagesInSearch(e.dataDir), 90_000, 100)).toBe(true);
    }, 180_000);
    afterAll(async () => {
      await e?.stop();
      await stopEngine();
    });

    test("a call's answers are GET /search's, count-only items included", async () => {
      const requests: Params[] = [
        { query: "shirt", returnFacets: true, pageSize: 6 },
        { query: "shirt", facets: "gender:Men", returnFacets: true, pageSize: 0 },
        { query: "jeans", sortBy: "priced", pageSize: 4, from: 2 },
      ];
      const res = await e.call("search", "POST", "/1.9/multi-search", { requests });
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: SearchBody[] };
      const single = await Promise.all(requests.map((r) => search(e, { ...r, pageSize: r.pageSize || 1 })));
      expect(results[0]).toEqual(single[0]!);
      expect(results[2]).toEqual(single[2]!);
      expect({ ...results[1]!, products: undefined }).toEqual({ ...single[1]!, products: undefined });
      expect(results[1]!.products).toEqual([]);
      expect(results.every((r) => r.totalProductCount > 0)).toBe(true);
    });
  });
}
