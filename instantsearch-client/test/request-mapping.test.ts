import { describe, expect, test } from "bun:test";
import type { AlgoliaSearchParams } from "../src/algolia-shapes.ts";
import { toOurSearch } from "../src/request-mapping.ts";
import { UnsupportedSearchError } from "../src/unsupported.ts";

/* InstantSearch's request parameters as our search parameters (docs/instantsearch.md, "Parameters"). */

const ours = (params: AlgoliaSearchParams, indexName = "products") => toOurSearch({ indexName, params });
const refused = (params: AlgoliaSearchParams) => {
  expect(() => ours(params)).toThrow(UnsupportedSearchError);
  try {
    ours(params);
  } catch (error) {
    return (error as Error).message;
  }
  return "";
};

describe("query, paging and index names", () => {
  test("query, page and hitsPerPage become query, from and pageSize; Algolia's default page is 20", () => {
    expect(ours({ query: " shirt ", page: 2, hitsPerPage: 12 })).toEqual({ query: "shirt", from: 24, pageSize: 12 });
    expect(ours({ query: "shirt" })).toEqual({ query: "shirt", from: 0, pageSize: 20 });
  });

  test("an empty query is the catalog (browse); hitsPerPage 0 asks for counts only; more than 100 is 100", () => {
    expect(ours({ query: "", hitsPerPage: 0, page: 0 })).toEqual({ browse: true, from: 0, pageSize: 0 });
    expect(ours({ query: "x", hitsPerPage: 1000 }).pageSize).toBe(100);
  });

  test("products:<sortBy> sorts; products and products:relevance do not; the name before the colon is the page's own", () => {
    expect(ours({ query: "x" }, "products:pricea").sortBy).toBe("pricea");
    expect(ours({ query: "x" }, "instant_search:new").sortBy).toBe("new");
    expect(ours({ query: "x" }, "products:relevance").sortBy).toBeUndefined();
    expect(ours({ query: "x" }, "products").sortBy).toBeUndefined();
  });

  test("facets asks for facets; userToken is the shopper when our API can take it; analytics: false is passed on", () => {
    expect(ours({ query: "x", facets: ["brand"] }).returnFacets).toBe(true);
    expect(ours({ query: "x", facets: "brand" }).returnFacets).toBe(true);
    expect(ours({ query: "x", facets: [] }).returnFacets).toBeUndefined();
    expect(ours({ query: "x", userToken: "anonymous-0b6f-41c2" }).userId).toBe("anonymous-0b6f-41c2");
    expect(ours({ query: "x", userToken: "jane@example.com" }).userId).toBeUndefined();
    expect(ours({ query: "x", analytics: false }).analytics).toBe(false);
    expect(ours({ query: "x", analytics: true }).analytics).toBeUndefined();
  });

  test("parameters we cannot use are accepted and change nothing", () => {
    const plain = ours({ query: "x" });
    expect(
      ours({
        query: "x",
        attributesToRetrieve: ["name"],
        tagFilters: "",
        ruleContexts: ["home"],
        clickAnalytics: true,
        highlightPreTag: "<b>",
      }),
    ).toEqual(plain);
  });

  test("a request type other than a search or a facet search is refused by name", () => {
    expect(() => toOurSearch({ indexName: "products", type: "recommend", params: { query: "x" } })).toThrow(/recommend requests/);
  });
});

describe("facetFilters", () => {
  test("nested arrays are OR, strings AND; brand is designer and categories.lvlN category.lvlN", () => {
    expect(ours({ query: "x", facetFilters: [["brand:Nike", "brand:Puma"], "categories.lvl1:Men > Shoes", "color:Red"] }).facets).toBe(
      "designer:Nike,designer:Puma,category.lvl1:Men > Shoes,color:Red",
    );
    expect(ours({ query: "x", facetFilters: "gender:Women" }).facets).toBe("gender:Women");
  });

  test("commas and backslashes in values are escaped as our facets parameter wants; \\- keeps a leading dash", () => {
    expect(ours({ query: "x", facetFilters: ["brand:Marks, Spencer", "tag.fit:\\-slim"] }).facets).toBe(
      "designer:Marks\\, Spencer,tag.fit:-slim",
    );
  });

  test("-value excludes a value: our !key:value, beside the key's selection; \\- is a value's own dash", () => {
    expect(ours({ query: "x", facetFilters: ["brand:-Nike", "brand:-Puma", "color:Red"] }).facets).toBe(
      "color:Red,!designer:Nike,!designer:Puma",
    );
    expect(ours({ query: "x", facetFilters: [["brand:-Nike"], ["brand:A", "brand:B"], "brand:-Nike"] }).facets).toBe(
      "designer:A,designer:B,!designer:Nike",
    );
    expect(ours({ query: "x", facetFilters: ["categories.lvl0:-Men", "tag.fit:\\-slim"] }).facets).toBe("tag.fit:-slim,!category.lvl0:Men");
    expect(ours({ query: "x", facetFilters: ["brand:-Marks, Spencer"] }).facets).toBe("!designer:Marks\\, Spencer");
  });

  test("what our search cannot express is refused, saying what", () => {
    expect(refused({ query: "x", facetFilters: [["brand:-Nike", "brand:Puma"]] })).toContain("excluded value inside an OR");
    expect(refused({ query: "x", facetFilters: ["price:-10"] })).toContain("numeric");
    expect(refused({ query: "x", facetFilters: [["brand:Nike", "color:Red"]] })).toContain("OR across attributes");
    expect(refused({ query: "x", facetFilters: ["color:Red", "color:Blue"] })).toContain("AND");
    expect(refused({ query: "x", facetFilters: [[["brand:Nike"]]] })).toContain("nested");
    expect(refused({ query: "x", facetFilters: ["nocolon"] })).toContain("attribute:value");
  });
});

