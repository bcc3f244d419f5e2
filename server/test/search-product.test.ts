import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { roundToCents } from "../src/modules/catalog/price-range.ts";
import type { Media, Product, Sku } from "../src/modules/catalog/product-schema.ts";
import { serviceProductId, toSearchProduct, type ShapeOptions } from "../src/modules/catalog/search-product.ts";

const OPTS: ShapeOptions = { storeId: "store-1" };
const img = (name: string, variationId?: string, highRes?: string): Media => ({
  url: `https://img.example/${name}.jpg`,
  ...(variationId && { variationId }),
  ...(highRes && { highResUrl: highRes }),
});
const base = (overrides: Partial<Product> = {}): Product => ({ id: "p-1", name: "Linen shirt", ...overrides });

describe("price ranges", () => {
  const skus: Sku[] = [{ price: 30, initialPrice: 50 }, { price: 10 }, { price: 20, promoPrice: 15 }, { promoPrice: 12 }];

  test("min and max over the SKUs that have each field; a field no SKU has is omitted", () => {
    const p = toSearchProduct(base({ skus }), OPTS);
    expect(p.price).toEqual({ min: 10, max: 30 });
    expect(p.promoPrice).toEqual({ min: 12, max: 15 });
    expect(p.initialPrice).toEqual({ min: 50, max: 50 });
    const plain = toSearchProduct(base({ skus: [{ price: 5 }] }), OPTS);
    expect(plain).not.toHaveProperty("promoPrice");
    expect(plain).not.toHaveProperty("initialPrice");
    expect(toSearchProduct(base(), OPTS)).not.toHaveProperty("price");
  });

  test("first is the value of the first SKU that has the field, only with withFirstPrice", () => {
    const p = toSearchProduct(base({ skus }), { ...OPTS, withFirstPrice: true });
    expect(p.price).toEqual({ min: 10, max: 30, first: 30 });
    expect(p.promoPrice).toEqual({ min: 12, max: 15, first: 15 });
    expect(toSearchProduct(base({ skus }), OPTS).price).not.toHaveProperty("first");
  });

  test("colours carry the ranges of their own SKUs, with first when asked", () => {
    const p = toSearchProduct(
      base({
        variations: [{ id: "red" }, { id: "blue" }],
        skus: [
          { variationId: "blue", price: 40 },
          { variationId: "red", price: 25 },
          { variationId: "red", price: 20, promoPrice: 18 },
        ],
      }),
      { ...OPTS, withFirstPrice: true },
    );
    expect(p.price).toEqual({ min: 20, max: 40, first: 40 });
    expect(p.colors.red!.price).toEqual({ min: 20, max: 25, first: 25 });
    expect(p.colors.red!.promoPrice).toEqual({ min: 18, max: 18, first: 18 });
    expect(p.colors.blue!.price).toEqual({ min: 40, max: 40, first: 40 });
    expect(p.colors.blue).not.toHaveProperty("promoPrice");
  });

  test("a colour without SKUs of its own takes the SKUs that name no variation", () => {
    const p = toSearchProduct(
      base({
        variations: [{ id: "red" }, { id: "blue" }],
        skus: [{ variationId: "red", price: 9 }, { price: 12 }, { variationId: "gone", price: 14 }],
      }),
      OPTS,
    );
    expect(p.colors.red!.price).toEqual({ min: 9, max: 9 });
    expect(p.colors.blue!.price).toEqual({ min: 12, max: 14 });
  });
});

