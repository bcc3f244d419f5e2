import "./setup.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import "../src/components/facets/facets.ts";
import "../src/components/pagination/pagination.ts";
import "../src/components/product-card/product-card.ts";
import "../src/components/search-results/search-results.ts";
import "../src/components/sort/sort.ts";
import type { SfsSearchResults } from "../src/components/search-results/search-results.component.ts";
import { searchResponse, widgetConfigResponse } from "./fixtures.ts";
import { api, makeContext, mockService, settle, until } from "./helpers.ts";

const { server, recorded } = mockService();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(() => {
  server.resetHandlers();
  recorded.search.length = 0;
  document.body.replaceChildren();
});

async function mount(path = "/search-results?q=kurta", config = widgetConfigResponse) {
  history.replaceState(null, "", path);
  const { context, calls } = makeContext(config);
  const el = document.createElement("sfs-search-results");
  el.context = context;
  document.body.append(el);
  await el.updateComplete;
  return { el, calls, context };
}
const loaded = (el: SfsSearchResults) => until(() => el.search?.status === "complete" || el.search?.status === "error", "results");
const root = (el: SfsSearchResults) => el.shadowRoot!;
const text = (node: Element | null | undefined) => node?.textContent?.replace(/\s+/g, " ").trim();
const lastSearch = () => Object.fromEntries(recorded.search.at(-1)!.searchParams);
async function rendered(el: SfsSearchResults) {
  await loaded(el);
  await el.updateComplete;
  for (const child of root(el).querySelectorAll<HTMLElement & { updateComplete?: Promise<unknown> }>(
    "sfs-facets, sfs-sort, sfs-pagination",
  ))
    await child.updateComplete;
}

