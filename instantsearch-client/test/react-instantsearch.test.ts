import "../../widget/test/setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createElement as h } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { Configure, Hits, InstantSearch, Pagination, RefinementList, SearchBox, SortBy, useInstantSearch } from "react-instantsearch";
import { demoProducts } from "../../server/test/support/demo-products.ts";
import { eventually, indexProducts, search as ourSearch, type Params } from "../../server/test/support/search-client.ts";
import { startTestServer, type TestServer } from "../../server/test/support/test-server.ts";
import { createSearchClient } from "../src/index.ts";

/*
 * React InstantSearch (npm, latest 7.x) in happy-dom against the real server, through the same searchClient: a
 * shopper types, ticks two brands, sorts and pages, and after each change the page shows what our own GET /search
 * answers for the same query, filters, sort and page, for one HTTP request.
 */

const HITS_PER_PAGE = 8;

let s: TestServer;
let root: Root;
let requests = 0;

const counted: typeof fetch = Object.assign(
  (input: RequestInfo | URL, init?: RequestInit) => {
    requests++;
    return fetch(input, init);
  },
  { preconnect: fetch.preconnect },
);

const $$ = (selector: string) => [...document.querySelectorAll(selector)];
const shownIds = () => $$(".ais-Hits-item [data-id]").map((el) => el.getAttribute("data-id"));
const brandItems = () => $$(".ais-RefinementList-item");
const shownBrands = () =>
  brandItems().map((el) => ({
    value: el.querySelector(".ais-RefinementList-labelText")!.textContent!,
    count: Number(el.querySelector(".ais-RefinementList-count")!.textContent),
  }));

/** Waits until the page shows our own search's products for `params`; the requests the change cost. */
async function expectPageToShow(params: Params, requestsBefore: number): Promise<number> {
  const ours = await ourSearch(s, { pageSize: HITS_PER_PAGE, returnFacets: true, analytics: false, ...params });
  const want = ours.products.map((p) => p.productId);
  const shown = await eventually(async () => Bun.deepEquals(shownIds(), want), 30_000, 10);
  expect({ shown: shownIds() }).toEqual({ shown: want });
  expect(shown).toBe(true);
  const designer = new Map((ours.facets.find((f) => f.key === "designer")?.values ?? []).map((v) => [v.key, v.count]));
  for (const brand of shownBrands())
    expect({ brand: brand.value, count: brand.count }).toEqual({ brand: brand.value, count: designer.get(brand.value)! });
  return requests - requestsBefore;
}

/*
 * happy-dom's input and change events do not reach React's onChange (clicks do), so the query and the sort are
 * set as a page's own code would, through React InstantSearch's state; brands and pages are clicked.
 */
let setUiState: ReturnType<typeof useInstantSearch>["setIndexUiState"];
function StateHandle(): null {
  setUiState = useInstantSearch().setIndexUiState;
  return null;
}
type UiState = Parameters<typeof setUiState>[0] extends infer T ? Exclude<T, (...a: never[]) => unknown> : never;
const change = (patch: Partial<UiState>) => flushSync(() => setUiState((state) => ({ ...state, ...patch })));

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, demoProducts(600));
  document.body.innerHTML = '<div id="app"></div>';
  const searchClient = createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search, fetch: counted });
  root = createRoot(document.getElementById("app")!);
  flushSync(() =>
    root.render(
      h(
        InstantSearch,
        { searchClient, indexName: "products", future: { preserveSharedStateOnUnmount: true } },
        h(Configure, { hitsPerPage: HITS_PER_PAGE }),
        h(StateHandle),
        h(SearchBox, {}),
        h(RefinementList, { attribute: "brand", operator: "or" }),
        h(SortBy, {
          items: [
            { label: "Relevance", value: "products" },
            { label: "Price, low to high", value: "products:pricea" },
          ],
        }),
        h(Hits, { hitComponent: ({ hit }: { hit: { objectID: string } }) => h("span", { "data-id": hit.objectID }, hit.objectID) }),
        h(Pagination, {}),
      ),
    ),
  );
}, 240_000);

afterAll(async () => {
  root?.unmount();
  await s?.stop();
});

describe("React InstantSearch over the searchClient", () => {
  const facets: string[] = [];

  test("the first render shows the catalog as our browse does", async () => {
    await expectPageToShow({ browse: true }, 0);
  });

  test("typing a query: one request, our search's products", async () => {
    const before = requests;
    change({ query: "shirt" });
    expect(await expectPageToShow({ query: "shirt" }, before)).toBe(1);
  });

  test("ticking two brands: either brand, each brand counted as if not ticked", async () => {
    for (const index of [0, 1]) {
      const before = requests;
      const item = brandItems()[index]!;
      facets.push(`designer:${item.querySelector(".ais-RefinementList-labelText")!.textContent}`);
      (item.querySelector("input") as HTMLInputElement).click();
      expect(await expectPageToShow({ query: "shirt", facets: facets.join(",") }, before)).toBe(1);
    }
  });

  test("sorting by price, then the second page", async () => {
    let before = requests;
    change({ sortBy: "products:pricea" });
    expect(await expectPageToShow({ query: "shirt", facets: facets.join(","), sortBy: "pricea" }, before)).toBe(1);

    before = requests;
    const second = $$(".ais-Pagination-item--page a").find((a) => a.textContent === "2") as HTMLAnchorElement;
    second.click();
    expect(await expectPageToShow({ query: "shirt", facets: facets.join(","), sortBy: "pricea", from: HITS_PER_PAGE }, before)).toBe(1);
  });
});