describe("colours", () => {
  test("keyed by variation id in variation order, with name, swatch, store ids and empty values", () => {
    const p = toSearchProduct(
      base({
        variations: [{ id: "navy", name: "Navy", swatch: "https://img.example/sw/navy.png" }, { id: "sand" }],
        media: [img("navy-1", "navy"), img("sand-1", "sand")],
      }),
      OPTS,
    );
    expect(Object.keys(p.colors)).toEqual(["navy", "sand"]);
    expect(p.colors.navy).toMatchObject({
      name: "Navy",
      swatch: "https://img.example/sw/navy.png",
      values: [],
      productName: "Linen shirt",
      productId: "p-1",
    });
    expect(p.colors.sand!.name).toBe("");
    expect(p.colors.sand).not.toHaveProperty("swatch");
  });

  test("media go to their variation; media without one go to every colour that has none of its own", () => {
    const p = toSearchProduct(
      base({
        variations: [{ id: "red" }, { id: "blue" }, { id: "green" }],
        media: [img("red-1", "red"), img("all-1"), img("red-2", "red"), img("all-2"), img("blue-1", "blue")],
      }),
      OPTS,
    );
    const names = (id: string) => p.colors[id]!.images.map((i) => i.s.replace(/^.*\/|\.jpg$/g, ""));
    expect(names("red")).toEqual(["red-1", "red-2"]);
    expect(names("blue")).toEqual(["blue-1"]);
    expect(names("green")).toEqual(["all-1", "all-2"]);
  });

  test("media naming a variation the product does not list are treated as shared", () => {
    const p = toSearchProduct(base({ variations: [{ id: "red" }], media: [img("old", "discontinued")] }), OPTS);
    expect(p.colors.red!.images).toHaveLength(1);
  });

  test("a repeated variation id keeps its first occurrence", () => {
    const p = toSearchProduct(
      base({
        variations: [
          { id: "red", name: "Red" },
          { id: "red", name: "Crimson" },
        ],
      }),
      OPTS,
    );
    expect(Object.keys(p.colors)).toEqual(["red"]);
    expect(p.colors.red!.name).toBe("Red");
  });

  test('a variation id "__proto__" becomes an ordinary key', () => {
    const p = toSearchProduct(base({ variations: [{ id: "__proto__", name: "Odd" }] }), OPTS);
    expect(Object.keys(p.colors)).toEqual(["__proto__"]);
    // biome-ignore lint/suspicious/noProto: the test is about a variation whose id is "__proto__"
    expect(JSON.parse(JSON.stringify(p)).colors.__proto__.name).toBe("Odd");
  });
});

describe("the default colour of a product without variations", () => {
  test('one colour "default" with every image and the product\'s prices, named ""', () => {
    const p = toSearchProduct(
      base({ url: "https://shop.example/p/1", media: [img("a"), img("b", "stray")], skus: [{ price: 7 }, { price: 9 }] }),
      OPTS,
    );
    expect(Object.keys(p.colors)).toEqual(["default"]);
    expect(p.defaultColorId).toBe("default");
    const color = p.colors.default!;
    expect(color.name).toBe("");
    expect(color.images).toHaveLength(2);
    expect(color.price).toEqual({ min: 7, max: 9 });
    expect(color.productUrl).toBe("https://shop.example/p/1");
    expect(color.productId).toBe("p-1");
  });

  test("no variations and no media: colors is empty and defaultColorId is absent", () => {
    const p = toSearchProduct(base({ skus: [{ price: 7 }] }), OPTS);
    expect(p.colors).toEqual({});
    expect(p).not.toHaveProperty("defaultColorId");
  });
});

describe("defaultColorId", () => {
  const variations = [{ id: "a" }, { id: "b" }, { id: "c" }];

  test("the first variation with a SKU in stock", () => {
    const skus: Sku[] = [
      { variationId: "a", availability: "OutOfStock" },
      { variationId: "b", availability: "OutOfStock" },
      { variationId: "b", availability: "InStock" },
      { variationId: "c", availability: "InStock" },
    ];
    expect(toSearchProduct(base({ variations, skus }), OPTS).defaultColorId).toBe("b");
  });

  test("a SKU without availability counts as in stock", () => {
    const skus: Sku[] = [
      { variationId: "a", availability: "OutOfStock" },
      { variationId: "c", price: 3 },
    ];
    expect(toSearchProduct(base({ variations, skus }), OPTS).defaultColorId).toBe("c");
  });

  test("the first variation when nothing is in stock, or when there are no SKUs", () => {
    const skus: Sku[] = variations.map((v) => ({ variationId: v.id, availability: "OutOfStock" }));
    expect(toSearchProduct(base({ variations, skus }), OPTS).defaultColorId).toBe("a");
    expect(toSearchProduct(base({ variations }), OPTS).defaultColorId).toBe("a");
  });
});

