import { describe, expect, test } from "bun:test";
import type { SearchResponse } from "@storefront-search/contract";
import { toFacetSearchResult } from "../src/facet-search.ts";
import { toOurSearch } from "../src/request-mapping.ts";
import { UnsupportedSearchError } from "../src/unsupported.ts";

/* Search for facet values: one count-only search, its values of the attribute matched to the typed text. */

const answer: SearchResponse = {
  totalProductCount: 60,
  products: [],
  facets: [
    {
      key: "designer",
      values: [
        { key: "Nike Air", count: 30 },
        { key: "Puma", count: 12 },
        { key: "Niké Sportswear", count: 10 },
        { key: "Ninewest", count: 8 },
      ],
    },
  ],
};
const facetSearch = (params: Record<string, unknown>) =>
  toFacetSearchResult({ indexName: "products", type: "facet", facet: "brand", params }, answer, { processingTimeMS: 4 });

describe("search for facet values", () => {
  test("is a count-only search under the page's query and filters, not logged", () => {
    expect(
      toOurSearch({
        indexName: "products:pricea",
        type: "facet",
        facet: "brand",
        params: { query: "shoes", facetQuery: "ni", facetFilters: ["color:Red"], hitsPerPage: 20, page: 3 },
      }),
    ).toEqual({ query: "shoes", from: 0, pageSize: 0, facets: "color:Red", returnFacets: true, sortBy: "pricea", analytics: false });
  });

  test("names its facet (facet, or params.facetName as older clients send it)", () => {
    expect(toOurSearch({ indexName: "products", type: "facet", params: { facetName: "brand", facetQuery: "ni" } }).pageSize).toBe(0);
    expect(() => toOurSearch({ indexName: "products", type: "facet", params: { facetQuery: "ni" } })).toThrow(UnsupportedSearchError);
  });

  test("values with a word that begins so, accents folded, by count, highlighted with the request's tags", () => {
    expect(facetSearch({ facetQuery: "nik", highlightPreTag: "<mark>", highlightPostTag: "</mark>" })).toEqual({
      facetHits: [
        { value: "Nike Air", highlighted: "<mark>Nik</mark>e Air", count: 30 },
        { value: "Niké Sportswear", highlighted: "<mark>Nik</mark>é Sportswear", count: 10 },
      ],
      exhaustiveFacetsCount: true,
      processingTimeMS: 4,
    });
  });

  test("every typed word must begin a word of the value", () => {
    expect(facetSearch({ facetQuery: "air ni" }).facetHits.map((h) => h.value)).toEqual(["Nike Air"]);
    expect(facetSearch({ facetQuery: "air pu" }).facetHits).toEqual([]);
  });

  test("an empty facetQuery lists the values; maxFacetHits bounds them", () => {
    expect(facetSearch({ facetQuery: "", maxFacetHits: 2 }).facetHits.map((h) => [h.value, h.highlighted])).toEqual([
      ["Nike Air", "Nike Air"],
      ["Puma", "Puma"],
    ]);
  });

  test("a facet the service cut at its most frequent values is not exhaustive", () => {
    const many = { ...answer, facets: [{ key: "designer", values: Array.from({ length: 200 }, (_, i) => ({ key: `B${i}`, count: 1 })) }] };
    expect(
      toFacetSearchResult({ indexName: "products", type: "facet", facet: "brand", params: {} }, many, { processingTimeMS: 1 })
        .exhaustiveFacetsCount,
    ).toBe(false);
  });
});
