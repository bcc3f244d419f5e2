import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { wearable } from "./support/fixtures.ts";
import { getJson, indexProducts, queryString } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/* GET /ctl over real HTTP: the contract on both paths, its errors, explain, learning from shoppers, pinned looks. */

interface LookProductBody {
  productId: string;
  gender?: string;
  internalCategory?: string;
  price?: { min: number; max: number; first?: number };
}
interface LooksBody {
  ctlProducts: LookProductBody[][];
  sourceProduct: LookProductBody;
  message?: string;
  details?: { path: string; problem: string }[];
  explain?: { pinned: boolean; pieces: { productId: string; slot: string; score: number; evidence: number; why: string }[] }[];
}

let s: TestServer;

const JEANS = ["Apparel", "Bottomwear", "Jeans"];
const TROUSERS = ["Apparel", "Bottomwear", "Trousers"];
const SHOES = ["Footwear", "Shoes", "Casual Shoes"];

const catalog: Product[] = [
  wearable("source", ["Apparel", "Topwear", "Shirts"], "Navy Blue", 1000),
  wearable("other-shirt", ["Apparel", "Topwear", "Shirts"], "White", 1000),
  wearable("jeans-blue", JEANS, "Blue", 1200),
  wearable("jeans-black", JEANS, "Black", 1100),
  wearable("chinos-beige", TROUSERS, "Beige", 1300),
  wearable("formal-grey", TROUSERS, "Grey", 1500, { tags: ["season:summer", "usage:formal"] }),
  wearable("winter-trousers", TROUSERS, "Black", 1200, { tags: ["season:winter", "usage:casual"] }),
  wearable("skirt", ["Apparel", "Bottomwear", "Skirts"], "Black", 1000, { gender: "Women" }),
  wearable("sold-out-jeans", JEANS, "Black", 1000, {
    skus: [{ variationId: "sold-out-jeans-v", size: "M", price: 1000, availability: "OutOfStock", inventoryQuantity: 0 }],
  }),
  wearable("sneakers-white", SHOES, "White", 2000),
  wearable("loafers-brown", ["Footwear", "Shoes", "Formal Shoes"], "Brown", 2500),
  wearable("sandals-black", ["Footwear", "Sandal", "Sandals"], "Black", 900),
  wearable("heels", ["Footwear", "Shoes", "Heels"], "Black", 2000, { gender: "Women" }),
  wearable("jacket-grey", ["Apparel", "Topwear", "Jackets"], "Grey", 3000),
  wearable("watch-black", ["Accessories", "Watches"], "Black", 4000),
  wearable("lipstick", ["Personal Care", "Lips", "Lipstick"], "Red", 500),
];

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, catalog);
}, 60_000);
afterAll(() => s?.stop());

const looks = (params: Record<string, string>, kind: "search" | "admin" | "analytics" | null = "search") =>
  getJson<LooksBody>(s, "/ctl", params, kind);
const ids = (body: LooksBody) => body.ctlProducts.map((look) => look.map((p) => p.productId));

async function track(events: object[]): Promise<void> {
  const res = await s.call("analytics", "POST", "/1.9/tracking", events);
  expect(res.status).toBeLessThan(300);
}

test("looks complete the source: a bottom and shoes each, of its gender, in stock, never the source or its category", async () => {
  const { status, body } = await looks({ productId: "source" });
  expect(status).toBe(200);
  expect(body.ctlProducts.length).toBeGreaterThanOrEqual(3);
  expect(body.ctlProducts.length).toBeLessThanOrEqual(9);
  const banned = new Set(["source", "other-shirt", "skirt", "heels", "sold-out-jeans", "winter-trousers", "lipstick"]);
  const uses = new Map<string, number>();
  for (const look of body.ctlProducts) {
    const slots = look.map((p) => p.internalCategory);
    expect(slots).toContain("bottom");
    expect(slots).toContain("shoes");
    for (const p of look) {
      expect(banned.has(p.productId)).toBe(false);
      expect(p.gender).toBe("Men");
      expect(p.price?.first).toBe(p.price?.min);
      expect(["bottom", "shoes", "outerwear", "accessory"]).toContain(p.internalCategory!);
      uses.set(p.productId, (uses.get(p.productId) ?? 0) + 1);
    }
  }
  expect(Math.max(...uses.values())).toBeLessThanOrEqual(2);
  expect(body.sourceProduct).toMatchObject({
    productId: "source",
    gender: "Men",
    internalCategory: "top",
    price: { min: 1000, max: 1000, first: 1000 },
  });
});

test("the spec's path without a version answers the same as every versioned one", async () => {
  const versioned = await looks({ productId: "source" });
  const plain = await s.call("search", "GET", `/ctl${queryString({ productId: "source" })}`);
  expect(plain.status).toBe(200);
  expect(ids((await plain.json()) as LooksBody)).toEqual(ids(versioned.body));
  const old = await s.call("search", "GET", `/1.0/ctl${queryString({ productId: "source" })}`);
  expect(ids((await old.json()) as LooksBody)).toEqual(ids(versioned.body));
});

