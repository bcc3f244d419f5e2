import { expect, test } from "bun:test";
import { product } from "../../server/test/support/fixtures.ts";
import { bulkOf } from "../src/catalog-cache.ts";
import { DemoCatalog } from "../src/demo-catalog.ts";
import { demoStoreRoutes } from "../src/demo-routes.ts";
import { storePages } from "../src/store-pages.ts";

/*
 * The demo store's pages while `npm start` is still bringing the catalog: a page that cannot answer yet says so
 * (503, Retry-After, a refresh for the browser) instead of "No such product", and a product that is truly not in
 * the catalog is a 404 once start-up has brought everything.
 */

const embed = { storeId: "demo", searchKey: "pk_search_x", analyticsKey: "pk_analytics_x" };
const bulk = (...ids: string[]) => {
  const products = ids.map((id) => product(id));
  return bulkOf(JSON.stringify(products), products.length, products);
};

async function get(catalog: DemoCatalog, path: string) {
  const res = await demoStoreRoutes(catalog, embed, "/nonexistent").handle(new Request(`http://localhost${path}`));
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
}

test("before start-up knows the catalog, the home page and product pages say the store is starting and reload", async () => {
  const catalog = new DemoCatalog();
  for (const path of ["/", "/products/p1"]) {
    const page = await get(catalog, path);
    expect(page.status).toBe(503);
    expect(page.retryAfter).toBe("2");
    expect(page.body).toContain('<meta http-equiv="refresh" content="2">');
    expect(page.body).toContain("The store is starting.");
    expect(page.body).not.toContain("No such product");
  }
});

test("while the catalog comes bulk by bulk, a product on its way is 503 with how far the catalog is; one that came is served", async () => {
  const catalog = new DemoCatalog();
  catalog.expect(4);
  catalog.add(bulk("p1", "p2"));
  expect((await get(catalog, "/products/p1")).status).toBe(200);
  const waiting = await get(catalog, "/products/p3");
  expect(waiting.status).toBe(503);
  expect(waiting.body).toContain("2 of 4 products loaded (50%)");
  // The home page shows what has come.
  expect((await get(catalog, "/")).status).toBe(200);
  catalog.add(bulk("p3", "p4"));
  expect((await get(catalog, "/products/p3")).status).toBe(200);
  const missing = await get(catalog, "/products/nope");
  expect(missing.status).toBe(404);
  expect(missing.body).toContain("No such product");
});

test("a kept catalog is read on the first page that needs it: no starting page on a restart once its source is known", async () => {
  const catalog = new DemoCatalog();
  let reads = 0;
  catalog.addLater(() => {
    reads++;
    return [bulk("p1", "p2")];
  }, 2);
  expect((await get(catalog, "/products/p2")).status).toBe(200);
  expect((await get(catalog, "/products/nope")).status).toBe(404);
  expect(reads).toBe(1);
});

test("a store without product data: an unknown product is a 404 at once", async () => {
  const catalog = new DemoCatalog();
  catalog.expect(0);
  expect((await get(catalog, "/products/p1")).status).toBe(404);
});

test("the start printout lists every page a store uses with the key it asks for", () => {
  const printed = storePages("http://localhost:8080");
  for (const path of ["/reports", "/merchandising", "/theme", "/docs", "/health"])
    expect(printed).toContain(`http://localhost:8080${path} `);
  for (const line of printed.split("\n").filter((l) => /\/(reports|merchandising|theme)\s/.test(l)))
    expect(line).toEndWith("store id and admin key");
});
