/* The converter's public API on a 3,000-product sample of the real data. */

import { beforeAll, describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { type Popularity, PopularityData, Product } from "../../../server/src/modules/catalog/product-schema.ts";
import { catalogFingerprint, loadDemoCatalog, loadDemoCatalogWithStats, type DemoCatalogOptions } from "../../src/catalog/index.ts";
import { parseImagePath, renderImage } from "../../src/catalog/images.ts";
import { BASE_URL, DATA_DIR, dataSets } from "./support.ts";

const OPTS: DemoCatalogOptions = { dataDir: DATA_DIR, baseUrl: BASE_URL, limit: 3000 };

describe("demo catalog sample", () => {
  let products: Product[];
  beforeAll(() => {
    products = loadDemoCatalog(OPTS);
  });

  test("every product of a 3,000 sample passes the Product schema", () => {
    expect(products).toHaveLength(3000);
    const failures = products
      .filter((p): boolean => !Value.Check(Product, p))
      .slice(0, 3)
      .map((p) => ({ id: p.id, errors: [...Value.Errors(Product, p)].slice(0, 3).map((e) => `${e.path} ${e.message}`) }));
    expect(failures).toEqual([]);
    // The server also checks popularity.data against the schema its `type` names.
    for (const p of products) {
      if (p.popularity) expect(Value.Check(PopularityData[p.popularity.type], p.popularity.data)).toBe(true);
    }
  });

  test("ids, slugs and variation ids are unique", () => {
    expect(new Set(products.map((p) => p.id)).size).toBe(products.length);
    expect(new Set(products.map((p) => p.slug)).size).toBe(products.length);
    const variationIds = products.flatMap((p) => (p.variations ?? []).map((v) => v.id));
    expect(new Set(variationIds).size).toBe(variationIds.length);
  });

  test("deterministic: a second run gives equal output", () => {
    expect(loadDemoCatalog(OPTS)).toEqual(products);
  });

  test("a smaller limit is a prefix, and a product does not depend on the sources requested", () => {
    const small = loadDemoCatalog({ ...OPTS, limit: 300 });
    expect(small).toEqual(products.slice(0, 300));
    const flipkartOnly = loadDemoCatalog({ ...OPTS, limit: 50, sources: ["flipkart-sample"] });
    for (const p of flipkartOnly) {
      const same = products.find((q) => q.id === p.id);
      if (same) expect(p).toEqual(same);
    }
  });

  test("the sample is balanced across sources", () => {
    const count = (prefix: string) => products.filter((p) => p.id.startsWith(prefix)).length;
    expect(count("fpi-")).toBe(1000);
    expect(count("myn-")).toBe(1000);
    expect(count("fk-")).toBe(1000);
    expect(products.slice(0, 3).map((p) => p.id.split("-")[0])).toEqual(["fpi", "myn", "fk"]);
  });

  test("categories are root-first paths and product URLs point at the store", () => {
    const roots = new Set(["Apparel", "Accessories", "Footwear", "Personal Care", "Free Items", "Sporting Goods", "Home", "Electronics"]);
    for (const p of products) {
      expect(p.url).toBe(`${BASE_URL}/products/${p.id}`);
      if (p.id.startsWith("fk-")) continue; // Flipkart keeps its own tree
      // A few Myntra names (about 20 of 12,491) name no known article type and have no categories.
      if (p.id.startsWith("myn-") && p.categories === undefined) continue;
      expect(p.categories!.length).toBeGreaterThanOrEqual(2);
      expect(roots.has(p.categories![0]!)).toBe(true);
    }
  });

  test("Boys and Girls rows are Kids of a gender", () => {
    const styleRows = new Map(dataSets().styles.map((r) => [`fpi-${r.id}`, r]));
    const kids = products.filter((p) => /^(?:Boys|Girls)$/.test(styleRows.get(p.id)?.gender ?? ""));
    expect(kids.length).toBeGreaterThan(0);
    for (const p of kids) {
      expect(p.ageGroup).toBe("Kids");
      expect(p.gender).toBe(styleRows.get(p.id)!.gender === "Boys" ? "Men" : "Women");
    }
  });

  test("Flipkart SKUs carry the real discounted and retail prices", () => {
    const rows = new Map(dataSets().flipkart.map((r) => [`fk-${r.pid}`, r]));
    const fk = products.filter((p) => p.id.startsWith("fk-"));
    expect(fk.length).toBe(1000);
    for (const p of fk) {
      const row = rows.get(p.id)!;
      const retail = Number(row.retail_price);
      const discounted = Number(row.discounted_price);
      for (const sku of p.skus!) {
        if (discounted > 0) {
          expect(sku.price).toBe(discounted);
          expect(sku.initialPrice).toBe(retail > discounted ? retail : undefined);
        } else {
          // Five rows say 0.0 for both prices: those get a synthetic price, declared as such.
          expect(sku.price).toBeGreaterThan(0);
          expect(p.customUserData?.synthetic).toContain("skus.price");
        }
        expect(sku.promoPrice).toBeUndefined();
      }
      const rating = Number(row.product_rating);
      if (rating > 0) expect(p.popularity).toMatchObject({ type: "STAR", data: { overallRating: rating } });
    }
  });

  test("synthetic stock and ratings are internally consistent", () => {
    for (const p of products) {
      for (const sku of p.skus!) {
        expect(sku.availability).toBe(sku.inventoryQuantity! > 0 ? "InStock" : "OutOfStock");
        if (sku.initialPrice !== undefined) expect(sku.initialPrice).toBeGreaterThan(sku.price!);
        if (sku.promoPrice !== undefined) expect(sku.promoPrice).toBeLessThan(sku.price!);
      }
      if (p.popularity?.type === "STAR") {
        const d = p.popularity.data as Extract<Popularity, { type: "STAR" }>["data"];
        const total = d.ratingSummary!.reduce((sum, s) => sum + Number(s.count), 0);
        expect(total).toBe(d.reviewCount!);
      }
      const onSale = p.skus!.some((s) => s.initialPrice !== undefined || s.promoPrice !== undefined);
      expect(p.collections?.includes("sale") ?? false).toBe(onSale);
      expect(p.customUserData?.badges?.includes("Sale") ?? false).toBe(onSale);
    }
    const types = new Set(products.map((p) => p.popularity?.type ?? "none"));
    expect([...types].sort()).toEqual(["LIKES", "STAR", "none"]);
  });

  test("every image URL parses back to an SVG of the variation's colours", () => {
    for (const p of products) {
      for (const m of p.media!) {
        for (const url of [m.url, m.highResUrl!]) {
          const u = new URL(url);
          const parsed = parseImagePath(u.pathname, u.search);
          expect(parsed?.kind).toBe("product");
          const svg = renderImage(parsed!);
          for (const c of parsed!.colors) expect(svg).toContain(`fill="${c}"`);
        }
      }
      for (const v of p.variations ?? []) {
        const u = new URL(v.swatch!);
        expect(parseImagePath(u.pathname, u.search)?.kind).toBe("swatch");
        expect(p.media!.some((m) => m.variationId === v.id)).toBe(true);
      }
    }
  });

  test("tags are prefix:value with lowercase-hyphenated values; collections are handles", () => {
    for (const p of products) {
      for (const t of p.tags!) expect(t).toMatch(/^[a-z]+:[a-z0-9][a-z0-9.-]*$/);
      for (const c of p.collections ?? []) expect(c).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
  });

  test("new arrivals are about 10% of each source", () => {
    const { stats } = loadDemoCatalogWithStats({ ...OPTS, limit: 0 });
    expect(stats["fashion-product-images"]!.converted).toBe(44441);
    const share = products.filter((p) => p.collections?.includes("new-arrivals")).length / products.length;
    expect(share).toBeGreaterThan(0.05);
    expect(share).toBeLessThan(0.2);
  });
});

describe("catalogFingerprint", () => {
  test("stable for the same options, different when the output would differ", () => {
    const base = catalogFingerprint(OPTS);
    expect(catalogFingerprint({ ...OPTS })).toBe(base);
    expect(catalogFingerprint({ ...OPTS, baseUrl: `${BASE_URL}/` })).toBe(base); // trailing slash is normalised
    expect(catalogFingerprint({ ...OPTS, limit: 10 })).not.toBe(base);
    expect(catalogFingerprint({ ...OPTS, baseUrl: "http://127.0.0.1:9000" })).not.toBe(base);
    expect(catalogFingerprint({ ...OPTS, sources: ["myntra-catalog"] })).not.toBe(base);
    expect(catalogFingerprint({ ...OPTS, sources: ["flipkart-sample", "myntra-catalog"] })).toBe(
      catalogFingerprint({ ...OPTS, sources: ["myntra-catalog", "flipkart-sample"] }),
    );
  });

  test("bad options are rejected", () => {
    expect(() => loadDemoCatalog({ ...OPTS, baseUrl: "ftp://x" })).toThrow();
    expect(() => loadDemoCatalog({ ...OPTS, baseUrl: "http://a b" })).toThrow();
    expect(() => loadDemoCatalog({ ...OPTS, limit: -1 })).toThrow();
    expect(() => loadDemoCatalog({ ...OPTS, sources: ["nope" as never] })).toThrow();
    expect(() => loadDemoCatalog({ ...OPTS, dataDir: "/nonexistent" })).toThrow(/missing/);
  });
});
