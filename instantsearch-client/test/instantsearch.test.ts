import "../../widget/test/setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fetchAlgoliaResults } from "@algolia/autocomplete-preset-algolia";
import instantsearch from "instantsearch.js";
import {
  configure,
  dynamicWidgets,
  frequentlyBoughtTogether,
  hierarchicalMenu,
  hits,
  pagination,
  queryRuleCustomData,
  rangeInput,
  refinementList,
  relatedProducts,
  searchBox,
  sortBy,
  stats,
  trendingItems,
} from "instantsearch.js/es/widgets";
import { demoProducts } from "../../server/test/support/demo-products.ts";
import { textStagesInSearch } from "../../server/test/support/indexed-child-server.ts";
import {
  eventually,
  getJson,
  indexProducts,
  search as ourSearch,
  type Params,
  type SearchBody,
} from "../../server/test/support/search-client.ts";
import { startTestServer, type TestServer } from "../../server/test/support/test-server.ts";
import type { CtlResponse, EventList, ListedEvent, RecommendationsResponse, SimilarityResponse } from "@storefront-search/contract";
import {
  createInsightsClient,
  createSearchClient,
  SearchRequestError,
  UnsupportedSearchError,
  type AlgoliaSearchResult,
} from "../src/index.ts";

/*
 * The real InstantSearch.js (npm, latest 4.x) in happy-dom against the real server over real demo products,
 * through our searchClient: a shopper types, ticks two brands, walks the category menu, sorts and pages. After
 * each change the page shows what our own GET /search answers for the same query, filters and sort (hit ids,
 * total, brand counts), and the change cost exactly one HTTP request.
 */

const HITS_PER_PAGE = 12;

let s: TestServer;
let requests = 0;
let inFlight = 0;
/** The searches the last request carried. */
let lastBatch: { query?: string; facets?: string; pageSize?: number }[] = [];
let page: ReturnType<typeof instantsearch>;

const counted: typeof fetch = Object.assign(
  async (input: RequestInfo | URL, init?: RequestInit) => {
    requests++;
    inFlight++;
    lastBatch = (JSON.parse(String(init?.body)) as { requests: typeof lastBatch }).requests;
    try {
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  },
  { preconnect: fetch.preconnect },
);

const $ = (selector: string) => document.querySelector(selector);
const $$ = (selector: string) => [...document.querySelectorAll(selector)];

/** Runs one shopper action and waits until InstantSearch has rendered its answer; the HTTP requests it cost. */
async function act(action: () => void | Promise<void>): Promise<number> {
  const before = requests;
  await action();
  // InstantSearch sets "idle" as it renders an answer, in the same task: the page shows it then.
  const settled = await eventually(async () => requests > before && inFlight === 0 && page.status === "idle", 30_000, 10);
  if (!settled) throw new Error(`no answer rendered (status ${page.status}, ${requests - before} requests)`);
  return requests - before;
}

const shownIds = () => $$(".ais-Hits-item [data-id]").map((el) => el.getAttribute("data-id"));
/** "1,500 results found in 12ms": the number before "result". */
const shownTotal = () => Number(/^([\d,.\s]+) result/.exec($(".ais-Stats-text")?.textContent ?? "")?.[1]?.replace(/\D/g, "") ?? Number.NaN);
const shownBrands = () =>
  $$(".ais-RefinementList-item").map((el) => ({
    value: el.querySelector(".ais-RefinementList-labelText")!.textContent!,
    count: Number(el.querySelector(".ais-RefinementList-count")!.textContent),
    checked: (el.querySelector("input") as HTMLInputElement).checked,
  }));

/** What the page must show: our own search for the same state, and its designer facet's counts. */
async function expectPageToShow(params: Params): Promise<SearchBody> {
  const ours = await ourSearch(s, { pageSize: HITS_PER_PAGE, returnFacets: true, analytics: false, ...params });
  expect(shownIds()).toEqual(ours.products.map((p) => p.productId));
  expect(shownTotal()).toBe(ours.totalProductCount);
  const designer = new Map((ours.facets.find((f) => f.key === "designer")?.values ?? []).map((v) => [v.key, v.count]));
  const brands = shownBrands();
  expect(brands.length).toBeGreaterThan(0);
  for (const brand of brands)
    expect({ brand: brand.value, count: brand.count }).toEqual({ brand: brand.value, count: designer.get(brand.value)! });
  return ours;
}

beforeAll(async () => {
  s = await startTestServer();
  await indexProducts(s, demoProducts(1500));
  expect(await eventually(async () => textStagesInSearch(s.dataDir), 90_000, 100)).toBe(true);
  document.body.innerHTML = ["searchbox", "hits", "brands", "categories", "price", "sort", "pagination", "stats"]
    .map((id) => `<div id="${id}"></div>`)
    .join("");
  page = instantsearch({
    indexName: "products",
    searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search, fetch: counted }),
  });
  page.addWidgets([
    configure({ hitsPerPage: HITS_PER_PAGE }),
    searchBox({ container: "#searchbox" }),
    hits({ container: "#hits", templates: { item: (hit, { html }) => html`<span data-id=${hit.objectID}>${hit.name as string}</span>` } }),
    refinementList({ container: "#brands", attribute: "brand", operator: "or", searchable: true }),
    hierarchicalMenu({ container: "#categories", attributes: ["categories.lvl0", "categories.lvl1", "categories.lvl2"] }),
    rangeInput({ container: "#price", attribute: "price" }),
    sortBy({
      container: "#sort",
      items: [
        { label: "Relevance", value: "products" },
        { label: "Price, low to high", value: "products:pricea" },
      ],
    }),
    pagination({ container: "#pagination" }),
    stats({ container: "#stats" }),
  ]);
  expect(await act(() => page.start())).toBe(1);
}, 240_000);

