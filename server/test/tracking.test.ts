import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EVENT_REQUIRED_FIELDS, EVENT_TYPES, LOCALE_EVENT_TYPES } from "@storefront-search/contract";
import { EVENT_DATA } from "../src/modules/tracking/event-schemas.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const listing = {
  query: "linen shirt",
  productIds: ["p1", "p2"],
  facets: [{ key: "designer", value: "Roadster" }],
  pageSize: 30,
  sortBy: "pricea",
  region: "IN",
  language: "en",
  currency: "INR",
};
const ctl = { ...listing, baseProductId: "p1", relatedProducts: ["p2", "p3"], totalProducts: 2 };
const order = { orderId: "o-1", products: [{ id: "p1", price: 999, qty: 2 }] };

/** One valid event per type, with the spec's full field set. */
const VALID: Record<string, Record<string, unknown>> = {
  SiteView: {
    location: "https://shop.example/",
    referrer: "https://search.example/",
    userAgent: "UA",
    region: "IN",
    language: "en",
    currency: "INR",
  },
  Search: { ...listing, totalProducts: 120 },
  PageChange: { ...listing, page: 2 },
  SortByChange: listing,
  ProductClick: { ...listing, page: 1, clickProductId: "p2" },
  PromotionClick: { ...listing, page: 1, promotions: ["summer"], clickPromotionId: "summer" },
  AddToCart: { ...listing, page: 1, totalProducts: 120, addProductId: "p1", qty: 1 },
  OrderComplete: order,
  Purchase: order,
  ViewSimilarProducts: { productId: "p1" },
  SimilarProductClick: { similarProductId: "p1", clickProductId: "p9" },
  CTLLoad: ctl,
  CTLViewLookClick: { ...ctl, position: 3 },
  CTLProductClick: { ...ctl, selectedProduct: { productId: "p2", position: 1, internalCategory: "shoes" } },
  CTLPopupProductClick: { ...ctl, selectedProduct: { productId: "p3", position: 2, internalCategory: "bags" } },
  CTLPageChange: { ...ctl, pageTo: 2, pageFrom: 1 },
  CTLPopupPageChange: { ...ctl, pageTo: 1, pageFrom: 2 },
};

interface ReadEvent {
  type: string;
  userId: string | null;
  sessionId: string | null;
  data: Record<string, unknown>;
  apiVersion: string;
}

