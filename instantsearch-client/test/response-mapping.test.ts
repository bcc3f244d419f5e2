import { describe, expect, test } from "bun:test";
import type { SearchProduct, SearchResponse } from "@storefront-search/contract";
import { QueryWords } from "../src/highlight.ts";
import { toAlgoliaResult } from "../src/response-mapping.ts";

/* Our search answer in Algolia's result shape, and highlights made in the browser. */

const product = (productId: string, name: string, designer?: string): SearchProduct => ({
  id: `sp_${productId}`,
  productId,
  name,
  ...(designer ? { designer } : {}),
});

const answer: SearchResponse = {
  totalProductCount: 45,
  products: [product("p1", "Blue Denim Jeans", "Levi's"), product("p2", "Jeans Jacket")],
  facets: [
    {
      key: "designer",
      values: [
        { key: "Levi's", count: 30 },
        { key: "Wrangler", count: 15 },
      ],
    },
    { key: "category.lvl0", values: [{ key: "Men", count: 45 }] },
    {
      key: "price",
      values: [
        { key: "400-500", count: 20, lb: 399, ub: 500 },
        { key: "500-600", count: 25, lb: 500, ub: 600 },
      ],
    },
  ],
  query: "jeans",
};

describe("results", () => {
  test("hits carry our product fields with objectID (the store's product id); paging is Algolia's", () => {
    const result = toAlgoliaResult({ indexName: "products:pricea", params: { query: "jeans", page: 1, hitsPerPage: 20 } }, answer, {
      processingTimeMS: 7,
    });
    expect(result.hits.map((h) => [h.objectID, h.id, h.name])).toEqual([
      ["p1", "sp_p1", "Blue Denim Jeans"],
      ["p2", "sp_p2", "Jeans Jacket"],
    ]);
    expect(result).toMatchObject({
      nbHits: 45,
      page: 1,
      nbPages: 3,
      hitsPerPage: 20,
      processingTimeMS: 7,
      query: "jeans",
      index: "products:pricea",
    });
    expect(result.exhaustiveFacetsCount).toBe(true);
    expect(result.params).toBe("query=jeans&page=1&hitsPerPage=20");
    expect(result.queryID).toBeUndefined();
  });

  test("nbPages stops at the result window; a count-only request has none", () => {
    const big = { ...answer, totalProductCount: 50_000 };
    expect(toAlgoliaResult({ indexName: "products", params: { hitsPerPage: 30 } }, big, { processingTimeMS: 1 }).nbPages).toBe(333);
    expect(toAlgoliaResult({ indexName: "products", params: { hitsPerPage: 0 } }, big, { processingTimeMS: 1 }).nbPages).toBe(0);
  });

  test("facets are the requested attributes, by their names on the page, up to maxValuesPerFacet; price has stats", () => {
    const result = toAlgoliaResult(
      { indexName: "products", params: { query: "jeans", facets: ["brand", "categories.lvl0", "price", "size"], maxValuesPerFacet: 1 } },
      answer,
      { processingTimeMS: 1 },
    );
    expect(result.facets).toEqual({ brand: { "Levi's": 30 }, "categories.lvl0": { Men: 45 }, price: { "400-500": 20 } });
    expect(result.facets_stats).toEqual({ price: { min: 399, max: 600 } });
  });

  test('facets: ["*"] is every facet the answer has', () => {
    const result = toAlgoliaResult({ indexName: "products", params: { facets: ["*"] } }, answer, { processingTimeMS: 1 });
    expect(Object.keys(result.facets)).toEqual(["brand", "categories.lvl0", "price"]);
  });

  test("the queryID given is passed on", () => {
    expect(
      toAlgoliaResult({ indexName: "products", params: { clickAnalytics: true } }, answer, { processingTimeMS: 1, queryID: "q1" }).queryID,
    ).toBe("q1");
  });

  test("highlights of name and brand with the request's tags", () => {
    const [hit] = toAlgoliaResult(
      {
        indexName: "products",
        params: { query: "levis jeans", highlightPreTag: "__ais-highlight__", highlightPostTag: "__/ais-highlight__" },
      },
      { ...answer, query: "levis jeans" },
      { processingTimeMS: 1 },
    ).hits;
    expect(hit!._highlightResult.name).toEqual({
      value: "Blue Denim __ais-highlight__Jeans__/ais-highlight__",
      matchLevel: "partial",
      matchedWords: ["jeans"],
      fullyHighlighted: false,
    });
    expect(hit!._highlightResult.brand!.value).toBe("Levi's");
  });

  test("the category path (customProps.categories) is the hit's categories, each level highlighted", () => {
    const filed = { ...product("p3", "Slim Jeans"), customProps: { categories: ["Men", "Jeans & Trousers", "Slim Jeans"], inStock: true } };
    const [hit, unfiled] = toAlgoliaResult(
      { indexName: "products", params: { query: "slim jea" } },
      { ...answer, products: [filed, product("p4", "Jeans Jacket")], query: "slim jea" },
      { processingTimeMS: 1 },
    ).hits;
    expect(hit!.categories).toEqual(["Men", "Jeans & Trousers", "Slim Jeans"]);
    expect(hit!._highlightResult.categories!.map((h) => [h.value, h.matchLevel, h.fullyHighlighted])).toEqual([
      ["Men", "none", false],
      ["<em>Jea</em>ns & Trousers", "partial", false],
      ["<em>Slim</em> <em>Jea</em>ns", "full", false],
    ]);
    expect(unfiled!.categories).toBeUndefined();
    expect(unfiled!._highlightResult.categories).toBeUndefined();
  });
});

describe("highlighting", () => {
  const tags = { pre: "<em>", post: "</em>" };

  test("case and accents fold; every searched word found is full", () => {
    expect(new QueryWords("cafe creme", undefined).highlight("Café Crème", tags)).toEqual({
      value: "<em>Café</em> <em>Crème</em>",
      matchLevel: "full",
      matchedWords: ["cafe", "creme"],
      fullyHighlighted: true,
    });
  });

  test("the last word typed highlights the start of a word; earlier words must match whole", () => {
    expect(new QueryWords("blue jea", undefined).highlight("Blue jeans, bluest sky", tags).value).toBe(
      "<em>Blue</em> <em>jea</em>ns, bluest sky",
    );
  });

  test("a misspelt word highlights its correction, the answer's query", () => {
    expect(new QueryWords("jeens", "jeans").highlight("Slim Jeans", tags)).toMatchObject({
      value: "Slim <em>Jeans</em>",
      matchLevel: "full",
    });
  });

  test("nothing found is none, the value unchanged", () => {
    expect(new QueryWords("shoes", undefined).highlight("Blue <Jeans>", tags)).toEqual({
      value: "Blue <Jeans>",
      matchLevel: "none",
      matchedWords: [],
      fullyHighlighted: false,
    });
  });
});