afterAll(async () => {
  page?.dispose();
  await s?.stop();
});

describe("InstantSearch.js over the searchClient", () => {
  const facets: string[] = [];

  test("the empty search box shows the catalog as our browse does", async () => {
    await expectPageToShow({ browse: true });
  });

  test("typing a query", async () => {
    const input = $(".ais-SearchBox-input") as HTMLInputElement;
    expect(
      await act(() => {
        input.value = "shirt";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }),
    ).toBe(1);
    expect((await expectPageToShow({ query: "shirt" })).totalProductCount).toBeGreaterThan(HITS_PER_PAGE * 2);
  });

  test("ticking two brands: either brand, and each brand's count as if it were not ticked", async () => {
    const [first, second] = shownBrands();
    for (const brand of [first!, second!]) {
      const box = $$(".ais-RefinementList-item").find(
        (el) => el.querySelector(".ais-RefinementList-labelText")!.textContent === brand.value,
      )!;
      expect(await act(() => (box.querySelector("input") as HTMLInputElement).click())).toBe(1);
      facets.push(`designer:${brand.value}`);
    }
    expect(
      shownBrands()
        .filter((b) => b.checked)
        .map((b) => b.value),
    ).toEqual([first!.value, second!.value].sort());
    const ours = await expectPageToShow({ query: "shirt", facets: facets.join(",") });
    expect(ours.totalProductCount).toBe(first!.count + second!.count);
    // The hits, and the brands' counts without the brands: two searches in the one request.
    expect(lastBatch.map((r) => [r.pageSize, r.facets])).toEqual([
      [HITS_PER_PAGE, facets.join(",")],
      [0, undefined],
    ]);
  });

  test("searching the brands list: the brands with a word that starts so, counted under the page's query", async () => {
    const ours = await ourSearch(s, { query: "shirt", pageSize: 1, returnFacets: true, analytics: false });
    const designers = ours.facets.find((f) => f.key === "designer")!.values;
    const prefix = /[\p{L}\p{N}]+/u.exec(designers.at(-1)!.key)![0].slice(0, 3);
    const startsSo = (value: string) => value.split(/[^\p{L}\p{N}]+/u).some((w) => w.toLowerCase().startsWith(prefix.toLowerCase()));
    const expected = designers.filter((v) => startsSo(v.key)).slice(0, 10);
    const box = $("#brands .ais-SearchBox-input") as HTMLInputElement;
    const shown = () => shownBrands().map((b) => ({ brand: b.value, count: b.count }));
    const before = requests;
    box.value = prefix;
    box.dispatchEvent(new Event("input", { bubbles: true }));
    const want = expected.map((v) => ({ brand: v.key, count: v.count }));
    expect(await eventually(async () => Bun.deepEquals(shown(), want), 30_000, 10)).toBe(true);
    expect(requests - before).toBe(1);
    expect(lastBatch).toEqual([expect.objectContaining({ query: "shirt", pageSize: 0, returnFacets: true, analytics: false })]);
    expect(lastBatch[0]!.facets).toBeUndefined(); // the brands' own selection is left out, as for their counts
    expect($("#brands mark")?.textContent?.toLowerCase()).toBe(prefix.toLowerCase());
    box.value = "";
    box.dispatchEvent(new Event("input", { bubbles: true }));
    expect(await eventually(async () => shownBrands().filter((b) => b.checked).length === 2, 30_000, 10)).toBe(true);
  });

  test("walking the category menu two levels down", async () => {
    for (const level of [0, 1]) {
      const link =
        $(".ais-HierarchicalMenu-item:not(.ais-HierarchicalMenu-item--selected) .ais-HierarchicalMenu-link") ??
        $(".ais-HierarchicalMenu-list--child .ais-HierarchicalMenu-link");
      const item = link!.closest(".ais-HierarchicalMenu-item")!;
      const label = item.querySelector(".ais-HierarchicalMenu-label")!.textContent!;
      const count = Number(item.querySelector(".ais-HierarchicalMenu-count")!.textContent);
      const path = level === 0 ? label : `${facets.at(-1)!.slice("category.lvl0:".length)} > ${label}`;
      expect(await act(() => (link as HTMLElement).click())).toBe(1);
      if (level === 1) facets.pop();
      facets.push(`category.lvl${level}:${path}`);
      const ours = await expectPageToShow({ query: "shirt", facets: facets.join(",") });
      expect(ours.totalProductCount).toBe(count);
      // The hits, the brands' counts, and the menu's counts of each level above: one request.
      expect(lastBatch.map((r) => r.pageSize)).toEqual([HITS_PER_PAGE, ...Array(level + 2).fill(0)]);
    }
  });

  test("sorting by price", async () => {
    const select = $(".ais-SortBy-select") as HTMLSelectElement;
    expect(
      await act(() => {
        select.value = "products:pricea";
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }),
    ).toBe(1);
    await expectPageToShow({ query: "shirt", facets: facets.join(","), sortBy: "pricea" });
  });

  test("a price range: the lowest price from the first bound up to the second, both included", async () => {
    const state = { query: "shirt", facets: facets.join(","), sortBy: "pricea" };
    const buckets = (await ourSearch(s, { ...state, pageSize: 1, returnFacets: true, analytics: false })).facets.find(
      (f) => f.key === "price",
    )!.values;
    expect(buckets.length).toBeGreaterThanOrEqual(3);
    const [min, max] = [buckets[1]!.lb!, buckets.at(-2)!.ub!];
    expect(
      await act(async () => {
        for (const [bound, value] of [
          ["min", min],
          ["max", max],
        ] as const) {
          const input = $(`.ais-RangeInput-input--${bound}`) as HTMLInputElement;
          input.value = String(value);
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
        await Bun.sleep(10); // the widget (Preact) takes the typed bounds into its state on its next render
        $(".ais-RangeInput-form")!.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));
      }),
    ).toBe(1);
    facets.push(`price:${min}-${max + 0.000001}`);
    const ours = await expectPageToShow({ ...state, facets: facets.join(",") });
    expect(ours.totalProductCount).toBeGreaterThan(HITS_PER_PAGE);
    expect(lastBatch[0]!.facets).toEndWith(`price:${min}-${max + 0.000001}`);
  });

  test("the next page", async () => {
    const next = $(".ais-Pagination-item--nextPage .ais-Pagination-link") as HTMLElement | null;
    if (!next) throw new Error("one page only: the fixtures should give several");
    expect(await act(() => next.click())).toBe(1);
    await expectPageToShow({ query: "shirt", facets: facets.join(","), sortBy: "pricea", from: HITS_PER_PAGE });
  });
});