describe("productUrl of a colour", () => {
  const shaped = (url: string) => toSearchProduct(base({ url, variations: [{ id: "navy/blue & co" }] }), OPTS).colors["navy/blue & co"]!;

  test("appends color=<variation id>, encoded", () => {
    expect(shaped("https://shop.example/p/1").productUrl).toBe("https://shop.example/p/1?color=navy%2Fblue%20%26%20co");
  });

  test("keeps existing query parameters as the store wrote them, and the fragment", () => {
    expect(shaped("https://shop.example/p/1?ref=a%20b&x=1#reviews").productUrl).toBe(
      "https://shop.example/p/1?ref=a%20b&x=1&color=navy%2Fblue%20%26%20co#reviews",
    );
  });

  test("replaces an existing color parameter instead of adding a second", () => {
    const url = new URL(shaped("https://shop.example/p/1?color=red&size=M").productUrl!);
    expect(url.searchParams.getAll("color")).toEqual(["navy/blue & co"]);
    expect(url.searchParams.get("size")).toBe("M");
  });

  test("each variation's URL is what the URL API gives when color= is set on it alone, for awkward pages and ids", () => {
    // The reference: one parse per variation, color= appended through the query setter (or replaced).
    const reference = (page: string, id: string) => {
      const url = new URL(page);
      if (url.searchParams.has("color")) url.searchParams.set("color", id);
      else url.search = url.search ? `${url.search}&color=${encodeURIComponent(id)}` : `color=${encodeURIComponent(id)}`;
      return url.href;
    };
    const pages = [
      "https://shop.example/p/1",
      "https://shop.example/p/1?",
      "https://shop.example/p/1?#top",
      "http://User:pw@Shop.Example:8080/a b/ç?x='1'&y=%41#frag'ment",
      "https://shop.example/p/1?color=red&size=M#x",
      "https://shop.example/p/1?ref=a%20b&x=1#reviews",
      "https://xn--bcher-kva.example/p?q=%00",
    ];
    const ids = ["navy", "navy/blue & co", "it's", "a'b'c", "100%", "#hash", "é 漢字 🎨", "?&=", "%00", "a+b", "~!*()"];
    for (const page of pages) {
      const p = toSearchProduct(base({ url: page, variations: ids.map((id) => ({ id })) }), OPTS);
      for (const id of ids) expect(p.colors[id]!.productUrl).toBe(reference(page, id));
    }
  });

  test("absent when the product has no url", () => {
    const p = toSearchProduct(base({ variations: [{ id: "a" }] }), OPTS);
    expect(p).not.toHaveProperty("url");
    expect(p.colors.a).not.toHaveProperty("productUrl");
  });
});

describe("image sizes", () => {
  const original = "https://img.example/a b/shirt.jpg?v=2&w=$&";
  const large = "https://img.example/large/shirt.jpg";
  const shape = (imageSizes?: ShapeOptions["imageSizes"]) =>
    toSearchProduct(base({ media: [{ url: original, highResUrl: large }, { url: original }] }), { ...OPTS, imageSizes }).colors.default!
      .images;

  test("without templates s and m are the URL and l the high-resolution URL, or the URL without one", () => {
    expect(shape()).toEqual([
      { s: original, m: original, l: large },
      { s: original, m: original, l: original },
    ]);
  });

  test("{url} is the URL-encoded original, {rawUrl} the original as is; a missing size keeps the original", () => {
    const [first] = shape({ s: "https://cdn.example/fit/200?src={url}", l: "https://cdn.example/{rawUrl}?w=1600" });
    expect(first).toEqual({
      s: `https://cdn.example/fit/200?src=${encodeURIComponent(original)}`,
      m: original,
      l: `https://cdn.example/${large}?w=1600`,
    });
    // "$&" in the URL is copied literally, not read as a replacement pattern.
    expect(first!.s).toContain(encodeURIComponent("$&"));
  });

  test("every placeholder of a template is filled", () => {
    const [first] = shape({ m: "https://cdn.example/?a={url}&b={rawUrl}" });
    expect(first!.m).toBe(`https://cdn.example/?a=${encodeURIComponent(original)}&b=${original}`);
  });
});

