import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { demoProducts } from "./support/demo-products.ts";
import { product } from "./support/fixtures.ts";
import {
  deleteProduct,
  eventually,
  getJson,
  indexProducts,
  search,
  searchAll,
  type FacetBody,
  type Params,
  type SearchBody,
  type SearchProductBody,
} from "./support/search-client.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * GET /search over ~8,000 real products (Myntra, Flipkart, fashion product images). Every expected value is
 * computed here from the product array that was indexed (brute force), never by calling server code.
 */

const CATALOG_SIZE = 8000;
/** A real product given relatedIds (the demo catalog has none), to check that they are searchable. */
const RELATED_IDS = ["ALT-REF-0042", "ean-8901234567890"];

let s: TestServer;
let catalog: Product[];
let byId: Map<string, Product>;

beforeAll(async () => {
  // This file reads the search log right after searching: nothing is held back as typing (typing-coalescer.test.ts).
  s = await startTestServer({ SEARCH_LOG_SETTLE_MS: "0" });
  catalog = demoProducts(CATALOG_SIZE);
  catalog[5] = { ...catalog[5]!, relatedIds: RELATED_IDS };
  byId = new Map(catalog.map((p) => [p.id, p]));
  await indexProducts(s, catalog);
  // The text enrichment's words reach search after indexing: a test comparing totals of two queries must not
  // see them arrive between its searches.
  expect(await eventually(async () => textStagesInSearch(s.dataDir), 90_000, 100)).toBe(true);
}, 180_000);
afterAll(() => s?.stop());

// ---------------------------------------------------------------- brute force over the indexed array

/** What a shopper pays for the cheapest SKU: promoPrice where there is one, else price. */
function lowestPrice(p: Product): number | undefined {
  const prices = (p.skus ?? []).flatMap((sku) => {
    const v = sku.promoPrice ?? sku.price;
    return v === undefined ? [] : [v];
  });
  return prices.length ? Math.min(...prices) : undefined;
}

/** The facet values of a product as the spec and docs/api.md ("Search") describe them. */
function facetValuesOf(p: Product): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const put = (key: string, value: string | undefined) => {
    if (value === undefined || value.trim() === "") return;
    if (!out.has(key)) out.set(key, new Set());
    out.get(key)!.add(value);
  };
  put("designer", p.brand);
  const cats = p.categories ?? [];
  for (let level = 0; level < cats.length; level++) put(`category.lvl${level}`, cats.slice(0, level + 1).join(" > "));
  put("gender", p.gender);
  put("ageGroup", p.ageGroup);
  for (const v of p.variations ?? []) put("color", v.name);
  for (const sku of p.skus ?? []) put("size", sku.size);
  for (const sku of p.skus ?? []) put("availability", sku.availability);
  for (const c of p.collections ?? []) put("collection", c);
  for (const tag of [...(p.tags ?? []), ...(p.skus ?? []).flatMap((sku) => sku.tags ?? [])]) {
    const at = tag.indexOf(":");
    put(`tag.${tag.slice(0, at)}`, tag.slice(at + 1));
  }
  return out;
}

const facetCache = new WeakMap<Product, Map<string, Set<string>>>();
const facetsOf = (p: Product) => facetCache.get(p) ?? facetCache.set(p, facetValuesOf(p)).get(p)!;
/** The default facet list (docs/api.md, "Search", facets): category levels 1-3, and no tag that is feed bookkeeping or a copy of a built-in facet. */
const shownByDefault = (key: string) =>
  !["tag.color", "tag.source", "tag.type", "tag.year"].includes(key) && !/^category\.lvl([3-9]|\d\d)$/.test(key);

/** A selection as the spec says: OR within a key, AND across keys; price as lb <= lowest price <= ub. */
type Selection = Record<string, string[]>;
function matchesSelection(p: Product, selection: Selection, except?: string): boolean {
  for (const [key, values] of Object.entries(selection)) {
    if (key === except) continue;
    if (key === "price") {
      const price = lowestPrice(p);
      const ok = values.every((range) => {
        const [lb, ub] = range.split("-").map((x) => (x === "" ? undefined : Number(x)));
        return price !== undefined && (lb === undefined || price >= lb) && (ub === undefined || price <= ub);
      });
      if (!ok) return false;
      continue;
    }
    const held = facetsOf(p).get(key);
    if (!held || !values.some((v) => held.has(v))) return false;
  }
  return true;
}

/** Facet values by count (desc) then value, as the engine lists them (at most 200 shown). */
function expectedFacet(products: readonly Product[], key: string): { key: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const p of products) for (const v of facetsOf(p).get(key) ?? []) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([k, count]) => ({ key: k, count }))
    .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, 200);
}

const shown = (facet: FacetBody | undefined) => facet?.values.map((v) => ({ key: v.key, count: v.count })) ?? [];
const facetOf = (body: SearchBody, key: string) => body.facets.find((f) => f.key === key);
const ids = (products: readonly SearchProductBody[]) => products.map((p) => p.productId);
const catalogProduct = (sp: SearchProductBody) =>
  byId.get(sp.productId) ??
  (() => {
    throw new Error(`unknown product ${sp.productId}`);
  })();

const top10 = async (query: string, extra: Params = {}) => search(s, { query, pageSize: 10, ...extra });
const overlap = (a: readonly string[], b: readonly string[]) => a.filter((x) => b.includes(x)).length;