describe("the client on its own", () => {
  const client = () => createSearchClient({ host: `${s.url}/`, storeId: s.storeId, searchKey: s.keys.search, fetch: counted });

  test("a search the service refuses rejects with its status and message, naming the query", async () => {
    const error = await client()
      .search([
        { indexName: "products", params: { query: "shirt" } },
        { indexName: "products:cheapest", params: { query: "shirt" } },
      ])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchRequestError);
    expect((error as SearchRequestError).status).toBe(400);
    expect((error as SearchRequestError).message).toStartWith("requests[1]: sortBy must be one of");
  });

  test("what the service cannot express rejects before anything is sent", async () => {
    const before = requests;
    const refused = [
      [{ indexName: "products", params: { query: "shirt", facetFilters: [["brand:Mufti", "color:Red"]] } }],
      [{ indexName: "products", type: "facet", params: { query: "shirt" } }],
      [{ indexName: "products", type: "recommend", params: { query: "shirt" } }],
      Array.from({ length: 51 }, () => ({ indexName: "products", params: { query: "shirt" } })),
    ];
    for (const batch of refused)
      expect(
        await client()
          .search(batch)
          .catch((e: unknown) => e),
      ).toBeInstanceOf(UnsupportedSearchError);
    expect(requests).toBe(before);
  });

  test("hits carry the product's category path as categories, each level highlighted where it holds a searched word", async () => {
    const { results } = await client().search([{ indexName: "products", params: { query: "shirts", hitsPerPage: 5 } }]);
    const ours = await ourSearch(s, { query: "shirts", pageSize: 5, analytics: false });
    const { hits } = results[0] as AlgoliaSearchResult;
    expect(hits.map((h) => h.categories)).toEqual(ours.products.map((p) => (p.customProps as { categories?: string[] }).categories));
    const highlighted = hits.flatMap((h) => h._highlightResult.categories ?? []).filter((c) => c.matchLevel !== "none");
    expect(highlighted.length).toBeGreaterThan(0);
    for (const level of highlighted) expect(level.value).toMatch(/<em>Shirts?<\/em>/i);
  });

  test("a wrong key is the service's 401", async () => {
    const wrong = createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.analytics });
    const error = await wrong.search([{ indexName: "products", params: { query: "shirt" } }]).catch((e: unknown) => e);
    expect((error as SearchRequestError).status).toBe(401);
  });

  test("clickAnalytics gives each result its own queryID; without it there is none", async () => {
    const { results } = await client().search([
      { indexName: "products", params: { query: "shirt", clickAnalytics: true, hitsPerPage: 2 } },
      { indexName: "products", params: { query: "jeans", clickAnalytics: true, hitsPerPage: 2 } },
      { indexName: "products", params: { query: "jeans", hitsPerPage: 2 } },
    ]);
    const ids = results.map((r) => (r as AlgoliaSearchResult).queryID);
    expect(ids[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(ids[0]).not.toBe(ids[1]);
    expect(ids[2]).toBeUndefined();
  });

  test("Autocomplete's getAlgoliaResults, in its development build, finds the products our search finds", async () => {
    // NODE_ENV is not "production" under bun test: the build's checks of the client's credentials run.
    expect(process.env.NODE_ENV).not.toBe("production");
    const [result] = await fetchAlgoliaResults<{ objectID: string; __autocomplete_algoliaCredentials: unknown }>({
      searchClient: client() as never,
      // As Autocomplete's documentation writes it: the query beside the params (typed for Algolia's v4 client).
      queries: [{ indexName: "products", query: "shirt", params: { hitsPerPage: 4 } }] as never,
    });
    const ours = await ourSearch(s, { query: "shirt", pageSize: 4, analytics: false });
    const hits = (result as { hits: { objectID: string; __autocomplete_algoliaCredentials: unknown }[] }).hits;
    expect(hits.map((h) => h.objectID)).toEqual(ours.products.map((p) => p.productId));
    expect(hits[0]!.__autocomplete_algoliaCredentials).toEqual({ appId: s.storeId, apiKey: s.keys.search });
  });
});