describe("currency conversion (ccv)", () => {
  const product = base({
    variations: [{ id: "red" }, { id: "blue" }],
    skus: [{ variationId: "red", price: 19.99, promoPrice: 1.005 }, { variationId: "red", price: 10 }, { variationId: "blue" }],
  });

  test("absent without a configured conversion", () => {
    const p = toSearchProduct(product, OPTS);
    expect(p).not.toHaveProperty("ccv");
    expect(p.colors.red).not.toHaveProperty("ccv");
  });

  test("converted min and max, rounded to 2 decimals, on the product and on each colour", () => {
    const p = toSearchProduct(product, { ...OPTS, currencyConversion: { currency: "USD", rate: 1.1 }, withFirstPrice: true });
    // 10 × 1.1 = 11.000000000000002, 19.99 × 1.1 = 21.989, 1.005 × 1.1 = 1.1055
    expect(p.ccv).toEqual({ price: { min: 11, max: 21.99 }, promoPrice: { min: 1.11, max: 1.11 }, currency: "USD" });
    expect(p.colors.red!.ccv).toEqual(p.ccv!);
    // A colour without prices still says which currency a converted price would be in.
    expect(p.colors.blue!.ccv).toEqual({ currency: "USD" });
  });

  test("rounding is half up without float noise", () => {
    expect(roundToCents(1.005)).toBe(1.01);
    expect(roundToCents(1.004999)).toBe(1);
    expect(roundToCents(0.1 + 0.2)).toBe(0.3);
    expect(roundToCents(123456789.125)).toBe(123456789.13);
    const p = toSearchProduct(base({ skus: [{ price: 1.005 }] }), { ...OPTS, currencyConversion: { currency: "EUR", rate: 1 } });
    expect(p.ccv!.price).toEqual({ min: 1.01, max: 1.01 });
  });
});

describe("customProps, customUserData and popularity", () => {
  test("slug, categories, gender, ageGroup, inStock and tags; undefined members omitted", () => {
    const full = toSearchProduct(
      base({
        slug: "linen-shirt",
        categories: ["Apparel", "Shirts"],
        gender: "Women",
        ageGroup: "Adults",
        tags: ["fabric:linen"],
        skus: [{ availability: "InStock" }],
      }),
      OPTS,
    );
    expect(full.customProps).toEqual({
      slug: "linen-shirt",
      categories: ["Apparel", "Shirts"],
      gender: "Women",
      ageGroup: "Adults",
      inStock: true,
      tags: ["fabric:linen"],
    });
    expect(toSearchProduct(base(), OPTS).customProps).toEqual({ inStock: true });
  });

  test("inStock: any SKU in stock or without availability; no SKUs counts as in stock", () => {
    const inStock = (skus?: Sku[]) => toSearchProduct(base({ skus }), OPTS).customProps.inStock;
    expect(inStock([{ availability: "OutOfStock" }, { availability: "OutOfStock" }])).toBe(false);
    expect(inStock([{ availability: "OutOfStock" }, { availability: "InStock" }])).toBe(true);
    expect(inStock([{ availability: "OutOfStock" }, { price: 1 }])).toBe(true);
    expect(inStock([])).toBe(true);
    expect(inStock(undefined)).toBe(true);
  });

  test("customUserData passes through ({} when absent); popularity as is; brand as designer", () => {
    const popularity = { type: "THUMBS", data: { thumbsUpCount: 3, thumbsDownCount: 1 } } as const;
    const p = toSearchProduct(base({ brand: "Roadster", customUserData: { badge: ["new"] }, popularity }), OPTS);
    expect(p.customUserData).toEqual({ badge: ["new"] });
    expect(p.productPopularity).toEqual(popularity);
    expect(p.designer).toBe("Roadster");
    const bare = toSearchProduct(base(), OPTS);
    expect(bare.customUserData).toEqual({});
    expect(bare).not.toHaveProperty("productPopularity");
    expect(bare).not.toHaveProperty("designer");
  });
});