const text = (p: Product) => [p.name, ...(p.variations ?? []).map((v) => v.name ?? "")].join(" ");

/**
 * Whether the product's own (deepest) category names end with `noun`, in any part joined by "&", "and", "," or
 * "/": the catalog files it as one. A query naming a product type finds exactly these (no T-shirt for "shirt").
 */
const inCategory = (p: Product, noun: RegExp) =>
  ((p.categories ?? []).at(-1) ?? "").split(/\s*(?:&|,|\/|\band\b)\s*/i).some((part) => noun.test(part.trim().split(/\s+/).at(-1) ?? ""));

// ---------------------------------------------------------------- relevance

interface RelevanceCase {
  query: string;
  /** Every product of the top 10 satisfies this. */
  every: (p: Product) => boolean;
  /** No product of the top 10 satisfies this. */
  none?: (p: Product) => boolean;
  /** Every catalog product satisfying this is somewhere in the results (recall). */
  mustFind?: (p: Product) => boolean;
}

const RELEVANCE: RelevanceCase[] = [
  {
    query: "jackets",
    every: (p) => inCategory(p, /^jackets?$/i),
    none: (p) => /\bjeans?\b/i.test(p.name),
    mustFind: (p) => inCategory(p, /^jackets?$/i),
  },
  {
    query: "nike shoes",
    every: (p) => p.brand === "Nike" && /\bshoes?\b/i.test(p.name),
    mustFind: (p) => p.brand === "Nike" && /\bshoes?\b/i.test(p.name),
  },
  {
    query: "women kurta",
    every: (p) => p.gender === "Women" && inCategory(p, /^kurtas?$/i),
    none: (p) => p.gender === "Men",
    mustFind: (p) => (p.gender === "Women" || p.gender === "Unisex") && inCategory(p, /^kurtas?$/i),
  },
  {
    query: "blue jeans",
    every: (p) => /\bjeans?\b/i.test(p.name) && /\bblue\b/i.test(text(p)),
    none: (p) => /\bjackets?\b/i.test(p.name),
  },
  { query: "watch", every: (p) => inCategory(p, /^watch(es)?$/i), mustFind: (p) => inCategory(p, /^watch(es)?$/i) },
  { query: "puma", every: (p) => /\bpuma\b/i.test(p.brand ?? ""), mustFind: (p) => p.brand === "Puma" },
  {
    query: "men shoes",
    every: (p) => inCategory(p, /^shoes?$/i),
    none: (p) => p.gender === "Women",
  },
  { query: "sunglasses", every: (p) => inCategory(p, /^sunglass(es)?$/i), mustFind: (p) => inCategory(p, /^sunglass(es)?$/i) },
  { query: "saree", every: (p) => inCategory(p, /^sarees?$/i) },
  { query: "lipstick", every: (p) => /\blipsticks?\b/i.test(p.name), none: (p) => /\bshoes?\b/i.test(p.name) },
  { query: "handbag", every: (p) => inCategory(p, /^handbags?$/i), mustFind: (p) => inCategory(p, /^handbags?$/i) },
  {
    query: "levis jeans",
    every: (p) => /\blevis\b/i.test(`${p.brand} ${p.name}`) && /\bjeans?\b/i.test(p.name),
    mustFind: (p) => p.brand === "Levis" && /\bjeans\b/i.test(p.name),
  },
  {
    query: "pepe jeans",
    every: (p) => p.brand === "Pepe Jeans",
    mustFind: (p) => p.brand === "Pepe Jeans" && /\bjeans\b/i.test(p.name.replace(/^Pepe Jeans/, "")),
  },
  { query: "sweatshirt", every: (p) => /\bsweatshirts?\b/i.test(p.name), none: (p) => /\bshoes?\b/i.test(p.name) },
];

