import "../../widget/test/setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import instantsearch from "instantsearch.js";
import { configure, hits, refinementList } from "instantsearch.js/es/widgets";
import { demoProducts } from "../../server/test/support/demo-products.ts";
import { eventually, indexProducts, search as ourSearch, type Params, type SearchBody } from "../../server/test/support/search-client.ts";
import { startTestServer, type TestServer } from "../../server/test/support/test-server.ts";
import { formatFacetParam, type FacetSelection } from "@storefront-search/contract";
import { createSearchClient, type AlgoliaSearchResult } from "../src/index.ts";

/*
 * Excluding values through the client against the real server: facetFilters' "brand:-X" and filters' NOT
 * answer what GET /search answers for `!designer:X` (hits, total and counts), in the real InstantSearch.js with
 * `configure` and a refinementList, and through the client's search() on its own.
 */

let s: TestServer;
/** Brands and colours by count in the catalog. */
let brands: string[] = [];
let colors: string[] = [];

const designerCounts = (body: SearchBody) =>
  Object.fromEntries((body.facets.find((f) => f.key === "designer")?.values ?? []).map((v) => [v.key, v.count]));

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, demoProducts(600));
  const all = await ourSearch(s, { browse: true, returnFacets: true, pageSize: 1, analytics: false });
  brands = all.facets.find((f) => f.key === "designer")!.values.map((v) => v.key);
  colors = all.facets.find((f) => f.key === "color")!.values.map((v) => v.key);
  expect(brands.length).toBeGreaterThan(3);
  expect(colors.length).toBeGreaterThan(2);
}, 180_000);
afterAll(() => s?.stop());

describe("InstantSearch.js with an exclusion in configure", () => {
  /** A page of hits and a brand list under `configure`, started; its parts, and how to check it against ours. */
  function mount(configured: Record<string, unknown>) {
    const root = document.createElement("div");
    root.innerHTML = '<div class="x-hits"></div><div class="x-brands"></div>';
    document.body.append(root);
    const page = instantsearch({
      indexName: "products",
      searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search }),
    });
    page.addWidgets([
      configure({ hitsPerPage: 10, maxValuesPerFacet: 200, ...configured }),
      hits({
        container: root.querySelector(".x-hits") as HTMLElement,
        templates: { item: (hit, { html }) => html`<span data-id=${hit.objectID}></span>` },
      }),
      refinementList({ container: root.querySelector(".x-brands") as HTMLElement, attribute: "brand", limit: 200 }),
    ]);
    const items = () => [...root.querySelectorAll(".ais-RefinementList-item")];
    const label = (el: Element) => el.querySelector(".ais-RefinementList-labelText")!.textContent!;
    const shownIds = () => [...root.querySelectorAll(".x-hits [data-id]")].map((el) => el.getAttribute("data-id"));
    const shownBrands = () =>
      Object.fromEntries(items().map((el) => [label(el), Number(el.querySelector(".ais-RefinementList-count")!.textContent)]));
    page.start();
    return {
      page,
      shownBrands,
      checked: () =>
        items()
          .filter((el) => el.classList.contains("ais-RefinementList-item--selected"))
          .map(label),
      tick: (brand: string) =>
        (
          items()
            .find((el) => label(el) === brand)!
            .querySelector("input") as HTMLInputElement
        ).click(),
      /** The page shows what our search answers for `facets`: hits, total and every brand's count. */
      showsOurs: async (facets: FacetSelection[]) => {
        const ours = await ourSearch(s, {
          browse: true,
          pageSize: 10,
          returnFacets: true,
          analytics: false,
          facets: formatFacetParam(facets),
        });
        const want = ours.products.map((p) => p.productId);
        expect(await eventually(async () => page.status === "idle" && Bun.deepEquals(shownIds(), want), 30_000, 10)).toBe(true);
        expect(shownBrands()).toEqual(designerCounts(ours));
        expect(page.mainIndex.getResults()!.nbHits).toBe(ours.totalProductCount);
        return ours;
      },
    };
  }

  test("facetFilters ['brand:-X']: the page shows what !designer:X finds, and the brand list still offers X, unticked", async () => {
    const excluded = brands[0]!;
    const shop = mount({ facetFilters: [`brand:-${excluded}`] });
    try {
      const ours = await shop.showsOurs([{ key: "designer", value: excluded, exclude: true }]);
      expect(ours.products.some((p) => p.designer === excluded)).toBe(false);
      expect(shop.shownBrands()[excluded]).toBeGreaterThan(0);
      expect(shop.checked()).toEqual([]);
    } finally {
      shop.page.dispose();
    }
  });

  // InstantSearch replaces configure's facetFilters with the refinements' own once a value is ticked; `filters` stays.
  test("filters 'NOT brand:X' and a ticked brand: both hold, each brand counted as if none were ticked", async () => {
    const [excluded, other] = [brands[0]!, brands[1]!];
    const shop = mount({ filters: `NOT brand:"${excluded}"` });
    try {
      await shop.showsOurs([{ key: "designer", value: excluded, exclude: true }]);
      shop.tick(other);
      await shop.showsOurs([
        { key: "designer", value: other },
        { key: "designer", value: excluded, exclude: true },
      ]);
      expect(shop.checked()).toEqual([other]);
    } finally {
      shop.page.dispose();
    }
  });
});

describe("the client's search() on its own", () => {
  const client = () => createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search });
  const same = (result: AlgoliaSearchResult, ours: SearchBody) => {
    expect(result.hits.map((h) => h.objectID)).toEqual(ours.products.map((p) => p.productId));
    expect(result.nbHits).toBe(ours.totalProductCount);
    expect(result.facets?.brand).toEqual(designerCounts(ours));
  };

  test("facetFilters' -value and filters' NOT answer what our !key:value answers, in one request", async () => {
    const [a, b] = [brands[0]!, brands[2]!];
    const [red, blue] = [colors[0]!, colors[1]!];
    const params = { query: "", hitsPerPage: 8, facets: ["brand"], maxValuesPerFacet: 200 };
    const { results } = await client().search([
      { indexName: "products", params: { ...params, facetFilters: [`brand:-${a}`, `brand:-${b}`] } },
      { indexName: "products", params: { ...params, filters: `NOT brand:"${a}" AND NOT (color:"${red}" OR color:"${blue}")` } },
      { indexName: "products:pricea", params: { ...params, facetFilters: [`brand:-${a}`], filters: `NOT color:"${red}"` } },
    ]);
    const not = (key: string, value: string): FacetSelection => ({ key, value, exclude: true });
    const ours = (facets: FacetSelection[], over: Params = {}) =>
      ourSearch(s, { browse: true, pageSize: 8, returnFacets: true, analytics: false, facets: formatFacetParam(facets), ...over });
    same(results[0] as AlgoliaSearchResult, await ours([not("designer", a), not("designer", b)]));
    same(results[1] as AlgoliaSearchResult, await ours([not("designer", a), not("color", red), not("color", blue)]));
    same(results[2] as AlgoliaSearchResult, await ours([not("designer", a), not("color", red)], { sortBy: "pricea" }));
    // The excluded brands keep their counts: a page can show them unticked.
    expect((results[0] as AlgoliaSearchResult).facets!.brand![a]).toBeGreaterThan(0);
  });
});
