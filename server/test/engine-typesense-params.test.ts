import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../src/config.ts";
import { createEngine } from "../src/engine/create-engine.ts";
import { doc } from "../src/engine/conformance.ts";
import { TypoVocabulary } from "../src/text/typo-vocabulary.ts";
import {
  collectionSchema,
  decodeFieldPart,
  decodeVocabulary,
  encodeFieldPart,
  facetField,
  facetKeyOf,
  identifierKey,
  isStoreCollection,
  numberField,
  numberNameOf,
  sortKey,
  toTypesenseDocument,
  vocabularyPairs,
} from "../src/engine/typesense/collection-schema.ts";
import {
  compileFilters,
  filterBy,
  float32Decimal,
  formatNumber,
  literal,
  nativeSortBy,
  pageWindow,
  pinnedSort,
  queryTokens,
  without,
} from "../src/engine/typesense/search-params.ts";

/* The pure pieces of the Typesense adapter: field naming, document mapping, filter/sort/page building, config. */

const FIELDS = {
  facetKeys: new Set(["designer", "color", "category.lvl0", "tag.season"]),
  numbers: new Set(["price_min", "stock", "arrival_ts", "purchases"]),
};

describe("collection layout", () => {
  test("facet keys become safe, reversible field names", () => {
    expect(facetField("designer")).toBe("facet_designer");
    expect(facetField("category.lvl0")).toBe("facet_category_2e_lvl0");
    expect(facetField("tag.eco_line")).toBe("facet_tag_2e_eco_5f_line");
    for (const key of ["ageGroup", "category.lvl12", "tag.ü-x", "tag.a_b", "tag.(x)&y"]) {
      expect(facetKeyOf(facetField(key))).toBe(key);
      expect(decodeFieldPart(encodeFieldPart(key))).toBe(key);
      expect(facetField(key)).toMatch(/^facet_[A-Za-z0-9_]+$/);
    }
    expect(facetKeyOf("facet_.*")).toBeNull();
    expect(facetKeyOf("price_min")).toBeNull();
    expect(numberField("price_min")).toBe("price_min");
    expect(numberField("margin.pct")).toBe("num_margin_2e_pct");
    expect(numberNameOf("num_margin_2e_pct")).toBe("margin.pct");
  });

  test("the schema: token text fields, identifiers, sortable name, numbers and the facet regex field", () => {
    expect(collectionSchema("store_s1_1")).toEqual({
      name: "store_s1_1",
      fields: [
        { name: "version", type: "int64" },
        { name: "seq", type: "int64" },
        { name: "name", type: "string", optional: false },
        { name: "brand", type: "string", optional: true },
        { name: "categories", type: "string", optional: true },
        { name: "features", type: "string", optional: true },
        { name: "tags", type: "string", optional: true },
        { name: "description", type: "string", optional: true },
        { name: "identifiers", type: "string[]", optional: true },
        { name: "name_sort", type: "string", sort: true, optional: true },
        { name: "vocab", type: "string", index: false, optional: true },
        { name: "price_min", type: "float", optional: true, facet: true },
        { name: "price_max", type: "float", optional: true, facet: true },
        { name: "rating_wilson", type: "float", optional: true, facet: true },
        { name: "rating_bayes", type: "float", optional: true, facet: true },
        { name: "stock", type: "int64", optional: true, facet: true },
        { name: "purchases", type: "int64", optional: true, facet: true },
        { name: "arrival_ts", type: "int64", optional: true, facet: true },
        { name: "num_.*", type: "float", optional: true, facet: true },
        { name: "facet_.*", type: "string[]", optional: true, facet: true },
      ],
    });
  });

  test("a document is indexed as normalized tokens, facet fields and typed numbers", () => {
    const d = doc({
      id: "tee-black",
      name: "Black Crew T-Shirts",
      brand: "Zénith",
      categories: ["Apparel", "Tshirts"],
      description: "Soft cotton",
      relatedIds: ["SKU-1"],
      facets: { color: ["Black", "Black"], "category.lvl0": ["Apparel"] },
      numbers: { price_min: 15.5, stock: 2.6, arrival_ts: 259_200_000, "margin.pct": 0.25 },
      version: 4,
    });
    expect(toTypesenseDocument(d, 77)).toEqual({
      id: "tee-black",
      version: 4,
      seq: 77,
      name: "black crew t shirt tshirt",
      brand: "zenith",
      categories: "apparel tshirt",
      features: "",
      tags: "",
      description: "soft cotton",
      identifiers: [identifierKey("tee-black"), identifierKey("SKU-1")],
      name_sort: "black crew t-shirts",
      vocab: "black crew t shirt:shirts tshirt:tshirts zenith apparel soft cotton",
      facet_designer: ["Zénith"],
      facet_color: ["Black"],
      facet_category_2e_lvl0: ["Apparel"],
      price_min: 15.5,
      stock: 3,
      arrival_ts: 259_200_000,
      num_margin_2e_pct: 0.25,
    });
    expect(identifierKey("SKU-1")).toBe(identifierKey("sku-1"));
    expect(identifierKey("SKU-1")).toMatch(/^[0-9a-f]{32}$/);
    expect(decodeVocabulary("shirt:shirts tshirt")).toEqual([
      ["shirt", "shirts"],
      ["tshirt", "tshirt"],
    ]);
    expect(decodeVocabulary(toTypesenseDocument(d, 1).vocab as string)).toEqual(vocabularyPairs(d));
  });

  test("the name sort key folds case and accents and pads numbers", () => {
    const names = ["item 10", "Item 9", "Éclair", "eclair b", "Apple", "zebra"];
    expect([...names].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1))).toEqual([
      "Apple",
      "Éclair",
      "eclair b",
      "Item 9",
      "item 10",
      "zebra",
    ]);
  });

  test("store collections are recognized by name", () => {
    expect(isStoreCollection("a", "store_a_1700000000000")).toBe(true);
    expect(isStoreCollection("a", "store_a_b_1700000000000")).toBe(false);
    expect(isStoreCollection("a_b", "store_a_b_1700000000000")).toBe(true);
  });
});