describe("relevance on the real catalog", () => {
  test("the demo catalog was indexed whole", async () => {
    expect(await s.service.engineCount(s.storeId)).toBe(CATALOG_SIZE);
    const all = await search(s, { collection: "summer", pageSize: 1 });
    expect(all.totalProductCount).toBe(catalog.filter((p) => p.collections?.includes("summer")).length);
  });

  for (const c of RELEVANCE) {
    test(`"${c.query}": the top 10 are what was asked for`, async () => {
      const body = await top10(c.query);
      expect(body.fallback).toBe(false);
      expect(body.query).toBe(c.query);
      expect(body.totalProductCount).toBeGreaterThanOrEqual(3);
      expect(body.products).toHaveLength(Math.min(10, body.totalProductCount));
      const top = body.products.map(catalogProduct);
      expect(top.filter((p) => !c.every(p)).map((p) => p.name)).toEqual([]);
      if (c.none) expect(top.filter(c.none).map((p) => p.name)).toEqual([]);
      if (c.mustFind) {
        const expected = catalog.filter(c.mustFind).map((p) => p.id);
        expect(expected.length).toBeGreaterThan(0);
        const all = await searchAll(s, { query: c.query });
        const found = new Set(ids(all.products));
        expect(expected.filter((id) => !found.has(id))).toEqual([]);
        expect(all.total).toBeGreaterThanOrEqual(expected.length);
      }
    });
  }

  test("an exact product name finds that product in the top 3 (first in most cases)", async () => {
    // Names that occur once in the catalog (case-insensitively), long enough to be specific.
    const nameCount = new Map<string, number>();
    for (const p of catalog) nameCount.set(p.name.toLowerCase(), (nameCount.get(p.name.toLowerCase()) ?? 0) + 1);
    const unique = catalog.filter(
      (p) => nameCount.get(p.name.toLowerCase()) === 1 && p.name.split(/\s+/).length >= 4 && p.name.length < 100,
    );
    const picked = Array.from({ length: 12 }, (_, i) => unique[Math.floor((i * unique.length) / 12)]!);
    let first = 0;
    for (const p of picked) {
      const body = await top10(p.name);
      const rank = ids(body.products).indexOf(p.id);
      expect({ name: p.name, inTop3: rank >= 0 && rank < 3 }).toEqual({ name: p.name, inTop3: true });
      if (rank === 0) first++;
    }
    expect(first).toBeGreaterThanOrEqual(10);
  });

  test("a query equal to a product id, in any case, finds that product first", async () => {
    for (const p of [catalog[0]!, catalog[1]!, catalog[2]!, catalog[4000]!]) {
      for (const q of [p.id, p.id.toUpperCase(), ` ${p.id} `]) {
        const body = await top10(q);
        expect(body.products[0]?.productId).toBe(p.id);
      }
    }
  });

  test("a query equal to one of a product's relatedIds finds that product first", async () => {
    for (const q of [...RELATED_IDS, RELATED_IDS[0]!.toLowerCase()]) {
      const body = await top10(q);
      expect(body.products[0]?.productId).toBe(catalog[5]!.id);
    }
  });
});

describe("typos, prefixes and word forms", () => {
  // 1 typo from 4 letters, 2 from 8; a transposition is one typo.
  const TYPOS: [typo: string, correct: string][] = [
    ["jakcets", "jackets"], // transposition
    ["sneekers", "sneakers"], // substitution
    ["kurtaa", "kurta"], // insertion
    ["sunglases", "sunglasses"], // deletion
    ["handbga", "handbag"], // transposition at the end
    ["swaetshrit", "sweatshirt"], // two transpositions in a 10-letter word
    ["wacth", "watch"],
    // Several look-alikes ("shoe", "shop", "show", "shook"; "jean", "teen", "been"): the common one must win.
    ["shoos", "shoes"],
    ["jeens", "jeans"],
  ];
  for (const [typo, correct] of TYPOS) {
    test(`"${typo}" gives mostly the same top 10 as "${correct}"`, async () => {
      const [a, b] = await Promise.all([top10(typo), top10(correct)]);
      expect(b.products).toHaveLength(10);
      expect(overlap(ids(a.products), ids(b.products))).toBeGreaterThanOrEqual(8);
      expect(a.fallback).toBe(false);
    });
  }

  test("typos beyond the rules find nothing: 2 typos in a 7-letter word, any typo in a 3-letter word", async () => {
    for (const q of ["jakcest", "tpo"]) {
      const body = await top10(q);
      expect(body.totalProductCount).toBe(0);
      expect(body.products).toEqual([]);
    }
  });

  test('prefix while typing: "jack" as a typeahead finds every jacket; searched, it is the word the catalog has (Jack & Jones)', async () => {
    const jackets = catalog.filter((p) => /\bjackets?\b/i.test(p.name)).map((p) => p.id);
    const all = await searchAll(s, { query: "jack", typeahead: true });
    const found = new Set(ids(all.products));
    expect(jackets.filter((id) => !found.has(id))).toEqual([]);
    const top = (await top10("jack", { typeahead: true })).products.map(catalogProduct);
    expect(top.filter((p) => /jacket/i.test(p.name)).length).toBeGreaterThanOrEqual(8);
    const searched = await searchAll(s, { query: "jack" });
    expect(
      searched.products
        .map(catalogProduct)
        .filter((p) => !/\bjack\b/i.test(`${p.name} ${p.brand} ${p.description}`))
        .map((p) => p.name),
    ).toEqual([]);
  });

  test('a word the catalog only has longer forms of completes when searched: "sneak" finds the sneakers', async () => {
    const body = await top10("sneak");
    expect(body.typedQuery).toBeUndefined();
    expect(
      body.products
        .map(catalogProduct)
        .filter((p) => !/sneak/i.test(`${p.name} ${p.description}`))
        .map((p) => p.name),
    ).toEqual([]);
    expect(body.totalProductCount).toBeGreaterThan(10);
  });

  test('plural and singular: "jacket" and "jackets" find the same products in the same order', async () => {
    const [a, b] = await Promise.all([searchAll(s, { query: "jacket" }), searchAll(s, { query: "jackets" })]);
    expect(a.total).toBe(b.total);
    expect(ids(a.products)).toEqual(ids(b.products));
  });

  test('accents and case: "kurtá", "KURTA" and "kurta" give the same results; "sortilege" finds "Sortilège"', async () => {
    const [plain, accented, upper] = await Promise.all([top10("kurta"), top10("kurtá"), top10("KURTA")]);
    expect(accented.totalProductCount).toBe(plain.totalProductCount);
    expect(upper.totalProductCount).toBe(plain.totalProductCount);
    expect(ids(accented.products)).toEqual(ids(plain.products));
    expect(ids(upper.products)).toEqual(ids(plain.products));
    const accentedNames = catalog.filter((p) => /sortilège/i.test(p.name));
    if (accentedNames.length) {
      const body = await top10("sortilege");
      expect(ids(body.products)).toContain(accentedNames[0]!.id);
    }
    const decor = catalog.filter((p) => /\bdécor\b/i.test(p.name)).map((p) => p.id);
    if (decor.length) {
      const [a, b] = await Promise.all([searchAll(s, { query: "decor" }), searchAll(s, { query: "décor" })]);
      expect(a.total).toBeGreaterThan(0);
      expect(ids(a.products)).toEqual(ids(b.products));
    }
  });

  test('hyphen variants: every product filed as T-shirts is found by "t-shirt", "tshirt" and "t shirt"', async () => {
    const tshirts = catalog.filter((p) => inCategory(p, /^t-?shirts?$/i)).map((p) => p.id);
    expect(tshirts.length).toBeGreaterThan(100);
    for (const q of ["t-shirt", "tshirt", "t shirt"]) {
      const all = await searchAll(s, { query: q });
      const found = new Set(ids(all.products));
      expect({ q, missing: tshirts.filter((id) => !found.has(id)) }).toEqual({ q, missing: [] });
    }
  });

  test('hyphen variants: "t-shirt", "tshirt" and "t shirt" give the same top-10 set', async () => {
    const [a, b, c] = await Promise.all(["t-shirt", "tshirt", "t shirt"].map((q) => top10(q)));
    expect(a!.products).toHaveLength(10);
    expect(new Set(ids(b!.products))).toEqual(new Set(ids(a!.products)));
    expect(new Set(ids(c!.products))).toEqual(new Set(ids(a!.products)));
  });

  // BUG (server/src/engine/sqlite/fts-query.ts:43, `terms.push((parts AND-ed))`, and the pair clause at :57):
  // the parts of "t-shirt" (and the words of "t shirt") match as independent tokens anywhere in a product,
  // not as adjacent words, so "t-shirt" and "t shirt" also find fk-TOPEGGYPVQRX7UD8, a women's top whose
  // description says "don't" (token "t") and whose category is "Shirts Tops & Tunics": 975 results for
  // "t-shirt" and "t shirt", 974 for "tshirt".
  test('hyphen variants: "t-shirt", "tshirt" and "t shirt" have equal totals', async () => {
    const [a, b, c] = await Promise.all(["t-shirt", "tshirt", "t shirt"].map((q) => top10(q)));
    expect(b!.totalProductCount).toBe(a!.totalProductCount);
    expect(c!.totalProductCount).toBe(a!.totalProductCount);
  });
});