async function readAll(query = ""): Promise<ReadEvent[]> {
  const out: ReadEvent[] = [];
  let cursor: string | null = null;
  do {
    const res = await s.call("admin", "GET", `/1.9/events?limit=7${query}${cursor ? `&cursor=${cursor}` : ""}`);
    const page = (await res.json()) as { events: ReadEvent[]; nextCursor: string | null };
    out.push(...page.events);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

describe("POST /tracking", () => {
  test("accepts each of the 17 event types with its spec fields, stored as sent", async () => {
    expect(Object.keys(VALID)).toHaveLength(17);
    for (const [type, data] of Object.entries(VALID)) {
      const res = await s.call("analytics", "POST", "/1.6/tracking", { type, data, userId: "u1", sessionId: "s1", storeId: s.storeId });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: true, result: "success" });
    }
    const stored = await readAll();
    expect(stored.map((e) => e.type)).toEqual(Object.keys(VALID));
    for (const e of stored) {
      expect(e.data).toEqual(VALID[e.type]!);
      expect(e).toMatchObject({ userId: "u1", sessionId: "s1", apiVersion: "1.6" });
    }
  });

  test("a batch is stored whole, or not at all when one event is invalid", async () => {
    const before = (await readAll()).length;
    const bad = await s.call("analytics", "POST", "/1.0/tracking", [
      { type: "SiteView", data: {} },
      { type: "ProductClick", data: { page: "two", clickProductId: "p1" } },
    ]);
    expect(bad.status).toBe(400);
    const body = await errorBody(bad);
    expect(body.details).toContainEqual({ path: "body[1].data.page", problem: "expected number" });
    expect((await readAll()).length).toBe(before);
    const ok = await s.call("analytics", "POST", "/1.0/tracking", [
      { type: "SiteView", data: {} },
      { type: "ViewSimilarProducts", data: { productId: "p1" } },
    ]);
    expect(ok.status).toBe(200);
    expect((await readAll()).length).toBe(before + 2);
  });

  test("unknown type, missing required field, out-of-range position: 400 with the field path", async () => {
    const cases: [unknown, string][] = [
      [{ type: "Nope", data: {} }, "body.type"],
      [{ type: "AddToCart", data: { qty: 1 } }, "body.data.addProductId"],
      [{ type: "CTLViewLookClick", data: { position: 10 } }, "body.data.position"],
      [{ type: "OrderComplete", data: { orderId: "o", products: [{ id: "p", qty: "2" }] } }, "body.data.products[0].qty"],
      [{ type: "Search" }, "body.data"],
      [{ type: "SiteView", data: {}, userId: "someone@example.com" }, "body.userId"],
      [{ type: "Search", data: { experimentId: "exp_nope" } }, "body.data.experimentId"],
      [{ type: "Search", data: { variant: "v".repeat(101) } }, "body.data.variant"],
      [{ type: "ProductClick", data: { clickProductId: "p", interleavedFrom: "C" } }, "body.data.interleavedFrom"],
    ];
    for (const [event, path] of cases) {
      const res = await s.call("analytics", "POST", "/1.0/tracking", event);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.map((d) => d.path)).toContain(path);
    }
  });

  test("version 1.8 spellings UserId/SessionId are accepted and stored as userId/sessionId", async () => {
    const res = await s.call("analytics", "POST", "/1.8/tracking", { type: "SiteView", data: {}, UserId: "cap1", SessionId: "cap2" });
    expect(res.status).toBe(200);
    const last = (await readAll("&type=SiteView")).at(-1)!;
    expect(last).toMatchObject({ userId: "cap1", sessionId: "cap2" });
    const clash = await s.call("analytics", "POST", "/1.8/tracking", { type: "SiteView", data: {}, userId: "a", UserId: "b" });
    expect(clash.status).toBe(400);
  });

  test("a storeId in the body that differs from the header is rejected", async () => {
    const res = await s.call("analytics", "POST", "/1.0/tracking", { type: "SiteView", data: {}, storeId: "another" });
    expect(res.status).toBe(400);
    expect((await errorBody(res)).details?.[0]?.path).toBe("body.storeId");
  });

  test("fields the spec does not list are dropped, not stored", async () => {
    await s.call("analytics", "POST", "/1.0/tracking", { type: "ViewSimilarProducts", data: { productId: "p7", email: "x@y.z" } });
    const last = (await readAll("&type=ViewSimilarProducts")).at(-1)!;
    expect(last.data).toEqual({ productId: "p7" });
  });

  test("batches are bounded", async () => {
    const many = Array.from({ length: 501 }, () => ({ type: "SiteView", data: {} }));
    expect((await s.call("analytics", "POST", "/1.0/tracking", many)).status).toBe(400);
    expect((await s.call("analytics", "POST", "/1.0/tracking", [])).status).toBe(400);
  });
});

describe("the event schemas and the contract", () => {
  test("each type's schema requires the contract's fields, and takes region, language and currency where the contract says", () => {
    expect(Object.keys(EVENT_DATA)).toEqual(EVENT_TYPES);
    for (const type of EVENT_TYPES) {
      const schema = EVENT_DATA[type];
      expect([...(schema.required ?? [])].sort(), type).toEqual([...EVENT_REQUIRED_FIELDS[type]].sort());
      const locale = ["region", "language", "currency"].map((field) => field in schema.properties);
      expect(locale, type).toEqual([0, 1, 2].map(() => LOCALE_EVENT_TYPES.has(type)));
    }
  });
});

describe("GET /events", () => {
  test("filters by time range and type, pages without gaps or repeats", async () => {
    const all = await readAll();
    expect(new Set(all.map((e) => JSON.stringify(e))).size).toBe(all.length);
    const future = await s.call("admin", "GET", `/1.0/events?from=${Date.now() + 60_000}`);
    expect(((await future.json()) as { events: unknown[] }).events).toEqual([]);
    const iso = await s.call("admin", "GET", `/1.0/events?from=2020-01-01T00:00:00.000Z&type=Purchase`);
    expect(((await iso.json()) as { events: { type: string }[] }).events.map((e) => e.type)).toEqual(["Purchase"]);
    for (const bad of ["from=yesterday", "limit=0", "limit=1001", "cursor=-1", "type=Nope"]) {
      const res = await s.call("admin", "GET", `/1.0/events?${bad}`);
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.[0]?.path).toStartWith("query.");
    }
  });
});
