import { describe, expect, test } from "bun:test";
import type { SearchResponse } from "@storefront-search/contract";
import { toAlgoliaResult } from "../src/response-mapping.ts";

/* What an answer says besides products: rules' data, redirects, the store's facet order, corrections and fallback. */

const base: SearchResponse = { totalProductCount: 3, products: [], query: "jeans" };
const result = (answer: Partial<SearchResponse>, query = "jeans") =>
  toAlgoliaResult({ indexName: "products", params: { query } }, { ...base, ...answer }, { processingTimeMS: 1 });

describe("rendering content", () => {
  test("an answer with none of it adds no fields", () => {
    const plain = result({});
    expect(plain.userData).toBeUndefined();
    expect(plain.renderingContent).toBeUndefined();
    expect(plain.storefrontSearch).toBeUndefined();
  });

  test("rules' custom data is userData as given; banners with an image are also Algolia's banners", () => {
    const userData = [
      { type: "banner", title: "Summer sale", image: "https://cdn.example/sale.jpg", link: "/sale" },
      { type: "banner", title: "Free delivery today" },
      { badge: "new-in" },
    ];
    const shown = result({ userData });
    expect(shown.userData).toEqual(userData);
    expect(shown.renderingContent?.widgets?.banners).toEqual([
      { image: { urls: [{ url: "https://cdn.example/sale.jpg" }], title: "Summer sale" }, link: { url: "/sale", target: "_self" } },
    ]);
  });

  test("a redirect rule is renderingContent.redirect", () => {
    expect(result({ redirect: "/gift-cards" }).renderingContent?.redirect).toEqual({ url: "/gift-cards" });
  });

  test("the facets' order is the answer's (the store's facets setting), by their names on the page", () => {
    const facets = [
      { key: "designer", values: [{ key: "Levi's", count: 3 }] },
      { key: "category.lvl0", values: [{ key: "Men", count: 3 }] },
      { key: "color", values: [{ key: "Blue", count: 3 }] },
    ];
    expect(result({ facets }).renderingContent?.facetOrdering).toEqual({ facets: { order: ["brand", "categories.lvl0", "color"] } });
  });

  test("a correction: the words searched, the words typed and the suggestions", () => {
    expect(result({ query: "jeans", typedQuery: "jeens", spellSuggestions: ["jeans"] }, "jeens").storefrontSearch).toEqual({
      searchedQuery: "jeans",
      typedQuery: "jeens",
      spellSuggestions: ["jeans"],
    });
  });

  test("a fallback says so and which words found the products; a recovered search says so", () => {
    expect(result({ query: "jeans", fallback: true }, "purple jeans").storefrontSearch).toEqual({ fallback: true, searchedQuery: "jeans" });
    expect(result({ recovered: true, totalProductCount: 0 }, "zzz").storefrontSearch).toEqual({ recovered: true });
  });
});