describe("<sfs-search-results>", () => {
  test("accessibility: the result count is a polite live region; facets are a labelled region; products a list", async () => {
    const loads: unknown[] = [];
    document.addEventListener("sfs-results-load", (e) => loads.push(e.detail), { once: true });
    const { el } = await mount();
    const count = root(el).querySelector("[part~=count]")!;
    expect(count.getAttribute("aria-live")).toBe("polite");
    expect(text(count)).toBe("Loading results"); // the region exists before the answer, so the answer is announced
    expect(root(el).querySelector("[part~=grid]")!.getAttribute("aria-busy")).toBe("true");
    expect(root(el).querySelectorAll("[part~=skeleton][aria-hidden=true]")).toHaveLength(8);
    await rendered(el);
    expect(text(count)).toBe("58 results");
    expect(root(el).querySelector("aside[part~=sidebar]")!.getAttribute("aria-label")).toBe("Filters");
    const grid = root(el).querySelector("ul[part~=grid]")!;
    expect(grid.getAttribute("aria-busy")).toBe("false");
    expect(grid.querySelectorAll(":scope > li > sfs-product-card")).toHaveLength(3);
    expect(root(el).querySelector("sfs-sort")).not.toBeNull();
    expect(root(el).querySelector("sfs-pagination")!.pageCount).toBe(3);
    expect(loads).toEqual([{ query: "kurta", totalProductCount: 58, page: 1 }]);
  });

  test("the first search asks for facets with the store's page size and reports Search", async () => {
    const { el, calls } = await mount("/search-results?q=kurta&facets=designer%3AMarks%5C%2C+Spencer+%26+Co&sort=pricea&page=2");
    await rendered(el);
    expect(lastSearch()).toEqual({
      language: "en",
      query: "kurta",
      pageSize: "24",
      from: "24",
      facets: "designer:Marks\\, Spencer & Co",
      sortBy: "pricea",
      returnFacets: "true",
      userId: "u1",
      sessionId: "s1",
    });
    expect(calls.tracked.map(([t]) => t)).toEqual(["Search"]);
    expect(calls.tracked[0]![1]).toMatchObject({
      query: "kurta",
      totalProducts: 58,
      sortBy: "pricea",
      facets: [{ key: "designer", value: "Marks, Spencer & Co" }],
    });
  });

  test("facet, sort and page changes go into the address (pushState) and fetch; back restores the page", async () => {
    const { el, calls } = await mount();
    await rendered(el);
    const facets = root(el).querySelector("sfs-facets")!;
    facets.shadowRoot!.querySelector<HTMLInputElement>("[part~=facet][data-key=designer] input")!.click();
    await rendered(el);
    expect(location.search).toBe("?q=kurta&facets=designer%3AFabindia");
    expect(lastSearch().facets).toBe("designer:Fabindia");

    const select = root(el).querySelector("sfs-sort")!.shadowRoot!.querySelector("select")!;
    select.value = "priced";
    select.dispatchEvent(new Event("change"));
    await rendered(el);
    expect(lastSearch().sortBy).toBe("priced");

    const next = root(el).querySelector("sfs-pagination")!.shadowRoot!.querySelector<HTMLButtonElement>("[part~=next]")!;
    next.click();
    await rendered(el);
    expect(location.search).toBe("?q=kurta&facets=designer%3AFabindia&sort=priced&page=2");
    expect(lastSearch().from).toBe("24");
    expect(calls.tracked.map(([t]) => t)).toEqual(["Search", "Search", "SortByChange", "PageChange"]);

    // Back: the page before, without a new history entry.
    const entries = history.length;
    history.replaceState(null, "", "/search-results?q=kurta&facets=designer%3AFabindia&sort=priced");
    window.dispatchEvent(new PopStateEvent("popstate"));
    await rendered(el);
    expect(el.url!.state.page).toBe(1);
    expect(lastSearch().from).toBeUndefined();
    expect(history.length).toBe(entries);

    // "Clear all" drops every facet.
    root(el).querySelector("sfs-facets")!.shadowRoot!.querySelector<HTMLButtonElement>("[part~=clear-all]")!.click();
    await rendered(el);
    expect(location.search).toBe("?q=kurta&sort=priced");
  });

  test("a product click reports ProductClick with the shown page", async () => {
    const { el, calls } = await mount();
    await rendered(el);
    const card = root(el).querySelector("sfs-product-card")!;
    await card.updateComplete;
    const link = card.shadowRoot!.querySelector<HTMLAnchorElement>("[part~=name-link]")!;
    link.addEventListener("click", (e) => e.preventDefault());
    link.click();
    expect(calls.tracked.at(-1)).toEqual([
      "ProductClick",
      {
        query: "kurta",
        productIds: ["kurta-1", "kurta-2", "kurta-3"],
        facets: [],
        pageSize: 24,
        sortBy: "relevance",
        page: 1,
        clickProductId: "kurta-1",
        region: "IN",
        language: "en",
        currency: "INR",
      },
    ]);
  });

  test("fallback notice and 'did you mean' links (which search in place)", async () => {
    server.use(
      http.get(api("search"), ({ request }) => {
        recorded.search.push(new URL(request.url));
        const q = new URL(request.url).searchParams.get("query");
        return HttpResponse.json(
          q === "kurta blu"
            ? searchResponse({ fallback: true, query: "kurta", spellSuggestions: ["kurta blue"] })
            : searchResponse({ query: q! }),
        );
      }),
    );
    const { el } = await mount("/search-results?q=kurta%20blu");
    await rendered(el);
    expect(text(root(el).querySelector("[part~=notice]"))).toBe("No exact matches for “kurta blu”; showing results for “kurta”");
    const link = root(el).querySelector<HTMLAnchorElement>("[part~=did-you-mean] a")!;
    expect(text(root(el).querySelector("[part~=did-you-mean]"))).toBe("Did you mean kurta blue?");
    expect(link.getAttribute("href")).toBe("https://shop.example/search-results?q=kurta+blue");
    link.click();
    await rendered(el);
    expect(lastSearch().query).toBe("kurta blue");
    expect(root(el).querySelector("[part~=notice]")).toBeNull();
  });

  test("a correction the search applied: 'Showing results for', and 'Search instead for' the words as typed", async () => {
    server.use(
      http.get(api("search"), ({ request }) => {
        const url = new URL(request.url);
        recorded.search.push(url);
        const typed = url.searchParams.get("autocorrect") === "false";
        return HttpResponse.json(
          typed
            ? searchResponse({ query: "jeens", spellSuggestions: ["jeans"] }, 0, 0)
            : searchResponse({ query: "jeans", typedQuery: "jeens" }),
        );
      }),
    );
    const { el } = await mount("/search-results?q=jeens");
    await rendered(el);
    expect(text(root(el).querySelector("[part~=corrected]"))).toBe("Showing results for “jeans”. Search instead for “jeens”");
    const instead = root(el).querySelector<HTMLAnchorElement>("[part~=search-instead]")!;
    expect(instead.getAttribute("href")).toBe("https://shop.example/search-results?q=jeens&exact=1");
    expect(root(el).querySelector("[part~=did-you-mean]")).toBeNull();
    instead.click();
    await rendered(el);
    expect(lastSearch().autocorrect).toBe("false");
    expect(location.search).toBe("?q=jeens&exact=1");
    // Searched as typed, it finds nothing: the correction is then offered as "did you mean".
    expect(text(root(el).querySelector("[part~=did-you-mean]"))).toBe("Did you mean jeans?");
  });

  test("facets the query's words selected show checked and as chips; taking one back searches without its words", async () => {
    const gender = {
      key: "gender",
      name: "Gender",
      values: [
        { key: "Men", name: "Men", count: 40, selected: true },
        { key: "Women", name: "Women", count: 12 },
      ],
    };
    server.use(
      http.get(api("search"), ({ request }) => {
        const url = new URL(request.url);
        recorded.search.push(url);
        return HttpResponse.json(
          url.searchParams.get("query")?.toLowerCase() === "men's watch"
            ? searchResponse({ facets: [gender], queryFacets: [{ key: "gender", values: ["Men"], words: "men's" }] })
            : searchResponse({ facets: [] }),
        );
      }),
    );
    const { el } = await mount("/search-results?q=Men%27s%20watch");
    await rendered(el);
    const facets = root(el).querySelector("sfs-facets")!.shadowRoot!;
    expect(text(facets.querySelector("[part~=chip-label]"))).toBe("Gender: Men");
    const men = facets.querySelector<HTMLInputElement>("[data-key=gender] [part~=checkbox]")!;
    expect(men.checked).toBe(true);
    facets.querySelector<HTMLButtonElement>("[part~=chip-remove]")!.click();
    await rendered(el);
    expect(lastSearch().query).toBe("watch");
    expect(lastSearch().facets).toBeUndefined();
  });

  test("the empty state offers the store's popular categories, each a page of its products with no query", async () => {
    server.use(
      http.get(api("search"), ({ request }) => {
        recorded.search.push(new URL(request.url));
        return HttpResponse.json(searchResponse({}, 0, 0));
      }),
    );
    const { el } = await mount("/search-results?q=qzxv", {
      ...widgetConfigResponse,
      popularCategories: [{ key: "Apparel > Topwear", name: "Topwear" }],
    });
    await rendered(el);
    const link = root(el).querySelector<HTMLAnchorElement>("[part~=category-link]")!;
    expect(text(link)).toBe("Topwear");
    link.click();
    await rendered(el);
    expect(lastSearch()).toMatchObject({ query: "", browse: "true", facets: "category.lvl1:Apparel > Topwear" });
  });

  test("the empty state takes the full width: the query, did-you-mean, 'clear filters' and the store's popular queries", async () => {
    server.use(http.get(api("search"), () => HttpResponse.json(searchResponse({ facets: [], spellSuggestions: ["kurta"] }, 0, 0))));
    const { el } = await mount("/search-results?q=kurtq&facets=color%3ARust", {
      ...widgetConfigResponse,
      popularQueries: ["saree", "kurtq", "jeans"],
    });
    await rendered(el);
    expect(root(el).querySelector("[part~=sidebar]")).toBeNull();
    expect(root(el).querySelector("[part~=base]")!.className).toBe("");
    expect(text(root(el).querySelector("[part~=heading]"))).toBe("Results for “kurtq”");
    expect(text(root(el).querySelector("[part~=empty] [part~=message]"))).toBe("No products found for “kurtq”");
    expect(text(root(el).querySelector("[part~=count]"))).toBe("");
    expect(root(el).querySelector("sfs-pagination, sfs-sort")).toBeNull();
    expect(text(root(el).querySelector("[part~=did-you-mean]"))).toBe("Did you mean kurta?");
    expect(text(root(el).querySelector("[part~=popular-title]"))).toBe("Popular searches");
    const popular = [...root(el).querySelectorAll<HTMLAnchorElement>("[part~=popular-link]")];
    expect(popular.map((a) => a.textContent)).toEqual(["saree", "jeans"]); // not the query itself
    root(el).querySelector<HTMLButtonElement>("[part~=clear-filters]")!.click();
    expect(location.search).toBe("?q=kurtq");
    popular[1]!.click();
    expect(location.search).toBe("?q=jeans");
  });

  test("while the first results load, the page is laid out as they will be: a heading, the facet column and the grid as placeholders", async () => {
    const { el } = await mount();
    expect(text(root(el).querySelector("h2[part~=heading]"))).toBe("Results for “kurta”");
    expect(root(el).querySelector("[part~=base]")!.className).toBe("with-sidebar");
    expect(root(el).querySelector("[part~=sidebar] [part~=facets-skeleton][aria-hidden=true]")).not.toBeNull();
    expect(root(el).querySelector("sfs-sort")).not.toBeNull();
    await rendered(el);
    expect(root(el).querySelector("[part~=base]")!.className).toBe("with-sidebar");
    expect(root(el).querySelector("[part~=sidebar] sfs-facets")).not.toBeNull();
  });

  test("the first answer is drawn in two frames: the cards in place of the placeholders, then the rest with the facets and the pagination", async () => {
    server.use(http.get(api("search"), () => HttpResponse.json(searchResponse({}, 24))));
    // The browser's next frame, moved by the test.
    const frames: FrameRequestCallback[] = [];
    const raf = globalThis.requestAnimationFrame;
    globalThis.requestAnimationFrame = (callback) => frames.push(callback);
    try {
      const { el } = await mount();
      await loaded(el);
      await el.updateComplete;
      expect(root(el).querySelectorAll("sfs-product-card")).toHaveLength(8);
      expect(root(el).querySelector("[part~=sidebar] [part~=facets-skeleton]")).not.toBeNull();
      expect(root(el).querySelector("sfs-pagination")).toBeNull();
      expect(frames).toHaveLength(1);
      frames[0]!(0);
      await el.updateComplete;
      expect(root(el).querySelectorAll("sfs-product-card")).toHaveLength(24);
      expect(root(el).querySelector("[part~=sidebar] sfs-facets")).not.toBeNull();
      expect(root(el).querySelector("sfs-pagination")).not.toBeNull();
    } finally {
      globalThis.requestAnimationFrame = raf;
    }
  });

  test("a rule's banners show over the results (text, checked links and images); pinned products carry a badge only when the store asks", async () => {
    const userData = [
      { type: "banner", title: "Summer sale", text: "Up to 50% off", image: "/img/sale.png", link: "/sale" },
      { type: "banner", title: "<b>Not markup</b>", link: "javascript:alert(1)", image: "data:image/png;base64,AAAA" },
      { type: "note", title: "not a banner" },
      { type: "banner", text: "no title" },
    ];
    server.use(http.get(api("search"), () => HttpResponse.json(searchResponse({ userData, pinnedProductIds: ["kurta-2"] }))));
    const { el } = await mount();
    await rendered(el);
    const banners = [...root(el).querySelectorAll("[part~=banners] > [part~=banner]")];
    expect(root(el).querySelector("[part~=banners]")!.getAttribute("aria-label")).toBe("Announcements");
    expect(banners.map((b) => [b.tagName, b.getAttribute("href"), text(b)])).toEqual([
      ["A", new URL("/sale", location.href).href, "Summer sale Up to 50% off"],
      ["DIV", null, "<b>Not markup</b>"],
    ]);
    expect(banners[0]!.querySelector("img[part~=banner-image]")!.getAttribute("src")).toBe(new URL("/img/sale.png", location.href).href);
    expect(banners[1]!.querySelector("img, b")).toBeNull();
    const cards = [...root(el).querySelectorAll("sfs-product-card")];
    for (const card of cards) await card.updateComplete;
    expect(cards.map((c) => c.shadowRoot!.querySelector("[part~=pinned-badge]"))).toEqual([null, null, null]);

    document.body.replaceChildren();
    const marked = await mount("/search-results?q=kurta", { ...widgetConfigResponse, markPinned: true });
    await rendered(marked.el);
    const markedCards = [...root(marked.el).querySelectorAll("sfs-product-card")];
    for (const card of markedCards) await card.updateComplete;
    expect(markedCards.map((c) => text(c.shadowRoot!.querySelector("[part~=pinned-badge]")) ?? null)).toEqual([null, "Featured", null]);
  });

  test("a rule's redirect replaces the results page once, with a status meanwhile; an address that is not http(s) is ignored", async () => {
    server.use(http.get(api("search"), () => HttpResponse.json(searchResponse({ redirect: "/gift-cards" }))));
    const { el, calls } = await mount("/search-results?q=gift+card");
    await loaded(el);
    await el.updateComplete;
    await el.updateComplete;
    expect(calls.redirect).toEqual([new URL("/gift-cards", location.href).href]);
    expect(text(root(el).querySelector("[part~=redirecting]"))).toBe("Taking you to the page for “gift card”…");
    el.requestUpdate();
    await el.updateComplete;
    expect(calls.redirect).toHaveLength(1);

    document.body.replaceChildren();
    server.use(http.get(api("search"), () => HttpResponse.json(searchResponse({ redirect: "javascript:alert(1)" }))));
    const other = await mount("/search-results?q=gift+card");
    await rendered(other.el);
    expect(other.calls.redirect).toEqual([]);
    expect(root(other.el).querySelectorAll("sfs-product-card")).toHaveLength(3);
  });

  test("a skip link, first in the tab order, moves the focus past the facets to the results", async () => {
    const { el } = await mount();
    await rendered(el);
    const focusable = [...root(el).querySelectorAll<HTMLElement>("a[href], button, sfs-sort, sfs-facets")];
    expect(focusable[0]!.getAttribute("part")).toBe("skip-link");
    expect(text(focusable[0])).toBe("Skip to results");
    // The sort comes before the facets, so it is a few Tab presses away.
    expect(focusable.findIndex((e) => e.tagName === "SFS-SORT")).toBeLessThan(focusable.findIndex((e) => e.tagName === "SFS-FACETS"));
    focusable[0]!.click();
    expect(root(el).activeElement).toBe(root(el).querySelector("[part~=main]"));
  });

  test("error state with a retry button (role=alert)", async () => {
    let fail = true;
    server.use(
      http.get(api("search"), () =>
        fail ? HttpResponse.json({ message: "boom", code: "internal_error" }, { status: 500 }) : HttpResponse.json(searchResponse()),
      ),
    );
    const { el } = await mount();
    await rendered(el);
    const error = root(el).querySelector("[part~=error]")!;
    expect(error.getAttribute("role")).toBe("alert");
    expect(text(error)).toContain("Search is unavailable right now.");
    expect((el.search!.error as { code?: string }).code).toBe("internal_error");
    fail = false;
    root(el).querySelector<HTMLButtonElement>("[part~=retry-button]")!.click();
    await settle(10);
    await rendered(el);
    expect(text(root(el).querySelector("[part~=count]"))).toBe("58 results");
  });

  test("narrow container: a 'Filters' button opens the facets in a dialog", async () => {
    const { el } = await mount("/search-results?q=kurta&facets=color%3ARust");
    await rendered(el);
    el.layout.measure(480);
    await el.updateComplete;
    expect(el.hasAttribute("narrow")).toBe(true);
    expect(root(el).querySelector("aside[part~=sidebar]")).toBeNull();
    const button = root(el).querySelector<HTMLButtonElement>("[part~=filter-button]")!;
    expect(text(button)).toBe("Filters 1");
    expect(text(button.querySelector("[part~=filter-count]"))).toBe("1");
    expect(button.getAttribute("aria-haspopup")).toBe("dialog");
    const dialog = root(el).querySelector<HTMLDialogElement>("dialog[part~=drawer]")!;
    expect(dialog.getAttribute("aria-labelledby")).toBe("drawer-title");
    expect(dialog.querySelector("sfs-facets")).not.toBeNull();
    button.click();
    expect(dialog.open).toBe(true);
    root(el).querySelector<HTMLButtonElement>("[part~=drawer-close]")!.click();
    expect(dialog.open).toBe(false);
    const apply = root(el).querySelector<HTMLButtonElement>("[part~=drawer-apply]")!;
    expect(text(apply)).toBe("Show 58 results");
    button.click();
    apply.click();
    expect(dialog.open).toBe(false);
    el.layout.measure(1024);
    await el.updateComplete;
    expect(root(el).querySelector("aside[part~=sidebar]")).not.toBeNull();
  });

  test("no query in the address: the store's popular products, under their own heading, and no Search reported", async () => {
    const { el } = await mount("/search-results");
    await settle(10);
    expect(recorded.search).toHaveLength(1);
    expect(recorded.search[0]!.searchParams.get("browse")).toBe("true");
    expect(recorded.search[0]!.searchParams.get("query")).toBe("");
    await rendered(el);
    expect(root(el).querySelector("[part~=heading]")!.textContent).toBe("Popular products");
  });
});