describe("fallback and spell suggestions", () => {
  test('"dres" (folds to "dre") is read as "dress": every dress, and the answer says so', async () => {
    const dresses = catalog.filter((p) => inCategory(p, /^dress(es)?$/i)).map((p) => p.id);
    const all = await searchAll(s, { query: "dres" });
    const found = new Set(ids(all.products));
    expect(dresses.filter((id) => !found.has(id))).toEqual([]);
    const body = await top10("dres");
    expect(body).toMatchObject({ query: "dress", typedQuery: "dres", fallback: false, spellSuggestions: [] });
    expect(body.totalProductCount).toBe((await top10("dress")).totalProductCount);
  });

  test("an unknown word added to a good query is dropped: fallback, the results of the good query, the query used", async () => {
    const good = await top10("nike shoes");
    expect(good.totalProductCount).toBeGreaterThan(10);
    for (const q of ["nike shoes qwzxv", "qwzxv nike shoes", "nike qwzxv shoes"]) {
      const body = await top10(q);
      expect(body.fallback).toBe(true);
      expect(body.query).toBe("nike shoes");
      expect(body.totalProductCount).toBe(good.totalProductCount);
      expect(ids(body.products)).toEqual(ids(good.products));
    }
  });

  test("known words that match nothing together: plain words go first, the product type (the last one named) stays", async () => {
    // Brute force: no product names both, so the query as typed finds nothing.
    expect(catalog.some((p) => /\bjeans?\b/i.test(p.name) && /\blipsticks?\b/i.test(p.name))).toBe(false);
    const body = await top10("jeans lipstick");
    expect(body.fallback).toBe(true);
    expect(body.query).toBe("lipstick");
    expect(body.totalProductCount).toBe((await top10("lipstick")).totalProductCount);
    // An earlier type word only describes the last one, and goes before the colour.
    expect((await top10("blue lipstick jeans")).query).toBe("blue jeans");
  });

  test("a query that finds nothing even alone is no fallback: 0 results, the query as sent", async () => {
    const body = await top10("zzyzxqv");
    expect(body).toMatchObject({ totalProductCount: 0, products: [], fallback: false, query: "zzyzxqv" });
  });

  test("a found query is not a fallback and has no spell suggestions", async () => {
    const body = await top10("jackets");
    expect(body.fallback).toBe(false);
    expect(body.spellSuggestions).toEqual([]);
  });

  test("a misspelt word is searched as its correction, which the answer names; no spell suggestions then", async () => {
    const one = await top10("sunglases");
    expect(one).toMatchObject({ query: "sunglasses", typedQuery: "sunglases", spellSuggestions: [] });
    expect(ids(one.products)).toEqual(ids((await top10("sunglasses")).products));
    const two = await top10("nike sheos");
    expect(two).toMatchObject({ query: "nike shoes", typedQuery: "nike sheos" });
    expect((await top10("jakcets")).query).toMatch(/^jackets?$/);
    // A word the catalog has is never corrected, and no "did you mean" is offered for it.
    const known = await top10("kurti");
    expect(known.typedQuery).toBeUndefined();
    expect(known.spellSuggestions).toEqual([]);
  });

  test('"search instead for": autocorrect=false searches the words as typed and offers the correction as a suggestion', async () => {
    const typed = await top10("sunglases", { autocorrect: false });
    expect(typed.typedQuery).toBeUndefined();
    expect(typed.query).toBe("sunglases");
    expect(typed.totalProductCount).toBe(0);
    expect(typed.spellSuggestions).toEqual(["sunglasses"]);
    expect((await top10("sunglases", { autocorrect: false, spellEnabled: false })).spellSuggestions).toEqual([]);
  });
});