describe("insights: InstantSearch's events reach /tracking as ours", () => {
  let shop: ReturnType<typeof instantsearch>;
  let tracked = 0;
  const sendErrors: Error[] = [];
  const insightsOf = () =>
    createInsightsClient({
      host: s.url,
      storeId: s.storeId,
      analyticsKey: s.keys.analytics,
      fetch: Object.assign((input: RequestInfo | URL, init?: RequestInit) => (tracked++, fetch(input, init)), {
        preconnect: fetch.preconnect,
      }),
      onError: (e) => sendErrors.push(e),
    });

  const events = async (type: string): Promise<ListedEvent[]> =>
    ((await (await s.call("admin", "GET", `/1.9/events?type=${type}&limit=1000`)).json()) as EventList).events;

  beforeAll(async () => {
    const root = document.createElement("div");
    root.innerHTML = '<div id="shop-search"></div><div id="shop-hits"></div>';
    document.body.append(root);
    shop = instantsearch({
      indexName: "products",
      searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search }),
      insights: { insightsClient: insightsOf() },
    });
    shop.addWidgets([
      configure({ hitsPerPage: 5, query: "shirt", page: 1 }),
      hits({
        container: "#shop-hits",
        templates: {
          item: (hit, { html, sendEvent }) =>
            html`<span data-shop-id=${hit.objectID}>${hit.name as string}</span><button
                onClick=${(e: Event) => {
                  e.stopPropagation();
                  sendEvent("conversion", hit, "Added To Cart", { eventSubtype: "addToCart" });
                }}
              >
                Add
              </button>`,
        },
      }),
    ]);
    shop.start();
    expect(await eventually(async () => document.querySelectorAll("[data-shop-id]").length === 5, 30_000, 10)).toBe(true);
  }, 60_000);

  afterAll(() => shop?.dispose());

  test("a click on the third hit of page 2 is a ProductClick at position 8 of its query, after the query's Search", async () => {
    const third = document.querySelectorAll("#shop-hits .ais-Hits-item")[2] as HTMLElement;
    const productId = third.querySelector("[data-shop-id]")!.getAttribute("data-shop-id")!;
    third.click();
    expect(await eventually(async () => (await events("ProductClick")).length === 1, 30_000, 25)).toBe(true);
    const [click] = await events("ProductClick");
    const data = click!.data as { clickProductId: string; query: string; productIds: string[]; page: number; pageSize: number };
    expect(data).toMatchObject({ clickProductId: productId, query: "shirt", page: 2, pageSize: 5 });
    // The service counts a click's position from the page it says was shown.
    expect(data.productIds.indexOf(productId) + 1 + (data.page - 1) * data.pageSize).toBe(8);
    const ours = await ourSearch(s, { query: "shirt", from: 5, pageSize: 5, analytics: false });
    expect(data.productIds).toEqual(ours.products.map((p) => p.productId));
    const searches = await events("Search");
    expect(searches.map((e) => e.data.query)).toEqual(["shirt"]);
    expect(searches[0]!.data).toMatchObject({ productIds: data.productIds, totalProducts: ours.totalProductCount });
    expect(new Set([click!.sessionId, searches[0]!.sessionId]).size).toBe(1);
    expect(click!.userId).toStartWith("anonymous-");
  });

  test("an add-to-cart is an AddToCart of that product and query; no click is sent with it", async () => {
    const first = document.querySelector("#shop-hits .ais-Hits-item") as HTMLElement;
    const productId = first.querySelector("[data-shop-id]")!.getAttribute("data-shop-id")!;
    first.querySelector("button")!.click();
    expect(await eventually(async () => (await events("AddToCart")).length === 1, 30_000, 25)).toBe(true);
    const [cart] = await events("AddToCart");
    expect(cart!.data).toMatchObject({ addProductId: productId, query: "shirt", page: 2, pageSize: 5 });
    expect((await events("ProductClick")).length).toBe(1);
    expect((await events("Search")).length).toBe(1);
  });

  test("telemetry and other calls send nothing and raise nothing", async () => {
    const before = tracked;
    const client = insightsOf();
    client("sendEvents", [{ eventType: "instantsearch", eventName: "__start__" }]);
    client("addAlgoliaAgent", "insights-middleware");
    client("clickedFilters", { eventName: "Filter", index: "products", filters: ["brand:Nike"] });
    client("convertedObjectIDsAfterSearch", { eventName: "Liked", index: "products", queryID: "q", objectIDs: ["p1"] });
    expect(tracked).toBe(before);
    expect(sendErrors).toEqual([]);
  });
});

