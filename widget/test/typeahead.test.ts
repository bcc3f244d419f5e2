import "./setup.ts";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import "../src/components/typeahead/typeahead.ts";
import type { SfsTypeahead } from "../src/components/typeahead/typeahead.component.ts";
import { http, HttpResponse } from "msw";
import { api, makeContext, mockService, until } from "./helpers.ts";
import { createApiClient } from "../src/api/client.ts";
import { API_ORIGIN } from "./setup.ts";

const { server, recorded } = mockService();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
afterEach(() => {
  server.resetHandlers();
  document.body.replaceChildren();
  recorded.search.length = 0;
  recorded.suggestions.length = 0;
});

async function mount() {
  const form = document.createElement("form");
  const input = document.createElement("input");
  input.type = "search";
  input.setAttribute("aria-label", "Search the shop");
  form.append(input);
  document.body.append(form);
  const { context, calls } = makeContext();
  const el = document.createElement("sfs-typeahead");
  el.context = context;
  el.input = input;
  document.body.append(el);
  await el.updateComplete;
  const type = async (value: string) => {
    input.focus();
    input.value = value;
    input.dispatchEvent(new Event("input"));
    await until(() => el.controller!.answered === value.trim(), "suggestions");
    await el.updateComplete;
  };
  const key = async (k: string) => {
    const event = new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true });
    input.dispatchEvent(event);
    await el.updateComplete;
    return event.defaultPrevented;
  };
  return { el, input, calls, type, key };
}
const options = (el: SfsTypeahead) => [...el.querySelectorAll("sfs-typeahead-option")];