describe("serviceProductId", () => {
  test("sp_ and the first 16 characters of base64url(sha256(storeId NUL productId)), pinned", () => {
    const expected = "sp_" + createHash("sha256").update("store-1\u0000p-1").digest("base64url").slice(0, 16);
    expect(serviceProductId("store-1", "p-1")).toBe(expected);
    // Pinned: ids are kept by front ends and analytics, so the algorithm may never change.
    expect(serviceProductId("s1", "fpi-35894")).toBe("sp_rLf9x4QWVcsfag0K");
    expect(toSearchProduct(base(), OPTS).id).toBe(expected);
  });

  test("stable, URL-safe, and scoped to the store", () => {
    expect(serviceProductId("store-1", "p-1")).toBe(serviceProductId("store-1", "p-1"));
    expect(serviceProductId("store-1", "p-1")).not.toBe(serviceProductId("store-2", "p-1"));
    expect(serviceProductId("a", "bc")).not.toBe(serviceProductId("ab", "c"));
    for (const id of ["p-1", "ünïcode/ä?#", "x".repeat(256)]) expect(serviceProductId("store-1", id)).toMatch(/^sp_[A-Za-z0-9_-]{16}$/);
  });
});

describe("real products from the demo catalog", () => {
  const catalog = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080", limit: 60 });

  test("shape without throwing, and every colour has at least one image", () => {
    expect(catalog.length).toBeGreaterThan(0);
    for (const product of catalog) {
      const p = toSearchProduct(product, { ...OPTS, currencyConversion: { currency: "USD", rate: 0.012 }, withFirstPrice: true });
      expect(p.productId).toBe(product.id);
      expect(Object.keys(p.colors).length).toBeGreaterThan(0);
      expect(p.colors).toHaveProperty(p.defaultColorId!);
      for (const color of Object.values(p.colors)) expect(color.images.length).toBeGreaterThanOrEqual(1);
      // The shape is sent as JSON; it must survive the trip unchanged.
      expect(JSON.parse(JSON.stringify(p))).toEqual(p);
    }
  });
});

describe("performance", () => {
  test("a product with 5,000 SKUs and 200 variations shapes", () => {
    const variations = Array.from({ length: 200 }, (_, i) => ({
      id: `v${i}`,
      name: `Colour ${i}`,
      swatch: `https://img.example/sw/${i}.png`,
    }));
    const skus: Sku[] = Array.from({ length: 5000 }, (_, i) => ({
      variationId: `v${i % 200}`,
      size: `S${i}`,
      price: 100 + (i % 37),
      promoPrice: 90 + (i % 11),
      initialPrice: 150,
      availability: i % 3 ? "InStock" : "OutOfStock",
    }));
    const media = Array.from({ length: 1000 }, (_, i) => img(`m${i}`, `v${i % 200}`, `https://img.example/l/${i}.jpg`));
    const product = base({ url: "https://shop.example/p/1?ref=x", variations, skus, media });
    const opts: ShapeOptions = {
      ...OPTS,
      withFirstPrice: true,
      currencyConversion: { currency: "USD", rate: 1.1 },
      imageSizes: { s: "https://cdn.example/?u={url}" },
    };
    const p = toSearchProduct(product, opts);
    expect(Object.keys(p.colors)).toHaveLength(200);
    expect(p.colors.v199!.images).toHaveLength(5);
  }, 10_000);
});
