import { loadDemoCatalog } from "../../../demo-store/src/catalog/index.ts";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { loadConfig } from "../../src/config.ts";

/*
 * The real demo catalog (Myntra, Flipkart, fashion product images) as Products, loaded once per test process:
 * converting the source files takes seconds, and a smaller sample is a prefix of a larger one.
 */

const LOADED = Symbol.for("sfs-test.demo-products");
type Cache = { products: Product[] };

/** The first `limit` products of the balanced demo sample; callers get a deep copy they may change. */
export function demoProducts(limit: number): Product[] {
  const g = globalThis as unknown as Record<symbol, Cache | undefined>;
  let cache = g[LOADED];
  if (!cache || cache.products.length < limit) {
    const products = loadDemoCatalog({
      dataDir: loadConfig({}).demoCatalog.dir,
      baseUrl: "http://localhost:8080",
      limit: Math.max(limit, 8000),
    });
    cache = g[LOADED] = { products };
  }
  return structuredClone(cache.products.slice(0, limit));
}