// ---------------------------------------------------------------- facets

describe("facets", () => {
  test("collection=summer: every facet's counts equal the counts over the collection's products", async () => {
    const members = catalog.filter((p) => p.collections?.includes("summer"));
    const body = await search(s, { collection: "summer", returnFacets: true, pageSize: 1 });
    expect(body.totalProductCount).toBe(members.length);
    expect(body.collection).toBe("summer");
    const keys = new Set<string>();
    for (const p of members) for (const k of facetsOf(p).keys()) if (k !== "collection" && shownByDefault(k)) keys.add(k);
    // On a collection page the collection itself is not offered as a facet; internal tags and deep levels are hidden.
    expect(body.facets.map((f) => f.key).sort()).toEqual([...keys, "price"].sort());
    for (const key of keys) expect({ key, values: shown(facetOf(body, key)) }).toEqual({ key, values: expectedFacet(members, key) });
    // A category value is shown by its last level.
    for (const v of facetOf(body, "category.lvl1")!.values) expect(v.name).toBe(v.key.split(" > ").at(-1)!);
    for (const key of ["designer", "gender", "color"]) expect(shown(facetOf(body, key)).length).toBeGreaterThan(1);
  });

  test("returnFacets=false (the default) returns no facets; facetsEnabled=true is an alias", async () => {
    expect((await search(s, { collection: "summer", pageSize: 1 })).facets).toEqual([]);
    const alias = await search(s, { collection: "summer", pageSize: 1, facetsEnabled: true });
    expect(alias.facets.length).toBeGreaterThan(5);
  });

  test("disjunctive counts: designer:Nike,designer:Puma on collection=casual", async () => {
    const members = catalog.filter((p) => p.collections?.includes("casual"));
    const selection: Selection = { designer: ["Nike", "Puma"] };
    const selected = members.filter((p) => matchesSelection(p, selection));
    const before = await search(s, { collection: "casual", returnFacets: true, pageSize: 1 });
    const body = await search(s, { collection: "casual", facets: "designer:Nike,designer:Puma", returnFacets: true, pageSize: 100 });
    expect(selected.length).toBeGreaterThan(20);
    expect(body.totalProductCount).toBe(selected.length);
    expect(new Set(body.products.map((p) => p.designer))).toEqual(new Set(["Nike", "Puma"]));
    // The selected key's counts ignore its own selection: the same as without it, other designers included.
    expect(shown(facetOf(body, "designer"))).toEqual(shown(facetOf(before, "designer")));
    expect(shown(facetOf(body, "designer"))).toEqual(expectedFacet(members, "designer"));
    // Other keys count among the selected products.
    for (const key of ["gender", "color", "size", "category.lvl1", "tag.usage"]) {
      expect({ key, values: shown(facetOf(body, key)) }).toEqual({ key, values: expectedFacet(selected, key) });
    }
    // The price facet counts the selected products too.
    const price = facetOf(body, "price")!;
    expect(price.values.reduce((sum, v) => sum + v.count, 0)).toBe(selected.length);
  });

  test("disjunctive counts with a price range and a second key selected", async () => {
    const members = catalog.filter((p) => p.collections?.includes("casual"));
    // Bounds no product sits on, so the result does not depend on whether a bound is inclusive.
    const prices = new Set(members.map(lowestPrice));
    const [lb, ub] = [1001.5, 2999.5];
    expect(prices.has(lb) || prices.has(ub)).toBe(false);
    const selection: Selection = { designer: ["Nike", "Puma"], gender: ["Men"], price: [`${lb}-${ub}`] };
    const body = await search(s, {
      collection: "casual",
      facets: `designer:Nike,designer:Puma,gender:Men,price:${lb}-${ub}`,
      returnFacets: true,
      pageSize: 100,
    });
    const selected = members.filter((p) => matchesSelection(p, selection));
    expect(selected.length).toBeGreaterThan(5);
    expect(body.totalProductCount).toBe(selected.length);
    expect(new Set(ids(body.products))).toEqual(new Set(selected.map((p) => p.id)));
    for (const key of ["designer", "gender"]) {
      const others = members.filter((p) => matchesSelection(p, selection, key));
      expect({ key, values: shown(facetOf(body, key)) }).toEqual({ key, values: expectedFacet(others, key) });
    }
    expect({ key: "color", values: shown(facetOf(body, "color")) }).toEqual({ key: "color", values: expectedFacet(selected, "color") });
    // Price buckets ignore the price selection, but not the others.
    const withoutPrice = members.filter((p) => matchesSelection(p, selection, "price"));
    expect(facetOf(body, "price")!.values.reduce((sum, v) => sum + v.count, 0)).toBe(withoutPrice.length);
  });

  test("several keys AND-ed, including category paths and tags", async () => {
    const members = catalog.filter((p) => p.collections?.includes("summer"));
    const selection: Selection = { gender: ["Women"], "category.lvl1": ["Apparel > Topwear"], "tag.usage": ["casual"] };
    const selected = members.filter((p) => matchesSelection(p, selection));
    expect(selected.length).toBeGreaterThan(10);
    const all = await searchAll(s, { collection: "summer", facets: "gender:Women,category.lvl1:Apparel > Topwear,tag.usage:casual" });
    expect(all.total).toBe(selected.length);
    expect(new Set(ids(all.products))).toEqual(new Set(selected.map((p) => p.id)));
  });

  test("a value holding a comma is selected with a backslash escape", async () => {
    const withComma = catalog.find((p) => (p.variations ?? []).some((v) => v.name?.includes(",")) && p.collections?.length)!;
    expect(withComma).toBeDefined();
    const color = withComma.variations!.find((v) => v.name?.includes(","))!.name!;
    const collection = withComma.collections![0]!;
    const expected = catalog.filter((p) => p.collections?.includes(collection) && matchesSelection(p, { color: [color] }));
    const body = await search(s, { collection, facets: `color:${color.replaceAll("\\", "\\\\").replaceAll(",", "\\,")}`, pageSize: 100 });
    expect(body.totalProductCount).toBe(expected.length);
    expect(ids(body.products)).toContain(withComma.id);
  });

  test("with a query: selecting designers gives the sum of their counts and keeps the designer counts", async () => {
    const before = await search(s, { query: "shoes", returnFacets: true, pageSize: 1 });
    const designers = facetOf(before, "designer")!.values.slice(0, 3);
    const body = await search(s, {
      query: "shoes",
      returnFacets: true,
      pageSize: 100,
      facets: designers.map((d) => `designer:${d.key}`).join(","),
    });
    // A product has one designer, so the selection finds exactly the sum of the selected values' counts.
    expect(body.totalProductCount).toBe(designers.reduce((sum, d) => sum + d.count, 0));
    expect(shown(facetOf(body, "designer"))).toEqual(shown(facetOf(before, "designer")));
    // Other keys count the selected products: brute force over every page of the selection.
    const all = await searchAll(s, { query: "shoes", facets: designers.map((d) => `designer:${d.key}`).join(",") });
    expect(all.products).toHaveLength(body.totalProductCount);
    const selected = all.products.map(catalogProduct);
    expect(shown(facetOf(body, "gender"))).toEqual(expectedFacet(selected, "gender"));
    expect(shown(facetOf(body, "color"))).toEqual(expectedFacet(selected, "color"));
  });

  test("price buckets: ascending, non-overlapping, covering every product; each count is right", async () => {
    for (const collection of ["summer", "casual", "sale", "ethnic"]) {
      const members = catalog.filter((p) => p.collections?.includes(collection));
      const body = await search(s, { collection, returnFacets: true, pageSize: 1 });
      const buckets = facetOf(body, "price")!.values;
      expect(buckets.length).toBeGreaterThan(1);
      expect(buckets.reduce((sum, v) => sum + v.count, 0)).toBe(body.totalProductCount);
      const prices = members.map((p) => lowestPrice(p)!);
      expect(buckets[0]!.lb!).toBeLessThanOrEqual(Math.min(...prices));
      expect(buckets.at(-1)!.ub!).toBeGreaterThanOrEqual(Math.max(...prices));
      buckets.forEach((b, i) => {
        expect(b.key).toBe(`${b.lb}-${b.ub}`);
        expect(b.lb!).toBeLessThan(b.ub!);
        if (i > 0) expect(b.lb!).toBeGreaterThanOrEqual(buckets[i - 1]!.ub!);
        // [lb, ub), the last one closed.
        const last = i === buckets.length - 1;
        const count = prices.filter((x) => x >= b.lb! && (x < b.ub! || (last && x === b.ub!))).length;
        expect({ bucket: b.key, count: b.count }).toEqual({ bucket: b.key, count });
      });
    }
  });

  // BUG (server/src/engine/sqlite/store-index.ts:279, `group: -1 - this.numberFields.indexOf(filter.field)`):
  // when no product of the store has a price yet, indexOf is -1, so the price filter's group is 0, the id of
  // the first facet key (designer). A document failing only the price filter then counts for the designer
  // facet: with "price:0-100" selected and 0 results, the designer facet still lists every designer.
  test("a price selection in a store without prices leaves no facet counts", async () => {
    const keys = await s.createStore("no-prices");
    const as = (kind: "admin" | "search") => ({ "x-service-store-id": "no-prices", "x-service-api-key": keys[kind] });
    const products = [1, 2, 3].map((i) => {
      const p = product(`np-${i}`, { name: `Unpriced thing ${i}`, brand: `Maker ${i}`, collections: ["np"] });
      delete p.skus;
      return p;
    });
    const posted = await s.call("admin", "POST", "/1.9/products", products, as("admin"));
    const { taskId } = (await posted.json()) as { taskId: string };
    expect(
      await eventually(async () => {
        const task = await s.call("admin", "GET", `/1.9/tasks/${taskId}`, undefined, as("admin"));
        return ((await task.json()) as { status: string }).status === "complete";
      }, 10_000),
    ).toBe(true);
    const res = await s.call("search", "GET", "/1.9/search?collection=np&returnFacets=true&facets=price:0-100", undefined, as("search"));
    const body = (await res.json()) as SearchBody;
    expect(body.totalProductCount).toBe(0);
    expect(shown(facetOf(body, "designer"))).toEqual([]);
  });

  // BUG (server/src/engine/range-buckets.ts:43 counts a bucket as [lb, ub), while a "price:lb-ub" selection
  // becomes an inclusive range filter, server/src/engine/sqlite/store-index.ts:282 `v >= min && v <= max`):
  // a product priced exactly at ub is counted in the next bucket but found by both selections.
  // collection=sale: bucket "0-2000" says 2662, selecting it finds 2664 (two products cost exactly 2000).
  test("selecting a price bucket finds exactly the bucket's count", async () => {
    for (const collection of ["sale", "casual"]) {
      const body = await search(s, { collection, returnFacets: true, pageSize: 1 });
      for (const b of facetOf(body, "price")!.values) {
        const picked = await search(s, { collection, facets: `price:${b.key}`, pageSize: 1 });
        expect({ collection, bucket: b.key, total: picked.totalProductCount }).toEqual({ collection, bucket: b.key, total: b.count });
      }
    }
  });
});

