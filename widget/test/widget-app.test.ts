import "./setup.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import "../src/components/facets/facets.ts";
import "../src/components/pagination/pagination.ts";
import "../src/components/product-card/product-card.ts";
import "../src/components/search-results/search-results.ts";
import "../src/components/sort/sort.ts";
import "../src/components/typeahead/typeahead.ts";
import "../src/components/similar-products/similar-products.ts";
import "../src/components/complete-the-look/complete-the-look.ts";
import { resolveConfig } from "../src/config/resolve-config.ts";
import { readScriptSettings, startWidget, type StorefrontSearchApi, type WidgetApp } from "../src/widget-app.ts";
import type { CartItem } from "../src/core/widget-context.ts";
import { product, widgetConfigResponse } from "./fixtures.ts";
import { api, clearPage, mockService, settle, until } from "./helpers.ts";
import { API_ORIGIN } from "./setup.ts";

const similarAsked: URL[] = [];
const ctlAsked: URL[] = [];
const { server, recorded } = mockService([
  http.get(api("similarity"), ({ request }) => {
    similarAsked.push(new URL(request.url));
    return HttpResponse.json({ totalProductCount: 0, products: [], facets: [], sourceProduct: { productId: "x", name: "X" } });
  }),
  http.get(api("ctl"), ({ request }) => {
    ctlAsked.push(new URL(request.url));
    return HttpResponse.json({
      ctlProducts: [[{ ...product(2), internalCategory: "bottom" }]],
      sourceProduct: { ...product(1), internalCategory: "top" },
    });
  }),
]);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
let app: WidgetApp | null = null;
afterEach(() => {
  clearPage(app);
  app = null;
  server.resetHandlers();
  for (const list of Object.values(recorded)) list.length = 0;
});

const settings = { api: API_ORIGIN, storeId: "demo", searchKey: "pk_search_test", analyticsKey: "pk_analytics_test" };

function storePage(path: string) {
  history.replaceState(null, "", path);
  document.documentElement.lang = "en-IN";
  const input = document.createElement("input");
  input.type = "search";
  input.name = "q";
  const target = document.createElement("div");
  target.id = "product-search-results";
  target.textContent = "Loading…";
  document.body.append(input, target);
  return { input, target };
}

const storefront = () => window.StorefrontSearch as StorefrontSearchApi;