describe("Recommend widgets over getRecommendations", () => {
  test("related products are our similar products; bought together and trending in a category our models; trending by another facet our most bought", async () => {
    // A product that has looks: the first shirt whose complete-the-look answers some.
    const shirts = (await ourSearch(s, { query: "shirt", pageSize: 20, analytics: false })).products.map((p) => p.productId);
    let source = "";
    let looks: CtlResponse = { ctlProducts: [], sourceProduct: { id: "", productId: "", name: "" } };
    expect(
      await eventually(
        async () => {
          for (const id of shirts) {
            looks = (await getJson<CtlResponse>(s, "/ctl", { productId: id })).body;
            if (looks.ctlProducts.length) source = id;
            if (source) return true;
          }
          return false;
        },
        60_000,
        200,
      ),
    ).toBe(true);
    const similar = (await getJson<SimilarityResponse>(s, "/similarity", { productId: source, pageSize: 4 })).body.products.map(
      (p) => p.product.productId,
    );
    const recommended = async (path: string, params: Record<string, string | number>) =>
      (await getJson<RecommendationsResponse>(s, `/recommendations/${path}`, params)).body.products.map((p) => p.product.productId);
    const together = await recommended("bought-together", { productId: source, pageSize: 4 });
    expect(together.length).toBeGreaterThan(0);
    const trending = (await ourSearch(s, { browse: true, facets: "gender:Men", pageSize: 4, analytics: false })).products.map(
      (p) => p.productId,
    );
    expect(similar.length).toBe(4);

    const root = document.createElement("div");
    root.innerHTML = '<div id="related"></div><div id="together"></div><div id="trending"></div>';
    document.body.append(root);
    const shop = instantsearch({
      indexName: "products",
      searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search }),
    });
    shop.addWidgets([
      relatedProducts({
        container: "#related",
        objectIDs: [source],
        limit: 4,
        templates: { item: (hit, { html }) => html`<span data-rec=${hit.objectID}></span>` },
      }),
      frequentlyBoughtTogether({
        container: "#together",
        objectIDs: [source],
        limit: 4,
        templates: { item: (hit, { html }) => html`<span data-rec=${hit.objectID}></span>` },
      }),
      trendingItems({
        container: "#trending",
        facetName: "gender",
        facetValue: "Men",
        limit: 4,
        templates: { item: (hit, { html }) => html`<span data-rec=${hit.objectID}></span>` },
      }),
    ]);
    shop.start();
    const shown = (id: string) => [...document.querySelectorAll(`#${id} [data-rec]`)].map((el) => el.getAttribute("data-rec"));
    try {
      expect(
        await eventually(
          async () => shown("related").length > 0 && shown("together").length > 0 && shown("trending").length > 0,
          30_000,
          10,
        ),
      ).toBe(true);
      expect(shown("related")).toEqual(similar);
      expect(shown("together")).toEqual(together);
      expect(shown("trending")).toEqual(trending);
    } finally {
      shop.dispose();
    }
    const client = createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search });
    const category = demoProducts(1500).find((p) => p.id === source)!.categories![0]!;
    const { results } = await client.getRecommendations([
      { indexName: "products", model: "trending-items", facetName: "categories.lvl0", facetValue: category, maxRecommendations: 4 },
      { indexName: "products", model: "trending-items", maxRecommendations: 4 },
    ]);
    expect(results[0]!.hits.map((h) => h.objectID)).toEqual(await recommended("trending", { category, pageSize: 4 }));
    expect(results[0]!.hits.length).toBeGreaterThan(0);
    expect(results[1]!.hits.map((h) => h.objectID)).toEqual(await recommended("trending", { pageSize: 4 }));
  });

  test("a product the service does not know has none; a model it has not is refused before anything is sent", async () => {
    const client = createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search });
    const { results } = await client.getRecommendations([
      { indexName: "products", model: "related-products", objectID: "no-such-product" },
    ]);
    expect(results[0]!.hits).toEqual([]);
    expect(
      await client.getRecommendations([{ indexName: "products", model: "trending-facets", facetName: "brand" }]).catch((e) => e),
    ).toBeInstanceOf(UnsupportedSearchError);
  });
});

