import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { demoProducts } from "./support/demo-products.ts";
import { getJson, indexProducts, search, type SearchBody } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The store's facet settings and the settings API's null-clears / effective-settings rules, over 2,000 real
 * demo products: which facets a search answers, in what order, under which names, with how many values shown.
 */

let s: TestServer;
let catalog: Product[];

beforeAll(async () => {
  s = await startTestServer();
  catalog = demoProducts(2000);
  await indexProducts(s, catalog);
}, 60_000);
afterAll(() => s?.stop());

async function patch(body: unknown): Promise<Response> {
  return s.call("admin", "PATCH", "/1.9/settings", body);
}
async function settings(): Promise<Record<string, unknown>> {
  const res = await s.call("admin", "GET", "/1.9/settings");
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}
const facetsFor = async (query: string, extra: Record<string, string> = {}): Promise<SearchBody["facets"]> =>
  (await search(s, { query, returnFacets: true, pageSize: 1, ...extra })).facets;
const tagsIn = (key: string) => catalog.some((p) => (p.tags ?? []).some((t) => t.startsWith(`${key.slice(4)}:`)));

describe("default facets", () => {
  test("shirt: category levels 1-3, built-ins, shopper tags; no feed bookkeeping, no second colour facet", async () => {
    // The demo catalog has every one of the hidden kinds, so their absence is the rule, not the data.
    for (const key of ["tag.source", "tag.year", "tag.color", "tag.type"])
      expect({ key, inCatalog: tagsIn(key) }).toEqual({ key, inCatalog: true });
    expect(catalog.some((p) => (p.categories?.length ?? 0) >= 4)).toBe(true);
    const facets = await facetsFor("shirt");
    const keys = facets.map((f) => f.key);
    for (const hidden of ["tag.source", "tag.year", "tag.color", "tag.type", "category.lvl3", "category.lvl4"])
      expect(keys).not.toContain(hidden);
    expect(facets.filter((f) => /colou?r/i.test(f.name)).map((f) => f.key)).toEqual(["color"]);
    // Default order: categories, gender, age group, brand, price, colour, size, tags, collection, availability.
    const order = ["category.lvl0", "category.lvl1", "category.lvl2", "gender", "ageGroup", "designer", "price", "color", "size"];
    expect(keys.filter((k) => order.includes(k))).toEqual(order);
    expect(keys.indexOf("tag.sleeve")).toBeGreaterThan(keys.indexOf("size"));
    expect(keys.at(-1)).toBe("availability");
    expect(facets.find((f) => f.key === "designer")!.name).toBe("Brand");
    for (const f of facets) expect({ key: f.key, shownValues: f.shownValues }).toEqual({ key: f.key, shownValues: 8 });
  });

  test("slug values read as words: tag.sleeve long-sleeves is 'Long sleeves', availability InStock is 'In stock'", async () => {
    const facets = await facetsFor("shirt");
    const sleeve = facets.find((f) => f.key === "tag.sleeve")!;
    expect(sleeve.name).toBe("Sleeve");
    expect(sleeve.values.find((v) => v.key === "long-sleeves")?.name).toBe("Long sleeves");
    expect(facets.find((f) => f.key === "availability")!.values.find((v) => v.key === "InStock")?.name).toBe("In stock");
  });

  test("built-in names follow language (de, de-CH → de); an unknown language gets English; a bad one is a 400", async () => {
    const name = async (language: string) => (await facetsFor("shirt", { language })).find((f) => f.key === "color")!.name;
    expect(await name("de")).toBe("Farbe");
    expect(await name("de-CH")).toBe("Farbe");
    expect(await name("fr")).toBe("Couleur");
    expect(await name("fi")).toBe("Colour");
    const { status, body } = await getJson<{ message: string; details: { path: string }[] }>(s, "/search", {
      query: "shirt",
      language: "en_US",
    });
    expect(status).toBe(400);
    expect(body.details.map((d) => d.path)).toEqual(["query.language"]);
  });

  test("a hidden facet can still be selected", async () => {
    const all = (await search(s, { query: "shirt", pageSize: 1 })).totalProductCount;
    const myntra = (await search(s, { query: "shirt", facets: "tag.source:myntra", pageSize: 1 })).totalProductCount;
    expect(myntra).toBeGreaterThan(0);
    expect(myntra).toBeLessThan(all);
  });
});