describe("numericFilters", () => {
  test("price bounds become our half-open price range; an inclusive upper bound is just above it", () => {
    expect(ours({ query: "x", numericFilters: ["price>=10", "price<=20"] }).facets).toBe("price:10-20.000001");
    expect(ours({ query: "x", numericFilters: ["price>10"] }).facets).toBe("price:10.000001-");
    expect(ours({ query: "x", numericFilters: "price<20" }).facets).toBe("price:-20");
    expect(ours({ query: "x", numericFilters: ["price=15"] }).facets).toBe("price:15-15.000001");
    expect(ours({ query: "x", numericFilters: ["price:10 TO 20"] }).facets).toBe("price:10-20.000001");
    expect(ours({ query: "x", numericFilters: ["price>=10", "price>=12", "price<30", "price<=25"] }).facets).toBe("price:12-25.000001");
  });

  test("other attributes, OR groups and != are refused", () => {
    expect(refused({ query: "x", numericFilters: ["rating>=4"] })).toContain("price only");
    expect(refused({ query: "x", numericFilters: [["price<10", "price>100"]] })).toContain("OR");
    expect(refused({ query: "x", numericFilters: ["price!=10"] })).toContain("excluding");
  });
});

describe("filters", () => {
  test("AND of values, quoted values, comparisons, ranges and OR groups of one attribute", () => {
    expect(
      ours({
        query: "x",
        filters: 'brand:Nike AND (color:Red OR color:"Navy Blue") AND categories.lvl0:"Men" AND price >= 10 AND price:0 TO 50',
      }).facets,
    ).toBe("designer:Nike,color:Red,color:Navy Blue,category.lvl0:Men,price:10-50.000001");
  });

  test("filters, facetFilters and numericFilters are joined by AND", () => {
    expect(
      ours({ query: "x", filters: "gender:Women", facetFilters: [["brand:A", "brand:B"]], numericFilters: ["price<100"] }).facets,
    ).toBe("designer:A,designer:B,gender:Women,price:-100");
  });

  test("NOT excludes a value, or each value of a parenthesised OR of one attribute", () => {
    expect(ours({ query: "x", filters: 'NOT brand:Nike AND gender:Women AND NOT color:"Navy Blue"' }).facets).toBe(
      "gender:Women,!designer:Nike,!color:Navy Blue",
    );
    expect(ours({ query: "x", filters: "NOT (brand:Nike OR brand:Puma) AND price < 50" }).facets).toBe(
      "!designer:Nike,!designer:Puma,price:-50",
    );
    expect(ours({ query: "x", filters: "NOT brand:Nike", facetFilters: ["brand:Puma", "brand:-Nike"] }).facets).toBe(
      "designer:Puma,!designer:Nike",
    );
  });

  test("NOT before a comparison or a mixed group, OR outside parentheses or across attributes, and unreadable text are refused", () => {
    expect(refused({ query: "x", filters: "NOT price < 10" })).toContain("NOT works on attribute:value");
    expect(refused({ query: "x", filters: "NOT (brand:Nike OR color:Red)" })).toContain("OR across attributes");
    expect(refused({ query: "x", filters: "NOT" })).toContain("NOT works on");
    expect(refused({ query: "x", filters: "NOT NOT brand:Nike" })).toContain("NOT works on");
    expect(refused({ query: "x", filters: "brand:Nike OR brand:Puma" })).toContain("inside parentheses");
    expect(refused({ query: "x", filters: "(brand:Nike OR color:Red)" })).toContain("OR across attributes");
    expect(refused({ query: "x", filters: "brand:Nike AND" })).toContain("missing");
    expect(refused({ query: "x", filters: "brand:Nike (color:Red)" })).toContain("joined by AND");
    expect(refused({ query: "x", filters: "brand:Nike price" })).toContain('cannot read "price"');
  });
});