// ---------------------------------------------------------------- parameters

describe("parameter validation", () => {
  const long = "x".repeat(513);
  const CASES: [params: Params, path: string][] = [
    [{}, "query.query"],
    [{ pageSize: 5 }, "query.query"],
    [{ query: "   " }, "query.query"],
    [{ query: long }, "query.query"],
    [{ query: "a\u0001b" }, "query.query"],
    [{ collection: "x".repeat(257) }, "query.collection"],
    [{ query: "shoes", pageSize: 0 }, "query.pageSize"],
    [{ query: "shoes", pageSize: 101 }, "query.pageSize"],
    [{ query: "shoes", pageSize: "abc" }, "query.pageSize"],
    [{ query: "shoes", pageSize: "1.5" }, "query.pageSize"],
    [{ query: "shoes", from: -1 }, "query.from"],
    [{ query: "shoes", from: 10_001 }, "query.from"],
    [{ query: "shoes", from: "ten" }, "query.from"],
    [{ query: "shoes", offset: -3 }, "query.offset"],
    [{ query: "shoes", from: 9_990, pageSize: 11 }, "query.from"],
    [{ query: "shoes", sortBy: "cheapest" }, "query.sortBy"],
    [{ query: "shoes", sortBy: "campaign" }, "query.campaignProducts"],
    [{ query: "shoes", sortBy: "campaign", campaignProducts: " , " }, "query.campaignProducts"],
    [
      { query: "shoes", sortBy: "campaign", campaignProducts: Array.from({ length: 101 }, (_, i) => `p${i}`).join(",") },
      "query.campaignProducts",
    ],
    [{ query: "shoes", facets: "designer" }, "query.facets"],
    [{ query: "shoes", facets: "designer:" }, "query.facets"],
    [{ query: "shoes", facets: ":Nike" }, "query.facets"],
    [{ query: "shoes", facets: "brand:Nike" }, "query.facets"],
    [{ query: "shoes", facets: "price:cheap" }, "query.facets"],
    [{ query: "shoes", facets: "price:500-100" }, "query.facets"],
    [{ query: "shoes", facets: "price:-" }, "query.facets"],
    [{ query: "shoes", userId: "shopper@example.com" }, "query.userId"],
    [{ query: "shoes", sessionId: "a b" }, "query.sessionId"],
    [{ query: "shoes", returnFacets: "maybe" }, "query.returnFacets"],
    [{ query: "shoes", facetsEnabled: "maybe" }, "query.facetsEnabled"],
    [{ query: "shoes", spellEnabled: "2" }, "query.spellEnabled"],
    [{ query: "shoes", preprod: "yes please" }, "query.preprod"],
  ];
  for (const [params, path] of CASES) {
    test(`400 naming ${path}: ${JSON.stringify(params).slice(0, 80)}`, async () => {
      const { status, body } = await getJson<{ message: string; code: string; details?: { path: string; problem: string }[] }>(
        s,
        "/search",
        params,
      );
      expect(status).toBe(400);
      expect(body.code).toBe("invalid_request");
      expect(body.message).toBeString();
      expect(body.message.length).toBeGreaterThan(0);
      expect(body.details?.[0]?.path).toBe(path);
      expect(body.details?.[0]?.problem).toBeString();
    });
  }

  test("the limits themselves are accepted: pageSize 1 and 100, from + pageSize = 10000, offset as alias of from", async () => {
    expect((await search(s, { query: "shoes", pageSize: 1 })).products).toHaveLength(1);
    expect((await search(s, { query: "shoes", pageSize: 100 })).products).toHaveLength(100);
    const end = await search(s, { query: "shoes", from: 9_900, pageSize: 100 });
    expect(end.products).toEqual([]);
    expect(end.totalProductCount).toBeGreaterThan(100);
    const [byFrom, byOffset] = await Promise.all([
      search(s, { query: "shoes", from: 5, pageSize: 5 }),
      search(s, { query: "shoes", offset: 5, pageSize: 5 }),
    ]);
    expect(ids(byOffset.products)).toEqual(ids(byFrom.products));
  });

  // BUG (cosmetic, server/src/modules/search/search-params.ts:79): the message repeats the parameter name,
  // "from from + pageSize must be at most 10000".
  test("the from + pageSize message reads well", async () => {
    const { body } = await getJson<{ message: string }>(s, "/search", { query: "shoes", from: 9_990, pageSize: 11 });
    expect(body.message).not.toContain("from from");
  });

  test("the default page is the first 30", async () => {
    const [def, explicit] = await Promise.all([search(s, { query: "shoes" }), search(s, { query: "shoes", from: 0, pageSize: 30 })]);
    expect(def.products).toHaveLength(30);
    expect(ids(def.products)).toEqual(ids(explicit.products));
  });
});