describe("the store's facet settings", () => {
  test("a list chooses the facets and their order; names per locale; values shown per facet or store-wide", async () => {
    const res = await patch({
      facets: [
        { key: "designer", names: { en: "Label", de: "Marke des Hauses" }, shownValues: 3 },
        { key: "price" },
        { key: "tag.year", names: { en: "Season year" } },
        { key: "gender" },
      ],
      facetShownValues: 5,
    });
    expect(res.status).toBe(200);
    const facets = await facetsFor("shirt");
    expect(facets.map((f) => f.key)).toEqual(["designer", "price", "tag.year", "gender"]);
    expect(facets.map((f) => f.name)).toEqual(["Label", "Price", "Season year", "Gender"]);
    expect(facets.map((f) => f.shownValues)).toEqual([3, 5, 5, 5]);
    const de = await facetsFor("shirt", { language: "de-AT" });
    expect(de.map((f) => f.name)).toEqual(["Marke des Hauses", "Preis", "Season year", "Geschlecht"]);
  });

  test("a wildcard brings every tag not listed on its own, internal tags still out", async () => {
    expect((await patch({ facets: [{ key: "tag.*" }, { key: "tag.source", names: { en: "Feed" } }] })).status).toBe(200);
    const facets = await facetsFor("shirt");
    const keys = facets.map((f) => f.key);
    expect(keys.every((k) => k.startsWith("tag."))).toBe(true);
    expect(keys.at(-1)).toBe("tag.source");
    expect(facets.at(-1)!.name).toBe("Feed");
    for (const hidden of ["tag.year", "tag.color", "tag.type"]) expect(keys).not.toContain(hidden);
    expect(keys).toContain("tag.sleeve");
  });

  test("null restores the default; GET answers the effective settings with every default filled in", async () => {
    const res = await patch({ facets: null, facetShownValues: null, newnessDays: 30 });
    expect(res.status).toBe(200);
    const answered = (await res.json()) as Record<string, unknown>;
    const effective = await settings();
    expect(answered).toEqual(effective);
    expect(effective).toMatchObject({
      newnessDays: 30,
      vendorLiftPerVendor: 2,
      ratingPrior: { mean: 0.7, weight: 10 },
      locale: "en",
      allowedOrigins: ["*"],
      currencyConversion: null,
      facetShownValues: 8,
    });
    expect((effective.facets as { key: string }[]).map((f) => f.key)).toContain("tag.*");
    expect((await facetsFor("shirt")).map((f) => f.key)).toContain("category.lvl0");
    expect((await patch({ newnessDays: null })).status).toBe(200);
    expect((await settings()).newnessDays).toBe(7);
  });

  const INVALID: [body: unknown, path: string][] = [
    [{ facets: [{ key: "brand" }] }, "body.facets[0].key"],
    [{ facets: [{ key: "designer" }, { key: "designer" }] }, "body.facets[1].key"],
    [{ facets: [{ key: "designer", shownValues: 0 }] }, "body.facets[0].shownValues"],
    [{ facets: [{ key: "designer", names: { en_US: "x" } }] }, "body.facets[0].names"],
    [{ facetShownValues: 201 }, "body.facetShownValues"],
    [{ noSuchSetting: null }, "body.noSuchSetting"],
  ];
  for (const [body, path] of INVALID) {
    test(`400 naming ${path}: ${JSON.stringify(body).slice(0, 70)}`, async () => {
      const res = await patch(body);
      expect(res.status).toBe(400);
      const err = await errorBody(res);
      expect(err.details?.map((d) => d.path).some((p) => p.startsWith(path))).toBe(true);
    });
  }

  test("facet settings are admin-only", async () => {
    for (const kind of ["search", "analytics", null] as const)
      expect((await s.call(kind, "PATCH", "/1.9/settings", { facetShownValues: 3 })).status).toBe(401);
  });
});