describe("search parameters", () => {
  test("filters: OR within a key with backtick literals, half-open ranges, whole bounds for int64", () => {
    const clauses = compileFilters(
      [
        { kind: "terms", key: "designer", values: ["Levi's", "A, B (C) && D", "x`y"] },
        { kind: "range", field: "price_min", min: 40, max: 60 },
        { kind: "range", field: "stock", min: 2.5 },
        { kind: "range", field: "arrival_ts", max: 1e12 },
        { kind: "range", field: "purchases" },
      ],
      FIELDS,
    );
    expect(filterBy(clauses)).toBe(
      "facet_designer:=[`Levi's`,`A, B (C) && D`,`xy`] && price_min:>=40 && price_min:<60 && stock:>=3 && arrival_ts:<1000000000000 && purchases:>=-1000000000000000",
    );
    expect(filterBy(without(clauses, "terms:designer"))).not.toContain("facet_designer");
    expect(filterBy(without(clauses, "range:price_min"))).not.toContain("price_min");
  });

  test("an exclusion is `:!=[…]` in its key's group; on a key the collection does not have, or of no values, it is left out", () => {
    const clauses = compileFilters(
      [
        { kind: "terms", key: "designer", values: ["Acme"] },
        { kind: "excludeTerms", key: "designer", values: ["Levi's", "x`y"] },
        { kind: "excludeTerms", key: "tag.unknown", values: ["x"] },
        { kind: "excludeTerms", key: "color", values: [] },
      ],
      FIELDS,
    );
    expect(clauses).toEqual([
      { group: "terms:designer", expr: "facet_designer:=[`Acme`]" },
      { group: "terms:designer", expr: "facet_designer:!=[`Levi's`,`xy`]" },
    ]);
    expect(without(clauses, "terms:designer")).toEqual([]);
  });

  test("a facet key or number the collection does not have matches nothing", () => {
    const clauses = compileFilters(
      [
        { kind: "terms", key: "tag.unknown", values: ["x"] },
        { kind: "terms", key: "color", values: [] },
        { kind: "range", field: "nope", min: 1 },
      ],
      FIELDS,
    );
    expect(clauses).toEqual([
      { group: "terms:tag.unknown", expr: "version:<0" },
      { group: "terms:color", expr: "version:<0" },
      { group: "range:nope", expr: "version:<0" },
    ]);
  });

  test("native sorts: missing values last, relevance, name, pinned ids; insertion order ends the chain", () => {
    expect(nativeSortBy([{ kind: "relevance" }], FIELDS)).toBe("_text_match:desc,seq:asc");
    expect(nativeSortBy([{ kind: "number", field: "price_min", order: "asc" }, { kind: "relevance" }], FIELDS)).toBe(
      "price_min(missing_values: last):asc,_text_match:desc,seq:asc",
    );
    expect(nativeSortBy([{ kind: "number", field: "stock", order: "desc" }], FIELDS)).toBe("stock(missing_values: last):desc,seq:asc");
    expect(nativeSortBy([{ kind: "text", field: "name", order: "desc", locale: "de" }], FIELDS)).toBe("name_sort:desc,seq:asc");
    expect(nativeSortBy([{ kind: "pinned", ids: ["b", "a", "b", "c`d"] }, { kind: "relevance" }], FIELDS)).toBe(
      "_eval([ (id:=`b`):2, (id:=`a`):1 ]):desc,_text_match:desc,seq:asc",
    );
    expect(pinnedSort(["only"])).toBe("_eval(id:=`only`):desc");
    expect(pinnedSort([])).toBe("");
    // A number nobody has sorts nothing (as in the embedded engine); more than three fields are cut.
    expect(nativeSortBy([{ kind: "number", field: "nope", order: "asc" }, { kind: "relevance" }], FIELDS)).toBe("_text_match:desc,seq:asc");
    expect(
      nativeSortBy(
        [
          { kind: "number", field: "stock", order: "asc" },
          { kind: "number", field: "price_min", order: "asc" },
          { kind: "number", field: "purchases", order: "asc" },
          { kind: "relevance" },
        ],
        FIELDS,
      ),
    ).toBe("stock(missing_values: last):asc,price_min(missing_values: last):asc,purchases(missing_values: last):asc");
    expect(nativeSortBy([{ kind: "number", field: "arrival_ts", order: "desc", bucket: { origin: 0, width: 7 } }], FIELDS)).toBeNull();
    expect(nativeSortBy([{ kind: "liftPerGroup", key: "designer", perGroup: 2, seed: "s" }], FIELDS)).toBeNull();
  });

  test("page windows cover [offset, offset + limit) with 1-based pages of at most 250", () => {
    expect(pageWindow(0, 30)).toEqual({ pages: [{ page: 1, perPage: 30 }], skip: 0 });
    expect(pageWindow(3, 3)).toEqual({ pages: [{ page: 2, perPage: 3 }], skip: 0 });
    expect(pageWindow(5, 10)).toEqual({ pages: [{ page: 1, perPage: 15 }], skip: 5 });
    expect(pageWindow(0, 0)).toEqual({ pages: [], skip: 0 });
    expect(pageWindow(0, 600).pages).toEqual([
      { page: 1, perPage: 250 },
      { page: 2, perPage: 250 },
      { page: 3, perPage: 250 },
    ]);
    let twoPages = 0;
    for (let offset = 0; offset <= 9_900; offset += offset < 600 ? 1 : 97) {
      for (const limit of [1, 2, 3, 7, 10, 24, 30, 48, 99, 100, 200, 250]) {
        const w = pageWindow(offset, limit);
        const first = w.pages[0]!;
        const start = (first.page - 1) * first.perPage;
        const end = start + w.pages.reduce((n, p) => n + p.perPage, 0);
        expect(start + w.skip).toBe(offset);
        expect(end).toBeGreaterThanOrEqual(offset + limit);
        expect(w.pages.every((p) => p.perPage <= 250 && p.perPage === first.perPage)).toBe(true);
        w.pages.forEach((p, i) => expect(p.page).toBe(first.page + i));
        if (w.pages.length === 2) twoPages++;
      }
    }
    expect(twoPages).toBeGreaterThan(0);
  });

  test("query tokens are the indexed tokens; an unknown word goes as typed when that is closer to a known word", () => {
    const vocabulary = new TypoVocabulary();
    vocabulary.count(
      [
        ["dress", "dress"],
        ["green", "green"],
        ["tshirt", "tshirts"],
      ],
      1,
    );
    const typos = { typos: true, prefixLast: false };
    expect(queryTokens("T-Shirts", typos, vocabulary)).toBe("tshirt");
    // Adjacent words the store knows joined are sent joined, with or without typos.
    expect(queryTokens("red t shirts", typos, vocabulary)).toBe("red tshirt");
    expect(queryTokens("t shirt", { typos: false, prefixLast: true }, vocabulary)).toBe("tshirt");
    expect(queryTokens("t shirt", typos, null)).toBe("t shirt");
    expect(queryTokens("green dress", typos, vocabulary)).toBe("green dress");
    expect(queryTokens("Grüne  KLEIDER", typos, vocabulary)).toBe("grune kleider");
    expect(queryTokens("gren dres", typos, vocabulary)).toBe("gren dres");
    expect(queryTokens("gren dres", { typos: false, prefixLast: false }, vocabulary)).toBe("gren dre");
    expect(queryTokens("dresses", typos, vocabulary)).toBe("dress");
    expect(queryTokens("  --  ", typos, vocabulary)).toBe("*");
    expect(queryTokens("", typos, null)).toBe("*");
  });

  test("numbers are written without exponents; float32 values read back as their shortest decimal", () => {
    expect(formatNumber(1e21)).toBe("1000000000000000000000");
    expect(formatNumber(1e-7)).toBe("0.0000001");
    expect(formatNumber(-12.5)).toBe("-12.5");
    expect(float32Decimal(Math.fround(19.99))).toBe(19.99);
    expect(float32Decimal(Math.fround(123456.78))).toBe(123456.78);
    expect(float32Decimal(40)).toBe(40);
    expect(literal("a`b")).toBe("`ab`");
  });
});

