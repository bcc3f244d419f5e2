import "./setup.ts";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { http, HttpResponse } from "msw";
import "../src/components/complete-the-look/complete-the-look.ts";
import "../src/components/facets/facets.ts";
import "../src/components/pagination/pagination.ts";
import "../src/components/product-card/product-card.ts";
import "../src/components/search-results/search-results.ts";
import "../src/components/similar-products/similar-products.ts";
import "../src/components/sort/sort.ts";
import "../src/components/typeahead/typeahead.ts";
import type { Facet } from "@storefront-search/contract";
import { startWidget, type StorefrontSearchApi, type WidgetApp } from "../src/widget-app.ts";
import { product, searchResponse, widgetConfigResponse } from "./fixtures.ts";
import { api, FakeObserver, mockService, settle, until } from "./helpers.ts";
import { API_ORIGIN } from "./setup.ts";

/*
 * What designers are promised: every part a component renders and every --sfs-* property the code reads is in
 * widget/README.md, and every element that draws something has a part to style it by. The components are the
 * real ones, started by the head script on a store page, in each state a shopper can meet.
 */

const readme = await Bun.file(new URL("../README.md", import.meta.url)).text();

/**
 * Elements that draw nothing of their own: slots, list items (their list lays them out), a select's options (the
 * browser draws them), text only screen readers read, and plain text inside an element that has a part.
 */
const drawsNothing = (el: Element) =>
  el.localName === "slot" ||
  el.localName === "li" ||
  el.localName === "option" ||
  el.classList.contains("visually-hidden") ||
  (el.localName === "span" && el.parentElement?.hasAttribute("part") && !el.children.length);

/** Per component tag, the parts found and the elements without one, over every shadow root on the page. */
function survey(into: Map<string, { parts: Set<string>; unnamed: Set<string> }>) {
  const visit = (root: Document | ShadowRoot) => {
    for (const el of root.querySelectorAll("*")) {
      if (!el.localName.startsWith("sfs-") || !el.shadowRoot) continue;
      const entry = into.get(el.localName) ?? { parts: new Set(), unnamed: new Set() };
      into.set(el.localName, entry);
      for (const inner of el.shadowRoot.querySelectorAll("*")) {
        const part = inner.getAttribute("part");
        if (part) for (const p of part.split(/\s+/)) entry.parts.add(p);
        else if (!drawsNothing(inner) && !inner.localName.startsWith("sfs-"))
          entry.unnamed.add(
            `<${inner.localName}> in ${inner.parentElement?.getAttribute("part") ?? inner.parentElement?.localName ?? "the root"}`,
          );
      }
      visit(el.shadowRoot);
    }
  };
  visit(document);
}

/** The README's section of one element: from its heading to the next. */
function section(tag: string): string {
  const start = readme.indexOf(`### \`<${tag}>\``);
  if (start < 0) return "";
  const next = readme.indexOf("\n### ", start + 1);
  return readme.slice(start, next < 0 ? undefined : next);
}

const brands: Facet = {
  key: "designer",
  name: "Brand",
  shownValues: 3,
  values: Array.from({ length: 14 }, (_, i) => ({ key: `Brand ${i + 1}`, count: 20 - i })),
};
let mode: "results" | "empty" | "error" | "slow" = "results";
let release = () => {};
const { server } = mockService([
  http.get(api("search"), async ({ request }) => {
    if (new URL(request.url).searchParams.get("typeahead")) return HttpResponse.json(searchResponse({}, 2));
    if (mode === "error") return HttpResponse.json({ message: "down", code: "internal_error" }, { status: 500 });
    if (mode === "empty") return HttpResponse.json(searchResponse({ facets: [], spellSuggestions: ["kurta"] }, 0, 0));
    if (mode === "slow") await new Promise<void>((resolve) => (release = resolve));
    const answer = searchResponse();
    return HttpResponse.json({
      ...answer,
      facets: [brands, ...answer.facets!],
      fallback: true,
      query: "kurta",
      spellSuggestions: ["kurta blue"],
    });
  }),
  http.get(api("widget-config"), () => HttpResponse.json({ ...widgetConfigResponse, popularQueries: ["saree", "jeans"] })),
  http.get(api("similarity"), () =>
    HttpResponse.json({
      totalProductCount: 3,
      products: searchResponse().products.map((p) => ({ product: p })),
      facets: [],
      sourceProduct: { productId: "kurta-1", name: "Kurta" },
    }),
  ),
  http.get(api("ctl"), () =>
    HttpResponse.json({
      ctlProducts: [[product(2), product(3), product(4), product(5)]],
      sourceProduct: { ...product(1), customUserData: { badges: ["New"] } },
    }),
  ),
]);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => {
  server.close();
  // The page as the next test file expects it.
  document.body.replaceChildren();
  document.adoptedStyleSheets = [];
  delete window.StorefrontSearch;
  localStorage.clear();
});

