import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { product } from "./support/fixtures.ts";
import { getJson, indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * GET /ctl over real HTTP: a look's pieces agree in occasion where the catalog states it (issue 41: a red party
 * dress was paired with sports shoes, a rain jacket and a sports watch), and a catalog that states nothing, or
 * has no agreeing piece left, still gets its looks.
 */

interface LooksBody {
  ctlProducts: { productId: string; internalCategory?: string }[][];
  explain?: { pieces: { productId: string; why: string }[] }[];
}

let s: TestServer;

const piece = (id: string, categories: string[], colour: string, tags: string[], extra: Partial<Product> = {}) =>
  product(id, {
    name: `${id} ${colour}`,
    gender: "Women",
    ageGroup: "Adults",
    categories,
    tags,
    variations: [{ id: `${id}-v`, name: colour }],
    skus: [{ variationId: `${id}-v`, size: "M", price: 1500, availability: "InStock", inventoryQuantity: 3 }],
    ...extra,
  });
const DRESSES = ["Apparel", "Dress", "Dresses"];
const KIDS = { ageGroup: "Kids" } as const;
const MEN = { gender: "Men" } as const;

const catalog: Product[] = [
  piece("party-dress", DRESSES, "Red", ["season:summer", "usage:party"]),
  piece("plain-dress", DRESSES, "Black", []),
  piece("sports-shoes", ["Footwear", "Shoes", "Sports Shoes"], "Silver", ["season:summer", "usage:sports"]),
  piece("party-heels", ["Footwear", "Shoes", "Heels"], "Black", ["season:summer", "usage:party"]),
  piece("casual-flats", ["Footwear", "Shoes", "Flats"], "Black", ["season:summer", "usage:casual"]),
  piece("party-clutch", ["Accessories", "Bags", "Clutches"], "Black", ["usage:party"]),
  piece("casual-bag", ["Accessories", "Bags", "Handbags"], "Brown", ["usage:casual"]),
  piece("rain-jacket", ["Apparel", "Topwear", "Rain Jacket"], "Grey", []),
  piece("sports-watch", ["Accessories", "Watches"], "Black", ["usage:sports"]),
  // A girls' party dress, and for girls only casual shoes and a casual bag.
  piece("girls-party-dress", DRESSES, "Pink", ["usage:party"], KIDS),
  piece("girls-sandals", ["Footwear", "Sandal", "Sandals"], "White", ["usage:casual"], KIDS),
  piece("girls-bag", ["Accessories", "Bags", "Handbags"], "White", ["usage:casual"], KIDS),
  // Men's pieces whose catalog states no usage and no season at all.
  piece("plain-shirt", ["Apparel", "Topwear", "Shirts"], "White", [], MEN),
  piece("plain-jeans", ["Apparel", "Bottomwear", "Jeans"], "Blue", [], MEN),
  piece("plain-shoes", ["Footwear", "Shoes", "Casual Shoes"], "Brown", [], MEN),
];

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, catalog);
}, 60_000);
afterAll(() => s?.stop());

async function looksOf(productId: string, explain = false): Promise<LooksBody> {
  const { status, body } = await getJson<LooksBody>(
    s,
    "/ctl",
    { productId, ...(explain ? { explain: "true" } : {}) },
    explain ? "admin" : "search",
  );
  expect(status).toBe(200);
  return body;
}
const ids = (body: LooksBody) => body.ctlProducts.map((look) => look.map((p) => p.productId));

test("a party dress is never paired with sports shoes, a sports watch or a rain jacket; its first look is all party", async () => {
  const looks = ids(await looksOf("party-dress"));
  expect(looks.length).toBeGreaterThan(0);
  for (const look of looks) for (const banned of ["sports-shoes", "sports-watch", "rain-jacket"]) expect(look).not.toContain(banned);
  expect(looks[0]).toContain("party-heels");
  expect(looks[0]).toContain("party-clutch");
});

test("a dress whose catalog states no usage still never goes with sportswear, and explain says why", async () => {
  const body = await looksOf("plain-dress", true);
  const looks = ids(body);
  expect(looks.length).toBeGreaterThan(0);
  for (const look of looks) for (const banned of ["sports-shoes", "sports-watch", "rain-jacket"]) expect(look).not.toContain(banned);
  expect(body.explain![0]!.pieces[0]!.why).toContain("with any but sports");
});

test("pieces of a look agree with each other, not only with the source: one party piece, then only party or unstated", async () => {
  // The unstated dress takes any occasion but sports; once party heels are in, a casual bag no longer agrees.
  for (const look of ids(await looksOf("plain-dress"))) {
    if (look.includes("party-heels") || look.includes("party-clutch")) expect(look).not.toContain("casual-bag");
    if (look.includes("casual-flats") || look.includes("casual-bag")) expect(look).not.toContain("party-clutch");
  }
});

test("with no agreeing piece left, a look is still composed from pieces that may go together", async () => {
  expect(ids(await looksOf("girls-party-dress"))[0]).toEqual(["girls-sandals", "girls-bag"]);
});

test("a catalog that states no usage or season gets complete looks (unstated fits any)", async () => {
  // Each piece may be in two looks, so the one possible outfit comes twice.
  expect(ids(await looksOf("plain-shirt"))).toEqual([
    ["plain-jeans", "plain-shoes"],
    ["plain-jeans", "plain-shoes"],
  ]);
  expect(ids(await looksOf("plain-shoes"))[0]).toEqual(["plain-shirt", "plain-jeans"]);
});