describe("configuration", () => {
  test("TYPESENSE_NODES and TYPESENSE_API_KEY select the Typesense engine", () => {
    const config = loadConfig({
      TYPESENSE_NODES: " http://ts1:8108, https://search.example.com/ts/ ,http://ts1:8108",
      TYPESENSE_API_KEY: "k",
    });
    expect(config.typesense).toEqual({
      nodes: ["http://ts1:8108", "https://search.example.com/ts"],
      apiKey: "k",
      connectionTimeoutSeconds: 5,
      numRetries: 3,
    });
    const fiveNodes = "http://a:1,http://b:1,http://c:1,http://d:1,http://e:1";
    expect(loadConfig({ TYPESENSE_NODES: fiveNodes, TYPESENSE_API_KEY: "k" }).typesense?.numRetries).toBe(5);
    const tuned = loadConfig({
      TYPESENSE_NODES: fiveNodes,
      TYPESENSE_API_KEY: "k",
      TYPESENSE_TIMEOUT_SECONDS: "2",
      TYPESENSE_RETRIES: "1",
    });
    expect(tuned.typesense).toMatchObject({ connectionTimeoutSeconds: 2, numRetries: 1 });
    expect(loadConfig({}).typesense).toBeNull();
    expect(createEngine(config).kind).toBe("typesense");
  });

  test("each bad Typesense setting names its variable", () => {
    const cases: [Record<string, string>, string][] = [
      [{ TYPESENSE_NODES: "http://ts1:8108" }, "TYPESENSE_API_KEY"],
      [{ TYPESENSE_API_KEY: "k" }, "TYPESENSE_NODES"],
      [{ TYPESENSE_NODES: "ts1:8108", TYPESENSE_API_KEY: "k" }, "TYPESENSE_NODES"],
      [{ TYPESENSE_NODES: "ftp://ts1", TYPESENSE_API_KEY: "k" }, "TYPESENSE_NODES"],
      [{ TYPESENSE_NODES: "http://ts1:8108,", TYPESENSE_API_KEY: "k" }, "TYPESENSE_NODES"],
      [{ TYPESENSE_NODES: "http://ts1:8108?x=1", TYPESENSE_API_KEY: "k" }, "TYPESENSE_NODES"],
      [{ TYPESENSE_NODES: "http://ts1:8108", TYPESENSE_API_KEY: "k", TYPESENSE_TIMEOUT_SECONDS: "0" }, "TYPESENSE_TIMEOUT_SECONDS"],
      [{ TYPESENSE_NODES: "http://ts1:8108", TYPESENSE_API_KEY: "k", TYPESENSE_RETRIES: "many" }, "TYPESENSE_RETRIES"],
    ];
    for (const [env, name] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(name);
    }
  });
});
