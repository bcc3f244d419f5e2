import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { eventually, getJson, indexProducts, search } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Reports over a known sequence of events, sent through POST /tracking and read through GET /reports: every
 * figure is worked out by hand from the definitions in docs/analytics.md ("Reports").
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const ids = (prefix: string, from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}`);
const DE = { region: "DE", language: "de", currency: "eur" };
const US = { region: "US", language: "en", currency: "USD" };

async function track(userId: string | undefined, sessionId: string, events: [string, Record<string, unknown>][]): Promise<void> {
  const res = await s.call(
    "analytics",
    "POST",
    "/1.9/tracking",
    events.map(([type, data]) => ({ type, data, sessionId, ...(userId ? { userId } : {}) })),
  );
  expect(res.status).toBe(200);
}

const report = async <T = Record<string, unknown>>(name: string, params: Record<string, string | number> = {}) => {
  const { status, body } = await getJson<T>(s, `/reports/${name}`, params, "admin");
  if (status !== 200) throw new Error(`${name} answered ${status}: ${JSON.stringify(body)}`);
  return body;
};

beforeAll(async () => {
  // s1 (u1, DE/EUR): searches "Red Shoes", clicks positions 3 and 35 (page 2), adds to cart, orders twice over.
  const redShoes = { query: "Red Shoes", pageSize: 30, ...DE };
  await track("u1", "s1", [
    ["SiteView", { location: "https://shop.example/", ...DE }],
    ["Search", { ...redShoes, productIds: ids("p", 1, 30), totalProducts: 50 }],
    ["ProductClick", { ...redShoes, query: "red  shoes", productIds: ids("p", 1, 30), page: 1, clickProductId: "p3" }],
    ["ProductClick", { ...redShoes, productIds: ids("p", 31, 60), page: 2, clickProductId: "p35" }],
    ["AddToCart", { ...redShoes, productIds: ids("p", 1, 30), page: 1, addProductId: "p3", qty: 2 }],
    [
      "OrderComplete",
      {
        orderId: "o1",
        products: [
          { id: "p3", price: 50, qty: 2 },
          { id: "p9", price: 10 },
        ],
      },
    ],
    [
      "Purchase",
      {
        orderId: "o1",
        products: [
          { id: "p3", price: 50, qty: 2 },
          { id: "p9", price: 10 },
        ],
      },
    ],
  ]);
  // s2 (u2, US/USD): "boots" finds nothing; "jacket" is clicked at 2, and the clicked product is bought.
  await track("u2", "s2", [
    ["Search", { query: "boots", productIds: [], totalProducts: 0, pageSize: 30, ...US }],
    ["Search", { query: "jacket", productIds: ids("j", 1, 10), totalProducts: 10, pageSize: 30, ...US }],
    ["ProductClick", { query: "Jacket", productIds: ids("j", 1, 10), page: 1, pageSize: 30, clickProductId: "j2", ...US }],
    ["Purchase", { orderId: "o2", products: [{ id: "j2", price: 80 }] }],
    ["Purchase", { orderId: "o2", products: [{ id: "j2", price: 80 }] }],
  ]);
  // s3 (no user id, US): searches "jacket", never clicks. s4 clicks "jacket" at 5 without having searched.
  await track(undefined, "s3", [["Search", { query: "jacket", productIds: ids("j", 1, 10), totalProducts: 10, pageSize: 30, ...US }]]);
  await track("u4", "s4", [
    ["ProductClick", { query: "jacket", productIds: ids("j", 1, 10), page: 1, pageSize: 30, clickProductId: "j5", ...US }],
  ]);
  // s5 (no dimensions): "scarf" has results and no click.
  await track("u5", "s5", [["Search", { query: "scarf", productIds: ids("c", 1, 5), totalProducts: 5 }]]);
  // Recommendations.
  await track("u1", "s1", [
    ["ViewSimilarProducts", { productId: "p3" }],
    ["ViewSimilarProducts", { productId: "p9" }],
    ["SimilarProductClick", { similarProductId: "p3", clickProductId: "p4" }],
    ["CTLLoad", { baseProductId: "p3" }],
    ["CTLLoad", { baseProductId: "p9" }],
    ["CTLViewLookClick", { baseProductId: "p3", position: 3 }],
    ["CTLProductClick", { baseProductId: "p3", selectedProduct: { productId: "p7", position: 1 } }],
    ["CTLPopupProductClick", { baseProductId: "p3", selectedProduct: { productId: "p8", position: 2 } }],
  ]);
});

describe("GET /reports/overview", () => {
  test("every figure follows the definitions", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const o = await report<Record<string, unknown> & { daily: Record<string, unknown>[] }>("overview");
    // 5 searches, 1 without results; of the 4 with results 2 clicked (s1, s2), 2 converted (s1 cart, s2 purchase
    // of a clicked product), 1 carted. Positions 3, 35, 2, 5. Users u1 u2 s3 u4 u5; orders o1, o2 once each.
    expect(o).toMatchObject({
      to: today,
      searches: 5,
      users: 5,
      sessions: 5,
      noResultRate: 0.2,
      clickThroughRate: 0.5,
      conversionRate: 0.5,
      addToCartRate: 0.25,
      orders: 2,
      revenue: { EUR: 110, USD: 80 },
      averageClickPosition: 11.25,
    });
    expect(o.daily).toHaveLength(7);
    expect(o.daily.at(-1)).toMatchObject({ date: today, searches: 5, users: 5, orders: 2, revenue: { EUR: 110, USD: 80 } });
    expect(o.daily[0]).toMatchObject({ searches: 0, noResultRate: null, clickThroughRate: null, revenue: {} });
  });

  test("dimension filters: an order counts in its session's region and currency", async () => {
    const us = await report("overview", { region: "US" });
    // boots (none), jacket s2 (clicked, converted), jacket s3; positions 2 and 5; users u2 s3 u4.
    expect(us).toMatchObject({
      searches: 3,
      users: 3,
      noResultRate: 0.3333,
      clickThroughRate: 0.5,
      conversionRate: 0.5,
      addToCartRate: 0,
      orders: 1,
      revenue: { USD: 80 },
      averageClickPosition: 3.5,
    });
    expect(await report("overview", { currency: "EUR" })).toMatchObject({
      searches: 1,
      orders: 1,
      revenue: { EUR: 110 },
      clickThroughRate: 1,
    });
    expect(await report("overview", { language: "fr" })).toMatchObject({ searches: 0, users: 0, revenue: {}, clickThroughRate: null });
  });

  test("a date range before the events is empty; format=csv gives the daily rows", async () => {
    expect(await report("overview", { from: "2020-01-01", to: "2020-01-31" })).toMatchObject({ searches: 0, orders: 0 });
    const res = await s.call("admin", "GET", "/1.9/reports/overview?format=csv");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(8);
    expect(lines[0]).toStartWith(
      '"date","searches","users","sessions","noResultRate","clickThroughRate","conversionRate","addToCartRate","orders","averageClickPosition"',
    );
    expect(lines[7]).toContain(',"5","5","5","0.2","0.5","0.5","0.25","2","11.25",');
  });
});

describe("GET /reports/searches, products, click-positions, recommendations", () => {
  test("searches: most frequent first, with per-query rates; no-results and no-clicks lists", async () => {
    const { searches } = await report<{ searches: unknown[] }>("searches");
    expect(searches).toEqual([
      { query: "jacket", count: 2, clickThroughRate: 0.5, conversionRate: 0.5, averageClickPosition: 3.5, noResultCount: 0 },
      { query: "boots", count: 1, clickThroughRate: null, conversionRate: null, averageClickPosition: null, noResultCount: 1 },
      { query: "red shoes", count: 1, clickThroughRate: 1, conversionRate: 1, averageClickPosition: 19, noResultCount: 0 },
      { query: "scarf", count: 1, clickThroughRate: 0, conversionRate: 0, averageClickPosition: null, noResultCount: 0 },
    ]);
    expect((await report<{ searches: { query: string }[] }>("searches", { filter: "no-results" })).searches.map((q) => q.query)).toEqual([
      "boots",
    ]);
    expect((await report<{ searches: { query: string }[] }>("searches", { filter: "no-clicks" })).searches.map((q) => q.query)).toEqual([
      "scarf",
    ]);
    expect((await report<{ searches: unknown[] }>("searches", { limit: 1 })).searches).toHaveLength(1);
  });

  test("products: clicks, carts, units purchased and revenue per currency", async () => {
    const { products } = await report<{ products: unknown[] }>("products", { sort: "purchases" });
    expect(products).toEqual([
      { productId: "p3", clicks: 1, addToCarts: 1, purchases: 2, revenue: { EUR: 100 } },
      { productId: "j2", clicks: 1, addToCarts: 0, purchases: 1, revenue: { USD: 80 } },
      { productId: "p9", clicks: 0, addToCarts: 0, purchases: 1, revenue: { EUR: 10 } },
    ]);
    const byClicks = (await report<{ products: { productId: string }[] }>("products")).products.map((p) => p.productId);
    expect(byClicks).toEqual(["j2", "j5", "p3", "p35"]);
  });

  test("click-positions: every position clicked, lowest first, no zero rows; limit counts rows, beyond what it left out", async () => {
    expect(await report("click-positions")).toMatchObject({
      clicks: 4,
      averageClickPosition: 11.25,
      positions: [
        { position: 2, clicks: 1 },
        { position: 3, clicks: 1 },
        { position: 5, clicks: 1 },
        { position: 35, clicks: 1 },
      ],
      beyond: 0,
    });
    expect(await report("click-positions", { limit: 2 })).toMatchObject({
      clicks: 4,
      positions: [
        { position: 2, clicks: 1 },
        { position: 3, clicks: 1 },
      ],
      beyond: 2,
    });
  });

  test("recommendations: similar products and complete-the-look views, clicks and View Look positions", async () => {
    const r = await report<{ similarProducts: unknown; completeTheLook: { viewLookPositions: { clicks: number }[] } }>("recommendations");
    expect(r.similarProducts).toEqual({ views: 2, clicks: 1, clickThroughRate: 0.5 });
    expect(r.completeTheLook).toMatchObject({ loads: 2, viewLookClicks: 1, productClicks: 1, popupProductClicks: 1, clickThroughRate: 1 });
    expect(r.completeTheLook.viewLookPositions.map((p) => p.clicks)).toEqual([0, 0, 1, 0, 0, 0, 0, 0, 0]);
  });
});

describe("GET /reports/preprod", () => {
  test("compares the store's searches and clicks with our preprod answers; preprod searches count nowhere else", async () => {
    await indexProducts(
      s,
      ids("j", 1, 10).map((id) => product(id, { name: `Denim jacket ${id}` })),
    );
    for (const query of ["jacket", "boots", "scarf"]) await search(s, { query, preprod: "true", sessionId: "s9" });
    expect(await eventually(async () => (await report<{ comparedQueries: number }>("preprod")).comparedQueries === 3, 5_000)).toBe(true);
    const r = await report<Record<string, unknown> & { queries: unknown[] }>("preprod");
    // jacket (2 searches, ours finds all 10 of theirs), boots (none either side), scarf (theirs 5, ours none).
    expect(r).toMatchObject({
      comparedQueries: 3,
      comparedSearches: 4,
      coverage: 0.8,
      zeroResultRate: { theirs: 0.25, ours: 0.5 },
      clickedInOurTop10: 1,
      clickedInOurTop30: 1,
      overlapAt10: 0.6667,
    });
    expect(r.queries[0]).toEqual({
      query: "jacket",
      searches: 2,
      theirNoResults: 0,
      ourTotal: 10,
      clicks: 2,
      clicksInOurTop10: 2,
      clicksInOurTop30: 2,
      overlapAt10: 1,
    });
    expect(await report("overview")).toMatchObject({ searches: 5, users: 5 });
  });
});

describe("bad requests", () => {
  test("each wrong parameter is named; an unknown report is 404; search and analytics keys are refused", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ from: "2026-13-01" }, "query.from"],
      [{ to: "yesterday" }, "query.to"],
      [{ from: "2026-02-01", to: "2026-01-01" }, "query.from"],
      [{ from: "2020-01-01", to: "2026-01-01" }, "query.from"],
      [{ limit: "0" }, "query.limit"],
      [{ limit: "1e3" }, "query.limit"],
      [{ format: "xml" }, "query.format"],
      [{ region: "x".repeat(65) }, "query.region"],
    ];
    for (const [params, path] of cases) {
      const res = await s.call("admin", "GET", `/1.9/reports/overview?${new URLSearchParams(params)}`);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.[0]?.path).toBe(path);
    }
    const filter = await s.call("admin", "GET", "/1.9/reports/searches?filter=top");
    expect((await errorBody(filter)).details?.[0]?.path).toBe("query.filter");
    const unknown = await s.call("admin", "GET", "/1.9/reports/funnel");
    expect(unknown.status).toBe(404);
    expect((await errorBody(unknown)).message).toContain("overview, searches, products, click-positions, recommendations, preprod");
    for (const kind of ["search", "analytics", null] as const)
      expect((await s.call(kind, "GET", "/1.9/reports/overview")).status).toBe(401);
  });

  test("CSV cells a spreadsheet would run as formulas are defused, and every cell is quoted", async () => {
    await track("u6", "s6", [["Search", { query: '=HYPERLINK("http://x","y")', productIds: [], totalProducts: 0 }]]);
    await track("u7", "s7", [["Search", { query: "x;=1+1;", productIds: [], totalProducts: 0 }]]);
    const csv = await (await s.call("admin", "GET", "/1.9/reports/searches?format=csv&filter=no-results")).text();
    expect(csv).toContain(`"'=hyperlink(""http://x"",""y"")","1",,,,"1"`);
    // Split on `;` as a continental spreadsheet would: the formula stays inside one quoted cell.
    const line = csv.split("\r\n").find((l) => l.includes("x;=1+1;"))!;
    expect(line).toStartWith(`"x;=1+1;",`);
  });
});