describe("the head script", () => {
  test("on a product page: a carousel in each data-sfs-similar div, and the store's own element gets its context", async () => {
    history.replaceState(null, "", "/products/p1");
    const slot = document.createElement("div");
    slot.dataset.sfsSimilar = "";
    slot.dataset.productId = "p1";
    slot.dataset.variantId = "p1-red";
    const own = document.createElement("sfs-similar-products");
    own.setAttribute("product-id", "p2");
    document.body.append(slot, own);
    app = await startWidget(settings);
    expect(app.carousels).toHaveLength(1);
    expect(slot.firstElementChild).toBe(app.carousels[0]!);
    await until(() => similarAsked.length === 2, "two similarity requests");
    expect(similarAsked.map((u) => [u.searchParams.get("productId"), u.searchParams.get("variantId")]).sort()).toEqual([
      ["p1", "p1-red"],
      ["p2", null],
    ]);
    // The shopper's anonymous id goes along, so similar products can be personalised and put in an experiment.
    const userIds = similarAsked.map((u) => u.searchParams.get("userId"));
    expect(userIds[0]).toMatch(/^[a-z0-9]{6,}$/);
    expect(userIds[1]).toBe(userIds[0]!);
    similarAsked.length = 0;
  });

  test("a complete-the-look element in each data-sfs-ctl div; a cart hook queued before the script is taken, and AddToCart goes out with the locale", async () => {
    history.replaceState(null, "", "/products/kurta-1");
    document.documentElement.lang = "en-IN";
    const slot = document.createElement("div");
    slot.dataset.sfsCtl = "";
    slot.dataset.productId = "kurta-1";
    const own = document.createElement("sfs-complete-the-look");
    own.setAttribute("product-id", "kurta-9");
    document.body.append(slot, own);
    const added: CartItem[] = [];
    const queuedHook = (item: CartItem) => void added.push(item);
    window.StorefrontSearch = { q: [["setCartHook", queuedHook]] };
    app = await startWidget(settings);
    expect(app.looks).toHaveLength(1);
    const looks = app.looks[0]!;
    expect(slot.firstElementChild).toBe(looks);
    expect(app.context!.cart!()).toBe(queuedHook);
    await until(() => ctlAsked.length === 2, "two ctl requests");
    expect(ctlAsked.map((u) => u.searchParams.get("productId")).sort()).toEqual(["kurta-1", "kurta-9"]);
    expect(ctlAsked.every((u) => /^[a-z0-9]{6,}$/.test(u.searchParams.get("userId") ?? ""))).toBe(true);
    expect(own.context).toBe(app.context);

    await until(() => !looks.loading && !!looks.shadowRoot!.querySelector('[part="view-look"]'), "looks");
    looks.shadowRoot!.querySelector<HTMLButtonElement>('[part="view-look"]')!.click();
    await looks.updateComplete;
    const buttons = looks.shadowRoot!.querySelectorAll<HTMLButtonElement>('[part="add-to-cart"]');
    expect(buttons).toHaveLength(2);
    buttons[1]!.click();
    await until(() => app!.tracker!.pending.some((e) => e.type === "AddToCart"), "AddToCart");
    expect(added.map((i) => i.productId)).toEqual(["kurta-2"]);
    expect(app.tracker!.pending.find((e) => e.type === "AddToCart")!.data).toMatchObject({
      addProductId: "kurta-2",
      qty: 1,
      price: 1299,
      page: 1,
      region: "US",
      language: "en-IN",
      currency: "INR",
    });
    expect(app.tracker!.pending.find((e) => e.type === "CTLViewLookClick")!.data).toMatchObject({
      position: 1,
      baseProductId: "kurta-1",
      region: "US",
    });

    // Registered again later, or removed: the widget asks for it each time.
    const later = () => false;
    storefront().setCartHook(later);
    expect(app.context!.cart!()).toBe(later);
    storefront().setCartHook(null);
    expect(app.context!.cart!()).toBeNull();
    app.stop();
    expect(slot.childElementCount).toBe(0);
    app = null;
  });

  test("reads its <script> tag: the API defaults to the script's own origin; data-api and data-target override", () => {
    const script = document.createElement("script");
    script.src = "https://search.example/widget/v1/widget.js";
    Object.assign(script.dataset, { storeId: "demo", searchKey: "pk_search_x", analyticsKey: "pk_analytics_x" });
    expect(readScriptSettings(script)).toEqual({
      api: "https://search.example",
      storeId: "demo",
      searchKey: "pk_search_x",
      analyticsKey: "pk_analytics_x",
    });
    script.dataset.api = "https://api.other.example/base";
    script.dataset.target = "results-here";
    expect(readScriptSettings(script)).toMatchObject({ api: "https://api.other.example/base", targetId: "results-here" });
    const warn = console.warn;
    console.warn = () => {};
    try {
      expect(readScriptSettings(document.createElement("script"))).toBeNull();
      expect(readScriptSettings(null)).toBeNull();
    } finally {
      console.warn = warn;
    }
  });

  test("on the results page: config fetched with the search key, results mounted in the target, typeahead on the input, SiteView and Search sent", async () => {
    const { input, target } = storePage("/search-results?q=kurta");
    app = await startWidget(settings);
    const req = recorded.config[0]!;
    expect(new URL(req.url).pathname).toBe("/1.9/widget-config");
    expect(req.headers.get("x-service-store-id")).toBe("demo");
    expect(req.headers.get("x-service-api-key")).toBe("pk_search_test");

    const results = target.querySelector("sfs-search-results")!;
    expect(target.childNodes).toHaveLength(1); // the store's placeholder is replaced
    expect(app.typeaheads).toHaveLength(1);
    expect(input.getAttribute("aria-controls")).toBe(app.typeaheads[0]!.id);
    const theme = document.adoptedStyleSheets.at(-1)!;
    expect([...theme.cssRules].map((r) => r.cssText.replace(/\s+/g, ""))).toEqual([":where(:root){--sfs-color-accent:#1f1f1f;}"]);
    await until(() => results.search?.status === "complete", "results");

    expect(app.tracker!.pending.map((e) => e.type)).toEqual(["SiteView", "Search"]);
    const siteView = app.tracker!.pending[0]!;
    expect(siteView.storeId).toBe("demo");
    expect(siteView.userId).toMatch(/^[0-9a-z]+$/);
    expect(siteView.sessionId).toMatch(/^[0-9a-z]+$/);
    expect(siteView.data).toEqual({
      location: "https://shop.example/search-results?q=kurta",
      referrer: "",
      userAgent: navigator.userAgent,
      region: "US", // navigator.language en-US in happy-dom
      language: "en-IN", // <html lang>
      currency: "INR",
    });
    expect(localStorage.getItem("sfs.uid")).toBe(siteView.userId);
    // The configuration is asked for this shopper: an experiment's variant may change the widget's settings.
    expect(new URL(req.url).searchParams.get("userId")).toBe(siteView.userId);

    // Sent as one text/plain beacon-style POST when flushed.
    await app.tracker!.flush();
    expect(recorded.tracking).toHaveLength(1);
    expect(recorded.tracking[0]!.body.map((e) => (e as { type: string }).type)).toEqual(["SiteView", "Search"]);
  });

  test("window.StorefrontSearch: track() adds the locale fields and refuses events the service would reject; search() updates the results in place", async () => {
    storePage("/search-results?q=kurta");
    app = await startWidget(settings);
    const results = app.results!;
    await until(() => results.search?.status === "complete", "results");
    const api = storefront();
    expect(typeof api.track).toBe("function");
    expect(typeof api.search).toBe("function");

    api.track("AddToCart", { addProductId: "kurta-1", qty: 1 });
    api.track("OrderComplete", { orderId: "o-1", products: [{ id: "kurta-1", price: 1299, qty: 1 }] });
    const warn = console.warn;
    const warnings: unknown[] = [];
    console.warn = (...a: unknown[]) => warnings.push(a);
    try {
      api.track("AddToCart", { qty: 1 });
      api.track("Checkout", {});
    } finally {
      console.warn = warn;
    }
    expect(warnings).toHaveLength(2);
    const pending = app.tracker!.pending.slice(2);
    expect(pending.map((e) => [e.type, e.data])).toEqual([
      ["AddToCart", { region: "US", language: "en-IN", currency: "INR", addProductId: "kurta-1", qty: 1 }],
      ["OrderComplete", { orderId: "o-1", products: [{ id: "kurta-1", price: 1299, qty: 1 }] }],
    ]);

    const before = history.length;
    api.search("saree");
    await settle(5);
    expect(location.search).toBe("?q=saree");
    expect(history.length).toBe(before + 1);
    await until(() => results.search?.resultState?.query === "saree", "new results");
    expect(recorded.search.at(-1)!.searchParams.get("query")).toBe("saree");
  });

  test("pre-production: searches with preprod=true, renders nothing and sends no Search of its own", async () => {
    server.use(http.get(api("widget-config"), () => HttpResponse.json({ ...widgetConfigResponse, preprod: true })));
    const { input, target } = storePage("/search-results?q=kurta");
    app = await startWidget(settings);
    await until(() => app!.preprodSearch?.status === "complete", "preprod search");
    expect(recorded.search.at(-1)!.searchParams.get("preprod")).toBe("true");
    expect(app.tracker!.pending.map((e) => e.type)).toEqual(["SiteView"]);
    expect(target.textContent).toBe("Loading…");
    expect(document.querySelector("sfs-search-results, sfs-typeahead")).toBeNull();
    expect(input.hasAttribute("role")).toBe(false);

    // The browser remembers the store is in pre-production: its next page sends no early search of its own.
    app.stop();
    recorded.search.length = 0;
    app = await startWidget(settings);
    await until(() => app!.preprodSearch?.status === "complete", "second preprod search");
    expect(recorded.search.map((u) => u.searchParams.get("preprod"))).toEqual(["true"]);
  });

  test("the first search is sent together with the configuration, and taken when the configuration asks the same", async () => {
    let searchedBeforeConfig = false;
    server.use(
      http.get(api("widget-config"), async () => {
        // Answers only once the search has been asked: sent one after the other, this would never finish.
        await until(() => recorded.search.length > 0, "the early search");
        searchedBeforeConfig = true;
        return HttpResponse.json(widgetConfigResponse);
      }),
    );
    storePage("/search-results?q=kurta");
    app = await startWidget(settings);
    await until(() => app!.results?.search?.status === "complete", "results");
    expect(searchedBeforeConfig).toBe(true);
    expect(recorded.search).toHaveLength(1);
    expect(app.results!.search!.result!.products.length).toBeGreaterThan(0);
  });

  test("an early search the configuration does not ask (another page size) is dropped and the configured one sent", async () => {
    server.use(http.get(api("widget-config"), () => HttpResponse.json({ ...widgetConfigResponse, pageSize: 12 })));
    storePage("/search-results?q=kurta");
    app = await startWidget(settings);
    await until(() => app!.results?.search?.status === "complete", "results");
    expect(recorded.search.at(-1)!.searchParams.get("pageSize")).toBe("12");
    expect(JSON.parse(localStorage.getItem("sfs.config.demo")!)).toEqual({
      searchPagePath: "/search-results",
      queryParam: "q",
      pageSize: 12,
      preprod: false,
    });
  });

  test("a configuration that cannot be loaded still shows results, with the defaults", async () => {
    server.use(http.get(api("widget-config"), () => HttpResponse.json({ message: "down", code: "internal" }, { status: 500 })));
    const { target } = storePage("/search-results?q=kurta");
    const warn = console.warn;
    console.warn = () => {};
    try {
      app = await startWidget(settings);
    } finally {
      console.warn = warn;
    }
    expect(app.config).toEqual(resolveConfig(null));
    const results = target.querySelector("sfs-search-results")!;
    await until(() => results.search?.status === "complete", "results with the defaults");
    expect(app.tracker!.pending.map((e) => e.type)).toEqual(["SiteView", "Search"]);
  });

  test("defaults fill what the configuration leaves out; texts fall back per locale", () => {
    const c = resolveConfig({ locale: "hi-IN", texts: { en: { results: "{count} items" }, hi: { filters: "फ़िल्टर" } }, pageSize: 500 });
    expect(c.targetId).toBe("product-search-results");
    expect(c.pageSize).toBe(24);
    expect(c.texts.results).toBe("{count} items");
    expect(c.texts.filters).toBe("फ़िल्टर");
    expect(c.texts.retry).toBe("Try again");
    expect(resolveConfig({ theme: { "--sfs-x": "red;}body{display:none", color: "red", "--sfs-ok": "1px" } }).theme).toEqual({
      "--sfs-ok": "1px",
    });
  });
});

describe("index.ts (the built entry)", () => {
  test("finds its script tag, starts once, and a second evaluation does nothing", async () => {
    storePage("/");
    const script = document.createElement("script");
    script.type = "text/x-not-run"; // happy-dom would try to download it
    script.setAttribute("src", "https://search.example/widget/v1/widget.js");
    Object.assign(script.dataset, { storeId: "demo", searchKey: "pk_search_test", analyticsKey: "pk_analytics_test" });
    document.head.append(script);
    try {
      await import("../src/index.ts");
      await until(() => recorded.config.length === 1 && !!document.querySelector("sfs-typeahead"), "start");
      expect(storefront().version).toMatch(/^\d+\.\d+\.\d+$/);
      // The same file evaluated again (Bun re-evaluates a specifier with another query string).
      const secondCopy: string = "../src/index.ts?second-copy";
      await import(secondCopy);
      await settle(20);
      expect(recorded.config).toHaveLength(1);
      expect(document.querySelectorAll("sfs-typeahead")).toHaveLength(1);
    } finally {
      script.remove();
    }
  });
});