describe("rules and the store's facet order", () => {
  test("dynamicWidgets shows the facets in the store's order; a rule's banner, custom data and redirect reach the page", async () => {
    expect(
      (await s.call("admin", "PATCH", "/1.9/settings", { facets: [{ key: "color" }, { key: "gender" }, { key: "designer" }] })).status,
    ).toBe(200);
    const banner = { type: "banner", title: "Jackets week", image: "https://cdn.example/jackets.jpg", link: "/jackets" };
    const rule = { conditions: [{ pattern: "jacket", anchoring: "contains" }], consequence: { userData: [banner], redirect: "/jackets" } };
    expect((await s.call("admin", "PUT", "/1.9/rules/is-jackets", rule)).status).toBe(200);
    const root = document.createElement("div");
    root.innerHTML = '<div id="dyn"></div><div id="dyn-hits"></div><div id="custom"></div>';
    document.body.append(root);
    const shop = instantsearch({
      indexName: "products",
      searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search }),
    });
    const facetWidget = (attribute: string) => (container: HTMLElement) => {
      container.setAttribute("data-attribute", attribute);
      return refinementList({ container, attribute });
    };
    shop.addWidgets([
      configure({ query: "jacket", hitsPerPage: 4 }),
      hits({ container: "#dyn-hits" }),
      dynamicWidgets({ container: "#dyn", widgets: ["brand", "gender", "color"].map(facetWidget) }),
      queryRuleCustomData({
        container: "#custom",
        templates: {
          default: ({ items }, { html }) => html`${(items as { title: string }[]).map((i) => html`<p class="rule">${i.title}</p>`)}`,
        },
      }),
    ]);
    shop.start();
    const order = () => [...document.querySelectorAll("#dyn [data-attribute]")].map((el) => el.getAttribute("data-attribute"));
    try {
      expect(
        await eventually(
          async () => order().length === 3 && document.querySelectorAll("#dyn .ais-RefinementList-item").length > 0,
          30_000,
          10,
        ),
      ).toBe(true);
      expect(order()).toEqual(["color", "gender", "brand"]);
      expect(document.querySelector("#dyn-hits .ais-Hits-banner-image")?.getAttribute("src")).toBe(banner.image);
      expect(document.querySelector("#custom .rule")?.textContent).toBe(banner.title);
      expect(shop.mainIndex.getResults()?.renderingContent).toMatchObject({ redirect: { url: "/jackets" } });
    } finally {
      shop.dispose();
    }
  });
});

describe("corrections reach the page", () => {
  test("a misspelt query's correction and suggestions are results.storefrontSearch", async () => {
    const ours = await ourSearch(s, { query: "shrit", pageSize: 4, analytics: false });
    expect(ours.typedQuery).toBe("shrit");
    const shop = instantsearch({
      indexName: "products",
      searchClient: createSearchClient({ host: s.url, storeId: s.storeId, searchKey: s.keys.search }),
    });
    const root = document.createElement("div");
    root.innerHTML = '<div id="typo-hits"></div>';
    document.body.append(root);
    shop.addWidgets([configure({ query: "shrit", hitsPerPage: 4 }), hits({ container: "#typo-hits" })]);
    shop.start();
    try {
      expect(await eventually(async () => shop.mainIndex.getResults() !== null, 30_000, 10)).toBe(true);
      const results = shop.mainIndex.getResults() as unknown as { storefrontSearch?: Record<string, unknown> };
      expect(results.storefrontSearch).toMatchObject({ searchedQuery: ours.query, typedQuery: "shrit" });
    } finally {
      shop.dispose();
    }
  });
});