// ---------------------------------------------------------------- paging

describe("paging", () => {
  async function walk(params: Params): Promise<{ total: number; seen: string[] }> {
    const seen: string[] = [];
    let total = -1;
    for (let from = 0; ; from += 7) {
      const page = await search(s, { ...params, from, pageSize: 7 });
      if (total === -1) total = page.totalProductCount;
      expect(page.totalProductCount).toBe(total);
      seen.push(...ids(page.products));
      if (from + 7 >= total) break;
      expect(page.products).toHaveLength(7);
    }
    return { total, seen };
  }

  test("walking every page of a query (pageSize 7): no duplicates, no gaps", async () => {
    const { total, seen } = await walk({ query: "jackets" });
    expect(total).toBeGreaterThan(50);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    // The same products as one big page, in the same order.
    expect(seen).toEqual(ids((await searchAll(s, { query: "jackets" })).products));
  });

  test("walking every page of a price-sorted collection (pageSize 7): no duplicates, no gaps, prices ascending", async () => {
    const members = catalog.filter((p) => p.collections?.includes("formal"));
    const { total, seen } = await walk({ collection: "formal", sortBy: "pricea" });
    expect(total).toBe(members.length);
    expect(new Set(seen).size).toBe(total);
    expect(new Set(seen)).toEqual(new Set(members.map((p) => p.id)));
    const prices = seen.map((id) => lowestPrice(byId.get(id)!)!);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  test("walking every page of a price-sorted query: ties keep one order, union is the result set", async () => {
    const { total, seen } = await walk({ query: "watch", sortBy: "priced" });
    expect(new Set(seen).size).toBe(total);
    const prices = seen.map((id) => lowestPrice(byId.get(id)!)!);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });
});

// ---------------------------------------------------------------- keys and freshness

describe("keys", () => {
  test("search takes the search key (and admin); analytics key, no key, wrong key and another store are 401", async () => {
    const path = "/1.9/search?query=shoes&pageSize=1";
    expect((await s.call("search", "GET", path)).status).toBe(200);
    expect((await s.call("admin", "GET", path)).status).toBe(200);
    for (const res of [
      await s.call("analytics", "GET", path),
      await s.call(null, "GET", path),
      await s.call("search", "GET", path, undefined, { "x-service-api-key": "pk_search_wrong" }),
      await s.call("search", "GET", path, undefined, { "x-service-store-id": "another-store" }),
    ]) {
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe("unauthorized");
    }
  });
});

describe("freshness", () => {
  test("an upsert is searchable, and a delete gone, once its task has completed", async () => {
    const probe = product("fresh-probe-1", { name: "Quorblefax Probe Lantern", collections: [] });
    await indexProducts(s, [probe]);
    expect((await top10("quorblefax")).products[0]?.productId).toBe(probe.id);
    // The new word is known at once: not corrected, no fallback.
    const body = await top10("quorblefax lantern");
    expect(body).toMatchObject({ totalProductCount: 1, fallback: false, spellSuggestions: [] });

    await deleteProduct(s, probe.id);
    expect((await top10("quorblefax")).totalProductCount).toBe(0);
    expect(await s.service.engineCount(s.storeId)).toBe(CATALOG_SIZE);
  });
});

describe("search log", () => {
  const logged = async () => {
    const { Database } = await import("bun:sqlite");
    const db = new Database(`${s.dataDir}/service.db`, { readonly: true });
    const rows = db.query("SELECT query, result_count AS resultCount, user_id AS userId FROM search_log ORDER BY seq").all() as {
      query: string | null;
      resultCount: number;
      userId: string | null;
    }[];
    db.close();
    return rows;
  };

  test("every search is logged with its normalized query, result count and shopper; typeahead previews are not", async () => {
    await Bun.sleep(400); // earlier tests' searches are committed in batches every 250 ms
    const before = (await logged()).length;
    const res = await s.call("search", "GET", "/1.9/search?query=%20Blue%20%20JEANS%20&userId=u7&pageSize=1");
    const { totalProductCount } = (await res.json()) as { totalProductCount: number };
    await s.call("search", "GET", "/1.9/search?query=blue%20jea&typeahead=true&pageSize=4");
    await Bun.sleep(400);
    const rows = (await logged()).slice(before);
    expect(rows).toEqual([{ query: "blue jeans", resultCount: totalProductCount, userId: "u7" }]);
  });
});
