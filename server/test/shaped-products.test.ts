import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { toSearchProduct, type ShapeOptions } from "../src/modules/catalog/search-product.ts";
import { demoProducts } from "./support/demo-products.ts";
import { deleteProduct, indexProducts, search, searchAll } from "./support/search-client.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Search products are shaped once and sent as stored JSON (modules/catalog/shaped-products.ts). Whatever path a
 * page takes (shaped when first shown, reshaped after a settings change, after an update or a restart), what a
 * shopper gets must equal shaping the catalog product now, with the store's settings now.
 */

const dataDir = tempDir("sfs-shaped-");
let s: TestServer;
let catalog: Product[];

beforeAll(async () => {
  s = await startTestServer({}, dataDir);
  catalog = demoProducts(400);
  await indexProducts(s, catalog);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const patch = async (body: unknown) => expect((await s.call("admin", "PATCH", "/1.9/settings", body)).status).toBe(200);

/** Every product searching "shirt" gives, against toSearchProduct of the catalog product with `settings`. */
async function expectShapedAs(settings: Omit<ShapeOptions, "storeId">, products = catalog) {
  const { products: shown } = await searchAll(s, { query: "shirt" });
  expect(shown.length).toBeGreaterThan(20);
  const byId = new Map(products.map((p) => [p.id, p]));
  for (const got of shown) {
    const expected = JSON.parse(JSON.stringify(toSearchProduct(byId.get(got.productId)!, { storeId: s.storeId, ...settings })));
    expect(got).toEqual(expected);
  }
}

/** Ids of the store's products with a stored shape, read by another connection. */
function storedShapes(): string[] {
  const other = new Database(join(s.dataDir, "service.db"), { readonly: true });
  try {
    return (
      other.query("SELECT id FROM products WHERE store_id = ? AND shaped IS NOT NULL ORDER BY id").all(s.storeId) as { id: string }[]
    ).map((r) => r.id);
  } finally {
    other.close();
  }
}

describe("stored search products", () => {
  test("shaped when first shown: indexing stores none; a page stores its own, each the catalog product shaped now", async () => {
    expect(storedShapes()).toEqual([]);
    await expectShapedAs({});
    const shown = (await searchAll(s, { query: "shirt" })).products.map((p) => p.productId);
    expect(storedShapes()).toEqual([...new Set(shown)].sort());
  });

  test("image sizes and currency conversion apply from the next search, and null takes them away again", async () => {
    const imageSizes = { s: "https://img.example/{url}?w=200", l: "https://img.example/{url}?w=1200" };
    const currencyConversion = { currency: "EUR", rate: 0.011 };
    await patch({ imageSizes, currencyConversion });
    await expectShapedAs({ imageSizes, currencyConversion });
    await patch({ imageSizes: null, currencyConversion: null });
    await expectShapedAs({});
  });

  test("an updated product shows its new version; a deleted one is gone", async () => {
    const target = catalog.find((p) => storedShapes().includes(p.id))!;
    const renamed = { ...target, name: `${target.name} Reworked` };
    expect(storedShapes()).toContain(target.id);
    await indexProducts(s, [renamed]);
    // Its shape went with the version it was made from.
    expect(storedShapes()).not.toContain(target.id);
    const updated = catalog.map((p) => (p.id === target.id ? renamed : p));
    await expectShapedAs({}, updated);
    const gone = updated.find((p) => p.id !== target.id && storedShapes().includes(p.id))!;
    await deleteProduct(s, gone.id);
    const ids = (await searchAll(s, { query: "shirt" })).products.map((p) => p.productId);
    expect(ids).not.toContain(gone.id);
    expect(ids).toContain(target.id);
    catalog = updated.filter((p) => p.id !== gone.id);
  });

  test("a shape another process rewrites is what the next search shows, though the page was just shown", async () => {
    // Pages are kept in memory (shape-cache.ts) while the store's shapes epoch, counted by the database, stays.
    const first = await search(s, { query: "shirt", pageSize: 10 });
    expect(await search(s, { query: "shirt", pageSize: 10 })).toEqual(first);
    const id = first.products[0]!.productId;
    const other = new Database(join(s.dataDir, "service.db"));
    try {
      const rewrite = (json: string) => other.run("UPDATE products SET shaped = ? WHERE store_id = ? AND id = ?", [json, s.storeId, id]);
      const { json } = other.query("SELECT shaped AS json FROM products WHERE store_id = ? AND id = ?").get(s.storeId, id) as {
        json: string;
      };
      rewrite(JSON.stringify({ ...JSON.parse(json), name: "Rewritten elsewhere" }));
      expect((await search(s, { query: "shirt", pageSize: 10 })).products[0]!.name).toBe("Rewritten elsewhere");
      rewrite(json);
      expect(await search(s, { query: "shirt", pageSize: 10 })).toEqual(first);
    } finally {
      other.close();
    }
  });

  test("after a restart pages are the same", async () => {
    const before = await search(s, { query: "shirt", pageSize: 50 });
    await s.stop();
    s = await reopenTestServer(s);
    expect(await search(s, { query: "shirt", pageSize: 50 })).toEqual(before);
  }, 30_000);
});
