import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import type { SimilarityResponse } from "@storefront-search/contract";
import { product } from "./support/fixtures.ts";
import { deleteProduct, eventually, getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/* GET /similarity over real HTTP: the contract, its errors, the facets filter and special values, and change. */

let s: TestServer;

const shirt = (id: string, brand: string, colour: string, price: number, extra: Partial<Product> = {}) =>
  product(id, {
    name: `${brand} Men ${colour} Slim Fit Casual Shirt ${id}`,
    brand,
    description: "Cotton casual shirt with a spread collar",
    variations: [{ id: `${id}-v`, name: colour }],
    media: [{ url: `https://img.example/${id}.jpg`, variationId: `${id}-v` }],
    skus: [{ variationId: `${id}-v`, size: "M", price, availability: "InStock", inventoryQuantity: 3 }],
    ...extra,
  });

const catalog: Product[] = [
  shirt("source", "Roadster", "Navy Blue", 1000, {
    variations: [
      { id: "source-navy", name: "Navy Blue" },
      { id: "source-red", name: "Red" },
    ],
    media: [
      { url: "https://img.example/source-navy.jpg", variationId: "source-navy" },
      { url: "https://img.example/source-red.jpg", variationId: "source-red" },
    ],
  }),
  shirt("r-blue", "Roadster", "Blue", 900),
  shirt("h-navy", "Highlander", "Navy Blue", 1100),
  shirt("h-red", "Highlander", "Red", 700),
  shirt("w-maroon", "Wrogn", "Maroon", 1500),
  shirt("w-blue", "Wrogn", "Blue", 800),
  shirt("women-blue", "Roadster", "Blue", 1000, { gender: "Women" }),
  product("sneaker", { name: "Roadster Men White Sneakers", categories: ["Footwear", "Shoes", "Casual Shoes"] }),
];

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, catalog);
}, 60_000);
afterAll(() => s?.stop());

const similar = (params: Record<string, string | number>, kind: "search" | "admin" | "analytics" | null = "search") =>
  getJson<
    SimilarityResponse & { message?: string; explain?: { productId: string; score: number; contributions: Record<string, number> }[] }
  >(s, "/similarity", params, kind);

test("the similar set: same kind, compatible gender, never the source, with price.first and the source product", async () => {
  const { status, body } = await similar({ productId: "source" });
  expect(status).toBe(200);
  const ids = body.products.map((p) => p.product.productId);
  expect(new Set(ids)).toEqual(new Set(["r-blue", "h-navy", "h-red", "w-maroon", "w-blue"]));
  expect(body.totalProductCount).toBe(5);
  expect(ids[0]).toBe("h-navy"); // the same colour, the same kind, a near price
  expect(body.products[0]!.product.price).toEqual({ min: 1100, max: 1100, first: 1100 });
  expect(body.sourceProduct).toEqual({ productId: "source", image: "https://img.example/source-navy.jpg", name: catalog[0]!.name });
});

test("the variant's colour pulls same-coloured products forward, and names the source image", async () => {
  const { body } = await similar({ productId: "source", variantId: "source-red" });
  expect(
    body.products
      .slice(0, 2)
      .map((p) => p.product.productId)
      .sort(),
  ).toEqual(["h-red", "w-maroon"]);
  expect(body.sourceProduct.image).toBe("https://img.example/source-red.jpg");
});

test("facets with special values; a selection filters the set with search's syntax; pages", async () => {
  const all = (await similar({ productId: "source" })).body;
  const designer = all.facets.find((f) => f.key === "designer")!;
  expect(designer.specialValues).toEqual([{ key: "Roadster", name: "Same brand", count: 1 }]);
  expect(all.facets.find((f) => f.key === "color")!.specialValues).toEqual([{ key: "Navy Blue", name: "Same colour", count: 1 }]);
  expect(all.facets.find((f) => f.key === "price")!.specialValues).toEqual([
    { key: "0-1000", name: "Lower price", count: 3, lb: 0, ub: 1000 },
  ]);
  for (const f of all.facets) expect(Array.isArray(f.specialValues)).toBe(true);

  const wrogn = (await similar({ productId: "source", facets: "designer:Wrogn" })).body;
  expect(wrogn.products.map((p) => p.product.productId).sort()).toEqual(["w-blue", "w-maroon"]);
  // Disjunctive, as in search: the designer facet still counts the other brands.
  expect(
    wrogn.facets
      .find((f) => f.key === "designer")!
      .values.map((v) => v.key)
      .sort(),
  ).toEqual(["Highlander", "Roadster", "Wrogn"]);
  const cheaper = (await similar({ productId: "source", facets: "price:0-1000" })).body;
  expect(cheaper.products.map((p) => p.product.productId).sort()).toEqual(["h-red", "r-blue", "w-blue"]);

  const page = (await similar({ productId: "source", from: 2, pageSize: 2 })).body;
  expect(page.products.map((p) => p.product.productId)).toEqual(all.products.slice(2, 4).map((p) => p.product.productId));
  expect(page.totalProductCount).toBe(5);
});

test("400 without productId or with bad paging, 404 for an unknown product, 401 without a search key", async () => {
  const missing = await similar({});
  expect(missing.status).toBe(400);
  expect(missing.body.message).toContain("productId");
  expect((await similar({ productId: "source", pageSize: 0 })).status).toBe(400);
  expect((await similar({ productId: "source", facets: "designer" })).status).toBe(400);
  const badShopper = await similar({ productId: "source", userId: "not an id" });
  expect(badShopper.status).toBe(400);
  expect(badShopper.body.message).toContain("userId");
  expect((await similar({ productId: "source", userId: "u1", sessionId: "s1" })).status).toBe(200);
  const unknown = await similar({ productId: "no-such-product" });
  expect(unknown.status).toBe(404);
  expect(unknown.body.message).toContain("no-such-product");
  expect((await similar({ productId: "source" }, null)).status).toBe(401);
  expect((await similar({ productId: "source" }, "analytics")).status).toBe(401);
  expect((await similar({ productId: "source", explain: "true" })).status).toBe(401);
});

test("explain=true with the admin key gives each result's score parts", async () => {
  const { status, body } = await similar({ productId: "source", explain: "true" }, "admin");
  expect(status).toBe(200);
  expect(body.explain!.map((e) => e.productId)).toEqual(body.products.map((p) => p.product.productId));
  const first = body.explain![0]!;
  expect(Object.keys(first.contributions).sort()).toEqual(["brand", "category", "colour", "price", "text"]);
  expect(first.score).toBeCloseTo(
    Object.values(first.contributions).reduce((a, b) => a + b, 0),
    6,
  );
});

test("a product added or deleted later is in or out of the next answer", async () => {
  await indexProducts(s, [shirt("late-navy", "Locomotive", "Navy Blue", 1000)]);
  expect(
    await eventually(
      async () => (await similar({ productId: "source" })).body.products.some((p) => p.product.productId === "late-navy"),
      5000,
    ),
  ).toBe(true);
  await deleteProduct(s, "h-navy");
  expect(
    await eventually(
      async () => !(await similar({ productId: "source" })).body.products.some((p) => p.product.productId === "h-navy"),
      5000,
    ),
  ).toBe(true);
  expect((await similar({ productId: "h-navy" })).status).toBe(404);
});