const found = new Map<string, { parts: Set<string>; unnamed: Set<string> }>();

async function storePage(path: string): Promise<WidgetApp> {
  document.body.replaceChildren();
  history.replaceState(null, "", path);
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.type = "search";
  input.setAttribute("aria-label", "Search");
  form.append(input);
  const target = document.createElement("div");
  target.id = "product-search-results";
  const similar = document.createElement("div");
  similar.setAttribute("data-sfs-similar", "");
  similar.setAttribute("data-product-id", "kurta-1");
  const looks = document.createElement("div");
  looks.setAttribute("data-sfs-ctl", "");
  looks.setAttribute("data-product-id", "kurta-1");
  document.body.append(form, target, similar, looks);
  return startWidget({ api: API_ORIGIN, storeId: "demo", searchKey: "pk_search_test" });
}

const settled = async (app: WidgetApp) => {
  await until(() => app.results?.search?.status === "complete" || app.results?.search?.status === "error", "results");
  await settle(20);
};

describe("designers' documentation", () => {
  test("every state a shopper meets: each element that draws something has a part, and every part is in README.md", async () => {
    const restore = FakeObserver.install();
    try {
      // Loading: placeholders in the facet column and the grid.
      mode = "slow";
      let app = await storePage("/search-results?q=kurta&facets=designer%3ABrand%2014");
      await settle(20);
      survey(found);
      release();
      await settled(app);
      // Results, with a selected value, the filter box and a long list shown whole; the typeahead, carousels and popup.
      const facets = app.results!.shadowRoot!.querySelector("sfs-facets")!;
      facets.shadowRoot!.querySelector<HTMLButtonElement>("[part~=show-more]")!.click();
      (window.StorefrontSearch as StorefrontSearchApi).setCartHook(() => true);
      const input = document.querySelector("input")!;
      input.focus();
      input.value = "kur";
      input.dispatchEvent(new Event("input"));
      await until(() => app.typeaheads[0]!.controller!.answered === "kur", "typeahead");
      await until(() => app.looks[0]!.items.length > 0 && app.carousels[0]!.items.length > 0, "carousels");
      await settle(20);
      app.looks[0]!.shadowRoot!.querySelector<HTMLButtonElement>("[part~=view-look]")!.click();
      await settle(20);
      survey(found);
      // Narrow: the drawer.
      app.results!.layout.measure(480);
      await settle(20);
      survey(found);
      app.stop();
      // Nothing found; then search down.
      for (const m of ["empty", "error"] as const) {
        mode = m;
        app = await storePage("/search-results?q=kurtq&facets=color%3ARust");
        await settled(app);
        survey(found);
        app.stop();
      }
      // The typeahead's status line.
      mode = "results";
      app = await storePage("/");
      const box = document.querySelector("input")!;
      box.focus();
      box.value = "zz";
      box.dispatchEvent(new Event("input"));
      await settle(5);
      survey(found);
      app.stop();
    } finally {
      restore();
    }

    const tags = [...found.keys()].sort();
    expect(tags).toEqual([
      "sfs-complete-the-look",
      "sfs-facets",
      "sfs-pagination",
      "sfs-product-card",
      "sfs-search-results",
      "sfs-similar-products",
      "sfs-sort",
      "sfs-typeahead",
      "sfs-typeahead-option",
    ]);
    for (const [tag, { parts, unnamed }] of found) {
      expect({ tag, unnamed: [...unnamed] }).toEqual({ tag, unnamed: [] });
      const doc = section(tag);
      expect({ tag, undocumented: [...parts].filter((p) => !doc.includes(`\`${p}\``)) }).toEqual({ tag, undocumented: [] });
    }
  });

  test("every --sfs-* property the code reads is in README.md", async () => {
    const used = new Set<string>();
    for await (const file of new Bun.Glob("**/*.ts").scan(new URL("../src", import.meta.url).pathname)) {
      const text = await Bun.file(new URL(`../src/${file}`, import.meta.url)).text();
      for (const m of text.matchAll(/--sfs-[a-z0-9-]+/g)) used.add(m[0]);
    }
    expect(used.size).toBeGreaterThan(50);
    expect([...used].filter((p) => !readme.includes(`\`${p}\``)).sort()).toEqual([]);
  });
});