describe("<sfs-typeahead>", () => {
  test("the empty box, focused, offers the shopper's recent searches and the store's popular ones; choosing one searches it", async () => {
    const form = document.createElement("form");
    const input = document.createElement("input");
    form.append(input);
    document.body.append(form);
    const { context, calls } = makeContext({ popularQueries: ["sarees", "Kurta sets", "jeans"] });
    context.recentQueries = () => ["jeans", "red dress"];
    const el = document.createElement("sfs-typeahead");
    el.context = context;
    el.input = input;
    document.body.append(el);
    await el.updateComplete;
    input.focus();
    input.dispatchEvent(new Event("focus"));
    await el.updateComplete;
    expect(el.hidden).toBe(false);
    expect(options(el).map((o) => [o.getAttribute("slot"), (o as unknown as { option: { label: string } }).option.label])).toEqual([
      ["recent", "jeans"],
      ["recent", "red dress"],
      ["popular", "sarees"],
      ["popular", "Kurta sets"],
    ]);
    expect([...el.shadowRoot!.querySelectorAll("[part~=group-label]")].map((g) => g.textContent)).toEqual([
      "Recent searches",
      "Popular searches",
    ]);
    expect(recorded.suggestions).toHaveLength(0);
    (options(el)[2] as HTMLElement).click();
    expect(calls.showResults).toEqual(["sarees"]);
  });

  test("accessibility: the input is a combobox controlling the listbox; ArrowDown moves aria-activedescendant; Escape closes", async () => {
    const { el, input, type, key } = await mount();
    expect(input.getAttribute("role")).toBe("combobox");
    expect(input.getAttribute("aria-autocomplete")).toBe("list");
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(input.getAttribute("aria-controls")).toBe(el.id);
    expect(document.getElementById(el.id)).toBe(el); // the reference resolves in the input's own tree
    expect(el.hidden).toBe(true);

    await type("kur");
    expect(el.getAttribute("role")).toBe("listbox");
    expect(el.getAttribute("aria-label")).toBe("Suggestions");
    expect(input.getAttribute("aria-expanded")).toBe("true");
    expect(el.hidden).toBe(false);
    expect(input.hasAttribute("aria-activedescendant")).toBe(false);

    expect(await key("ArrowDown")).toBe(true);
    const first = options(el)[0]!;
    expect(input.getAttribute("aria-activedescendant")).toBe(first.id);
    expect(document.getElementById(first.id)).toBe(first);
    expect(first.getAttribute("role")).toBe("option");
    expect(first.getAttribute("aria-selected")).toBe("true");
    await key("ArrowDown");
    expect(input.getAttribute("aria-activedescendant")).toBe(options(el)[1]!.id);
    expect(first.getAttribute("aria-selected")).toBe("false");

    expect(await key("Escape")).toBe(true);
    expect(input.getAttribute("aria-expanded")).toBe("false");
    expect(input.hasAttribute("aria-activedescendant")).toBe(false);
    expect(el.hidden).toBe(true);
  });

  test("groups (suggestions, brands, products) are labelled groups in the popup, options slotted into them", async () => {
    const { el, type } = await mount();
    await type("kur");
    const groups = [...el.shadowRoot!.querySelectorAll("[role=group]")];
    expect(groups.map((g) => g.getAttribute("aria-label"))).toEqual(["Suggestions", "Brands", "Products"]);
    expect(groups.map((g) => g.querySelector("slot")!.getAttribute("name"))).toEqual(["suggestions", "designers", "products"]);
    expect(options(el).map((o) => `${o.getAttribute("slot")}:${o.option!.label}`)).toEqual([
      "suggestions:kurta",
      "suggestions:kurta set",
      "designers:Kurtas & Co",
      "products:Cotton Kurta 1",
      "products:Cotton Kurta 2",
      "products:Cotton Kurta 3",
    ]);
    const option = options(el)[0]!;
    await option.updateComplete;
    expect(option.shadowRoot!.querySelector("[part~=match]")!.textContent).toBe("kur");
    // One suggestions request (limit 6) and one product search (pageSize 4) per settled keystroke.
    expect(Object.fromEntries(recorded.suggestions[0]!.searchParams)).toEqual({ query: "kur", limit: "6" });
    expect(recorded.search[0]!.searchParams.get("pageSize")).toBe("4");
    expect(recorded.search[0]!.searchParams.get("query")).toBe("kur");
    expect(recorded.search[0]!.searchParams.get("spellEnabled")).toBe("false");
    // A preview while typing is not a search: the server must not learn "kur" as a past query.
    expect(recorded.search[0]!.searchParams.get("typeahead")).toBe("true");
    expect(recorded.search[0]!.searchParams.has("returnFacets")).toBe(false);
  });

  test("Enter without an active option goes to the results page; Enter on a suggestion searches it", async () => {
    const { el, input, calls, type, key } = await mount();
    await type("kurta set blue");
    expect(await key("Enter")).toBe(true); // the store's form does not submit
    expect(calls.showResults).toEqual(["kurta set blue"]);

    await type("kur");
    await key("ArrowDown");
    await key("ArrowDown");
    const selected: unknown[] = [];
    el.addEventListener("sfs-suggestion-select", (e) => selected.push(e.detail));
    await key("Enter");
    expect(selected).toEqual([{ kind: "suggestion", label: "kurta set", query: "kur" }]);
    expect(calls.showResults).toEqual(["kurta set blue", "kurta set"]);
    expect(input.value).toBe("kurta set");
  });

  test("Enter on a query a merchandising rule redirects goes to the rule's page; a javascript: address is not followed", async () => {
    const { calls, type, key } = await mount();
    server.use(
      http.get(api("search"), ({ request }) => {
        const q = new URL(request.url).searchParams.get("query");
        const redirect = q === "gift card" ? "/gift-cards" : q === "evil" ? "javascript:alert(1)" : undefined;
        return HttpResponse.json({ totalProductCount: 0, products: [], ...(redirect ? { redirect } : {}) });
      }),
    );
    await type("gift card");
    expect(await key("Enter")).toBe(true);
    expect(calls.openUrl).toEqual([new URL("/gift-cards", location.href).href]);
    expect(calls.showResults).toEqual([]);
    await type("evil");
    await key("Enter");
    expect(calls.openUrl).toHaveLength(1);
    expect(calls.showResults).toEqual([]);
    await type("kurta");
    await key("Enter");
    expect(calls.showResults).toEqual(["kurta"]);
  });

  test("clicking a product opens its page and reports ProductClick; the input keeps focus while clicking", async () => {
    const { el, calls, type } = await mount();
    await type("kur");
    const product = options(el).find((o) => o.option?.kind === "product")!;
    const down = new MouseEvent("mousedown", { bubbles: true, cancelable: true });
    product.dispatchEvent(down);
    expect(down.defaultPrevented).toBe(true);
    product.click();
    expect(calls.openUrl).toEqual(["https://shop.example/products/kurta-1?color=indigo"]);
    expect(calls.tracked[0]![0]).toBe("ProductClick");
    expect(calls.tracked[0]![1].clickProductId).toBe("kurta-1");
  });

  test("removed from the page, it gives the input back", async () => {
    const { el, input } = await mount();
    el.remove();
    expect(input.hasAttribute("role")).toBe(false);
    expect(input.hasAttribute("aria-controls")).toBe(false);
  });

  test("it says it is searching before the first answer, and says so when nothing matches (a status, not a listbox)", async () => {
    server.use(
      http.get(api("suggestions"), () => HttpResponse.json({ suggestions: [], designers: [] })),
      http.get(api("search"), () => HttpResponse.json({ totalProductCount: 0, products: [] })),
    );
    const { el, input } = await mount();
    input.focus();
    input.value = "zzq";
    input.dispatchEvent(new Event("input"));
    await el.updateComplete;
    const status = () => el.shadowRoot!.querySelector("[part~=status]");
    expect(el.hidden).toBe(false);
    expect(status()!.getAttribute("role")).toBe("status");
    expect(status()!.textContent).toBe("Searching…");
    expect(el.hasAttribute("role")).toBe(false);
    await until(() => el.controller!.answered === "zzq", "the empty answer");
    await el.updateComplete;
    expect(status()!.textContent).toBe("No suggestions for “zzq”");
    expect(input.getAttribute("aria-expanded")).toBe("false"); // no listbox to expand
    server.resetHandlers();
  });

  test("suggestions are asked for the shopper, so an experiment covering the typed text can put them in its variant", async () => {
    const client = createApiClient({
      api: API_ORIGIN,
      storeId: "demo",
      searchKey: "pk_search_test",
      shopper: () => ({ userId: "u1", sessionId: "s1" }),
    });
    await client.suggestions("kur", 6);
    expect(Object.fromEntries(recorded.suggestions[0]!.searchParams)).toEqual({ query: "kur", limit: "6", userId: "u1", sessionId: "s1" });
  });
});