test("errors: no productId 400, an unknown product 404, a product without looks an empty array, keys enforced", async () => {
  const missing = await looks({});
  expect(missing.status).toBe(400);
  expect(missing.body.details?.[0]?.path).toBe("query.productId");
  const badShopper = await looks({ productId: "source", sessionId: "x".repeat(129) });
  expect(badShopper.status).toBe(400);
  expect(badShopper.body.details?.[0]?.path).toBe("query.sessionId");
  expect((await looks({ productId: "source", userId: "u1" })).status).toBe(200);
  const unknown = await looks({ productId: "nope" });
  expect(unknown.status).toBe(404);
  expect(unknown.body.message).toContain("nope");
  const none = await looks({ productId: "lipstick" });
  expect(none.status).toBe(200);
  expect(none.body.ctlProducts).toEqual([]);
  expect((await looks({ productId: "source" }, "analytics")).status).toBe(401);
  expect((await looks({ productId: "source" }, null)).status).toBe(401);
  expect((await looks({ productId: "source", explain: "true" }, "search")).status).toBe(401);
});

test("explain (admin key) says per piece which slot it fills and why", async () => {
  const { status, body } = await looks({ productId: "source", explain: "true" }, "admin");
  expect(status).toBe(200);
  expect(body.explain!.length).toBe(body.ctlProducts.length);
  const piece = body.explain![0]!.pieces[0]!;
  expect(piece.slot).toBe(body.ctlProducts[0]![0]!.internalCategory!);
  expect(piece.why).toContain(`fills "${piece.slot}"`);
  expect(piece.why).toContain("colour: ");
  expect(piece.why).toContain("occasion casual with casual");
  expect(piece.score).toBeGreaterThan(0);
});

test("learns: after orders with the source and a formal trouser, that trouser leads the first look", async () => {
  const before = await looks({ productId: "source", explain: "true" }, "admin");
  expect(before.body.ctlProducts[0]!.map((p) => p.productId)).not.toContain("formal-grey");
  const order = (n: number) => ({
    type: "OrderComplete",
    sessionId: `s${n}`,
    data: {
      orderId: `order-${n}`,
      products: [
        { id: "source", price: 1000, qty: 1 },
        { id: "formal-grey", price: 1500, qty: 1 },
      ],
    },
  });
  // The same order reported twice (OrderComplete and Purchase) counts once.
  await track([order(1), { ...order(1), type: "Purchase" }]);
  const once = await looks({ productId: "source", explain: "true" }, "admin");
  const evidence = once.body.explain!.flatMap((l) => l.pieces).find((p) => p.productId === "formal-grey")?.evidence;
  expect(evidence).toBe(1);
  await track([2, 3, 4, 5, 6].map(order));
  const after = await looks({ productId: "source", explain: "true" }, "admin");
  expect(after.body.ctlProducts[0]!.map((p) => p.productId)).toContain("formal-grey");
  const taught = after.body.explain![0]!.pieces.find((p) => p.productId === "formal-grey")!;
  expect(taught.evidence).toBe(6);
  expect(taught.why).toContain("shoppers paired it with the source");
});

test("look clicks count as evidence, once per session and pair", async () => {
  const click = (sessionId: string) => ({
    type: "CTLPopupProductClick",
    sessionId,
    data: {
      baseProductId: "source",
      relatedProducts: ["jacket-grey"],
      totalProducts: 1,
      selectedProduct: { productId: "jacket-grey", position: 1, internalCategory: "outerwear" },
    },
  });
  await track([click("a"), click("a"), click("b")]);
  const { body } = await looks({ productId: "source", explain: "true" }, "admin");
  const jacket = body.explain!.flatMap((l) => l.pieces).find((p) => p.productId === "jacket-grey");
  expect(jacket?.evidence).toBe(0.6);
});

test("a store pins curated looks (admin): they come first, are checked, read back and removed", async () => {
  const path = "/1.9/ctl/pinned/source";
  const bad = await s.call("admin", "PUT", path, { looks: [["jacket-grey", "ghost"]] });
  expect(bad.status).toBe(400);
  expect(((await bad.json()) as LooksBody).details?.[0]?.path).toBe("body.looks[0][1]");
  expect((await s.call("admin", "PUT", path, { looks: [] })).status).toBe(400);
  expect((await s.call("search", "PUT", path, { looks: [["watch-black"]] })).status).toBe(401);
  expect((await s.call("admin", "PUT", "/1.9/ctl/pinned/ghost", { looks: [["watch-black"]] })).status).toBe(404);

  const put = await s.call("admin", "PUT", path, { looks: [["watch-black", "jacket-grey"]] });
  expect(put.status).toBe(200);
  expect(await (await s.call("admin", "GET", path)).json()).toEqual({ productId: "source", looks: [["watch-black", "jacket-grey"]] });
  const { body } = await looks({ productId: "source", explain: "true" }, "admin");
  expect(ids(body)[0]).toEqual(["watch-black", "jacket-grey"]);
  expect(body.explain![0]!.pinned).toBe(true);
  expect(body.ctlProducts.length).toBeLessThanOrEqual(9);
  expect(body.ctlProducts[0]!.map((p) => p.internalCategory)).toEqual(["watch", "outerwear"]);

  expect((await s.call("admin", "DELETE", path)).status).toBe(204);
  expect((await s.call("admin", "GET", path)).status).toBe(404);
  expect(ids((await looks({ productId: "source" })).body)[0]).not.toEqual(["watch-black", "jacket-grey"]);
});
