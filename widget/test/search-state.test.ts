import "./setup.ts";
import { describe, expect, test } from "bun:test";
import { HeadlessHost } from "../src/core/headless-host.ts";
import { UrlStateController, type UrlEnv } from "../src/core/url-state-controller.ts";
import { formatFacetParam, parseFacetParam } from "@storefront-search/contract";
import { readSearchState, writeSearchState, type SearchState } from "../src/state/search-state.ts";

describe("facets parameter", () => {
  test("commas and backslashes in values are escaped, and parse back", () => {
    const selections = [
      { key: "designer", value: "Marks, Spencer & Co" },
      { key: "designer", value: "Back\\slash" },
      { key: "price", value: "1000-2000" },
      { key: "category.lvl1", value: "Women > Kurtas: Cotton" },
    ];
    const param = formatFacetParam(selections);
    expect(param).toBe("designer:Marks\\, Spencer & Co,designer:Back\\\\slash,price:1000-2000,category.lvl1:Women > Kurtas: Cotton");
    expect(parseFacetParam(param)).toEqual(selections);
  });

  test("pairs that are not key:value are ignored, duplicates kept once", () => {
    expect(parseFacetParam("designer:A,,nonsense,:x,color:,designer:A,color:Red")).toEqual([
      { key: "designer", value: "A" },
      { key: "color", value: "Red" },
    ]);
    expect(parseFacetParam(null)).toEqual([]);
  });

  test("a ! before the key excludes the value, and parses back; a value may begin with - or !", () => {
    const selections = [
      { key: "designer", value: "Nike", exclude: true },
      { key: "designer", value: "-Nike" },
      { key: "color", value: "!Red", exclude: true },
    ];
    const param = formatFacetParam(selections);
    expect(param).toBe("!designer:Nike,designer:-Nike,!color:!Red");
    expect(parseFacetParam(param)).toEqual(selections);
    expect(parseFacetParam("designer:Nike,!designer:Nike,!designer:Nike")).toEqual([
      { key: "designer", value: "Nike" },
      { key: "designer", value: "Nike", exclude: true },
    ]);
  });
});

describe("URL state", () => {
  const state: SearchState = {
    query: "blue kurta",
    facets: [
      { key: "designer", value: "Marks, Spencer & Co" },
      { key: "price", value: "1000-2000" },
    ],
    sort: "pricea",
    page: 3,
  };

  test("round trip through the address keeps every member and the store's own parameters", () => {
    const href = writeSearchState("https://shop.example/search-results?utm_source=mail&q=old", state, "q");
    const url = new URL(href);
    expect(url.searchParams.get("utm_source")).toBe("mail");
    expect(url.searchParams.get("facets")).toBe("designer:Marks\\, Spencer & Co,price:1000-2000");
    expect(readSearchState(href, "q")).toEqual(state);
  });

  test("defaults are left out of the address; the store's query parameter name is used", () => {
    const href = writeSearchState(
      "https://shop.example/find?term=x&page=4&sort=new",
      { query: "saree", facets: [], sort: "", page: 1 },
      "term",
    );
    expect(href).toBe("https://shop.example/find?term=saree");
    expect(readSearchState("https://shop.example/find?term=%20saree%20&page=-2", "term")).toEqual({
      query: "saree",
      facets: [],
      sort: "",
      page: 1,
    });
  });
});

/** A window stand-in: an address, a history, and its events. */
function fakeWindow(href: string) {
  const target = new EventTarget();
  const pushed: string[] = [];
  const env: UrlEnv & { pushed: string[]; back(to: string): void } = {
    location: { href },
    history: {
      pushState: (_data: unknown, _unused: string, url?: string | URL | null) => {
        env.location.href = String(url);
        pushed.push(String(url));
      },
    },
    addEventListener: (type, fn) => target.addEventListener(type, fn),
    removeEventListener: (type, fn) => target.removeEventListener(type, fn),
    dispatchEvent: (event) => target.dispatchEvent(event),
    pushed,
    back(to) {
      env.location.href = to;
      target.dispatchEvent(new Event("popstate"));
    },
  };
  return env;
}

describe("UrlStateController", () => {
  test("changes are pushed as history entries; back/forward restores the state", () => {
    const env = fakeWindow("https://shop.example/search-results?q=kurta");
    const host = new HeadlessHost();
    const seen: SearchState[] = [];
    const url = new UrlStateController(host, { env, queryParam: "q", onChange: (s) => seen.push(s) });
    host.connect();
    expect(seen).toEqual([{ query: "kurta", facets: [], sort: "", page: 1 }]);

    url.toggleFacet("designer", "Marks, Spencer & Co", true);
    url.setSort("priced");
    url.setPage(2);
    expect(env.pushed).toEqual([
      "https://shop.example/search-results?q=kurta&facets=designer%3AMarks%5C%2C+Spencer+%26+Co",
      "https://shop.example/search-results?q=kurta&facets=designer%3AMarks%5C%2C+Spencer+%26+Co&sort=priced",
      "https://shop.example/search-results?q=kurta&facets=designer%3AMarks%5C%2C+Spencer+%26+Co&sort=priced&page=2",
    ]);
    expect(url.state).toEqual({ query: "kurta", facets: [{ key: "designer", value: "Marks, Spencer & Co" }], sort: "priced", page: 2 });

    env.back(env.pushed[0]!);
    expect(url.state).toEqual({ query: "kurta", facets: [{ key: "designer", value: "Marks, Spencer & Co" }], sort: "", page: 1 });
    expect(seen).toHaveLength(5);
    expect(host.updates).toBeGreaterThanOrEqual(4);

    // Facet, sort and query changes go back to the first page; a new query drops the facets.
    url.setPage(5);
    url.toggleFacet("price", "0-1000", true);
    expect(url.state.page).toBe(1);
    url.setQuery("  saree ");
    expect(url.state).toEqual({ query: "saree", facets: [], sort: "", page: 1 });
    host.disconnect();
  });

  test("an unchanged state pushes nothing", () => {
    const env = fakeWindow("https://shop.example/search-results?q=kurta&sort=new");
    const host = new HeadlessHost();
    const url = new UrlStateController(host, { env, queryParam: "q" });
    host.connect();
    url.setSort("new");
    url.toggleFacet("color", "Red", false);
    expect(env.pushed).toEqual([]);
  });

  test("a link's exclusion stays as the shopper narrows; ticking the excluded value chooses it instead", () => {
    const env = fakeWindow("https://shop.example/search-results?q=kurta&facets=!designer:Nike");
    const host = new HeadlessHost();
    const url = new UrlStateController(host, { env, queryParam: "q" });
    host.connect();
    url.toggleFacet("color", "Red", true);
    expect(url.state.facets).toEqual([
      { key: "designer", value: "Nike", exclude: true },
      { key: "color", value: "Red" },
    ]);
    url.toggleFacet("designer", "Nike", true);
    expect(url.state.facets).toEqual([
      { key: "color", value: "Red" },
      { key: "designer", value: "Nike" },
    ]);
    expect(env.pushed.map((href) => new URL(href).searchParams.get("facets"))).toEqual([
      "!designer:Nike,color:Red",
      "color:Red,designer:Nike",
    ]);
    host.disconnect();
  });
});
