import "./setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createApiClient } from "../src/api/client.ts";
import type { SearchRequest, SearchResponse } from "@storefront-search/contract";
import { HeadlessHost } from "../src/core/headless-host.ts";
import { SearchController } from "../src/core/search-controller.ts";
import type { SearchState } from "../src/state/search-state.ts";
import { searchResponse } from "./fixtures.ts";
import { ManualScheduler, mockService, settle } from "./helpers.ts";
import { API_ORIGIN } from "./setup.ts";

const locale = { region: "IN", language: "en-IN", currency: "INR" };
const state = (over: Partial<SearchState> = {}): SearchState => ({ query: "kurta", facets: [], sort: "", page: 1, ...over });

/** A search backend whose answers the test releases by hand. */
function deferredSearch() {
  const calls: { request: SearchRequest; signal: AbortSignal; resolve(r: SearchResponse): void; reject(e: unknown): void }[] = [];
  const search = (request: SearchRequest, signal: AbortSignal) =>
    new Promise<SearchResponse>((resolve, reject) => {
      calls.push({ request, signal, resolve, reject });
      signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });
  return { calls, search };
}

describe("SearchController", () => {
  test("facet names follow the page's language: en_US is sent as en-US, a tag the API would refuse is left out", async () => {
    const sent: (string | undefined)[] = [];
    for (const language of ["en_US", "de", "not a locale", ""]) {
      const scheduler = new ManualScheduler();
      const backend = deferredSearch();
      const host = new HeadlessHost();
      const c = new SearchController(host, {
        search: backend.search,
        track: () => {},
        pageSize: 24,
        locale: { ...locale, language },
        debounceMs: 0,
        scheduler,
      });
      host.connect();
      c.request(state());
      scheduler.advance(1);
      sent.push(backend.calls[0]?.request.language);
    }
    expect(sent).toEqual(["en-US", "de", undefined, undefined]);
  });

  test("a burst of changes is one request (debounced); the older request is aborted and its answer never shown", async () => {
    const scheduler = new ManualScheduler();
    const backend = deferredSearch();
    const events: [string, object][] = [];
    const host = new HeadlessHost();
    const c = new SearchController(host, {
      search: backend.search,
      track: (type, data) => events.push([type, data]),
      pageSize: 24,
      locale,
      debounceMs: 50,
      scheduler,
    });
    host.connect();

    c.request(state({ facets: [{ key: "color", value: "Red" }] }));
    scheduler.advance(20);
    c.request(
      state({
        facets: [
          { key: "color", value: "Red" },
          { key: "color", value: "Blue" },
        ],
      }),
    );
    expect(c.status).toBe("pending");
    scheduler.advance(49);
    expect(backend.calls).toHaveLength(0);
    scheduler.advance(1);
    expect(backend.calls).toHaveLength(1);
    expect(backend.calls[0]!.request).toEqual({
      query: "kurta",
      pageSize: 24,
      from: 0,
      returnFacets: true,
      facets: "color:Red,color:Blue",
      language: "en-IN",
    });

    // A newer request while the first is in flight: the first is aborted.
    c.request(state({ page: 3, sort: "pricea" }));
    scheduler.advance(50);
    expect(backend.calls).toHaveLength(2);
    expect(backend.calls[0]!.signal.aborted).toBe(true);
    expect(backend.calls[1]!.request).toMatchObject({ from: 48, sortBy: "pricea" });

    // The stale answer arrives anyway (a server that ignores aborts): it is not shown.
    backend.calls[0]!.resolve(searchResponse({ query: "stale" }));
    await settle();
    expect(c.result).toBeNull();
    expect(c.status).toBe("pending");

    backend.calls[1]!.resolve(searchResponse());
    await settle();
    expect(c.status).toBe("complete");
    expect(c.resultState).toEqual(state({ page: 3, sort: "pricea" }));
    expect(c.lastPage).toBe(3);
    expect(events.map((e) => e[0])).toEqual(["Search"]);
    host.disconnect();
  });

  test("reports Search, then PageChange, SortByChange and ProductClick with the spec's exact fields", async () => {
    const scheduler = new ManualScheduler();
    const backend = deferredSearch();
    const events: [string, Record<string, unknown>][] = [];
    const host = new HeadlessHost();
    const c = new SearchController(host, {
      search: backend.search,
      track: (type, data) => events.push([type, data as Record<string, unknown>]),
      pageSize: 24,
      locale,
      ids: () => ({ userId: "u1", sessionId: "s1" }),
      scheduler,
    });
    const run = async (s: SearchState) => {
      c.request(s);
      scheduler.advance(0);
      backend.calls.at(-1)!.resolve(searchResponse());
      await settle();
    };
    const facets = [{ key: "designer", value: "Fabindia" }];
    await run(state({ facets }));
    await run(state({ facets, page: 2 }));
    await run(state({ facets, page: 2, sort: "priced" }));
    await run(state({ facets, page: 2, sort: "priced" })); // the same state again (a retry): nothing to report
    c.trackProductClick("kurta-2");
    expect(backend.calls[0]!.request).toMatchObject({ userId: "u1", sessionId: "s1" });

    const listing = {
      query: "kurta",
      productIds: ["kurta-1", "kurta-2", "kurta-3"],
      facets: [{ key: "designer", value: "Fabindia" }],
      pageSize: 24,
      region: "IN",
      language: "en-IN",
      currency: "INR",
    };
    expect(events).toEqual([
      ["Search", { ...listing, sortBy: "relevance", totalProducts: 58 }],
      ["PageChange", { ...listing, sortBy: "relevance", page: 2 }],
      ["SortByChange", { ...listing, sortBy: "priced" }],
      ["ProductClick", { ...listing, sortBy: "priced", page: 2, clickProductId: "kurta-2" }],
    ]);
    expect(Object.keys(events[0]![1]).sort()).toEqual(
      ["query", "productIds", "pageSize", "sortBy", "totalProducts", "facets", "region", "language", "currency"].sort(),
    );
  });

  test("events about an answer an experiment shaped carry its experiment and variant; a click on an interleaved list, its ranking", async () => {
    const scheduler = new ManualScheduler();
    const backend = deferredSearch();
    const events: [string, Record<string, unknown>][] = [];
    const host = new HeadlessHost();
    const c = new SearchController(host, {
      search: backend.search,
      track: (type, data) => events.push([type, data as Record<string, unknown>]),
      pageSize: 24,
      locale,
      scheduler,
    });
    const id = `exp_${"a".repeat(32)}`;
    const answer = (experiment: SearchResponse["experiment"]) => ({ ...searchResponse(), ...(experiment ? { experiment } : {}) });
    const run = async (s: SearchState, r: SearchResponse) => {
      c.request(s);
      scheduler.advance(0);
      backend.calls.at(-1)!.resolve(r);
      await settle();
    };
    await run(state(), answer({ id, variant: "interleaved", interleavedFrom: { "kurta-1": "B", "kurta-2": "A" } }));
    c.trackProductClick("kurta-1");
    c.trackProductClick("kurta-3");
    await run(state({ query: "saree" }), answer(undefined));
    c.trackProductClick("kurta-2");
    expect(events.map(([type, d]) => [type, d.experimentId, d.variant, d.interleavedFrom])).toEqual([
      ["Search", id, "interleaved", undefined],
      ["ProductClick", id, "interleaved", "B"],
      ["ProductClick", id, "interleaved", undefined],
      // The next answer was no experiment's: its events name none.
      ["Search", undefined, undefined, undefined],
      ["ProductClick", undefined, undefined, undefined],
    ]);
    expect("experimentId" in events[3]![1]).toBe(false);
  });

  test("a failure is an error state; retry runs the same state again", async () => {
    const scheduler = new ManualScheduler();
    const backend = deferredSearch();
    const host = new HeadlessHost();
    const c = new SearchController(host, { search: backend.search, pageSize: 24, locale, scheduler });
    c.request(state());
    scheduler.advance(0);
    backend.calls[0]!.reject(new Error("503"));
    await settle();
    expect(c.status).toBe("error");
    c.retry();
    scheduler.advance(0);
    expect(backend.calls).toHaveLength(2);
    expect(backend.calls[1]!.request.query).toBe("kurta");
    // An empty query browses the store's popular products; the search under way is aborted.
    c.request(state({ query: "" }));
    scheduler.advance(0);
    expect(backend.calls[1]!.signal.aborted).toBe(true);
    expect(backend.calls[2]!.request).toMatchObject({ query: "", browse: true });
  });

  test("pre-production mode never browses: without a query it idles", () => {
    const scheduler = new ManualScheduler();
    const backend = deferredSearch();
    const host = new HeadlessHost();
    const c = new SearchController(host, { search: backend.search, pageSize: 24, locale, scheduler, preprod: true });
    host.connect();
    c.request(state({ query: "" }));
    scheduler.advance(0);
    expect(c.status).toBe("idle");
    expect(backend.calls).toHaveLength(0);
  });
});

describe("through the API client (msw at the network boundary)", () => {
  const { server, recorded } = mockService();
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterAll(() => server.close());

  test("msw intercepts the client's fetch under Bun; headers and parameters are the API's", async () => {
    const client = createApiClient({ api: API_ORIGIN, storeId: "demo", searchKey: "pk_search_test" });
    const host = new HeadlessHost();
    const c = new SearchController(host, { search: client.search, pageSize: 24, locale, preprod: true });
    c.request(state({ facets: [{ key: "designer", value: "Marks, Spencer & Co" }], sort: "new", page: 2 }));
    for (let i = 0; i < 50 && c.status !== "complete"; i++) await settle(5);
    expect(c.status).toBe("complete");
    expect(c.result?.products[0]?.productId).toBe("kurta-1");
    const url = recorded.search[0]!;
    expect(Object.fromEntries(url.searchParams)).toEqual({
      language: "en-IN",
      query: "kurta",
      pageSize: "24",
      from: "24",
      facets: "designer:Marks\\, Spencer & Co",
      sortBy: "new",
      returnFacets: "true",
      preprod: "true",
    });
  });
});
