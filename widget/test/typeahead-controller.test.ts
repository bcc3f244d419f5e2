import "./setup.ts";
import { describe, expect, test } from "bun:test";
import type { SearchResponse, SuggestionsResponse } from "@storefront-search/contract";
import { HeadlessHost } from "../src/core/headless-host.ts";
import { TypeaheadController, type TypeaheadOption } from "../src/core/typeahead-controller.ts";
import { searchResponse, suggestionsResponse } from "./fixtures.ts";
import { ManualScheduler, settle } from "./helpers.ts";

function setup() {
  const scheduler = new ManualScheduler();
  const lookups: { query: string; signal: AbortSignal; resolve(): void }[] = [];
  const submitted: string[] = [];
  const selected: [TypeaheadOption, string][] = [];
  const events: [string, Record<string, unknown>][] = [];
  const host = new HeadlessHost();
  const c = new TypeaheadController(host, {
    suggestions: (query, limit, signal) =>
      new Promise<SuggestionsResponse>((resolve) => {
        expect(limit).toBe(6);
        lookups.push({ query, signal, resolve: () => resolve({ ...suggestionsResponse, query }) });
      }),
    products: (query, limit) => {
      expect(limit).toBe(4);
      return Promise.resolve<SearchResponse>(searchResponse({ query }, 2));
    },
    onSubmit: (q) => submitted.push(q),
    onSelect: (o, q) => selected.push([o, q]),
    track: (type, data) => events.push([type, data as Record<string, unknown>]),
    locale: { region: "IN", language: "en", currency: "INR" },
    scheduler,
  });
  const input = Object.assign(new EventTarget(), { value: "" });
  c.attach(input);
  host.connect();
  const type = (value: string) => {
    input.value = value;
    input.dispatchEvent(new Event("input"));
  };
  const key = (k: string) => {
    const event = {
      key: k,
      defaultPrevented: false,
      altKey: false,
      isComposing: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    c.handleKeydown(event);
    return event.defaultPrevented;
  };
  return { c, host, scheduler, lookups, submitted, selected, events, type, key, input };
}

describe("TypeaheadController", () => {
  test("keystrokes are debounced (150 ms): one lookup for the last text", async () => {
    const t = setup();
    t.type("k");
    t.scheduler.advance(100);
    t.type("ku");
    t.scheduler.advance(100);
    t.type("kur");
    t.scheduler.advance(149);
    expect(t.lookups).toHaveLength(0);
    t.scheduler.advance(1);
    expect(t.lookups.map((l) => l.query)).toEqual(["kur"]);
    t.lookups[0]!.resolve();
    await settle();
    expect(t.c.open).toBe(true);
    expect(t.c.options.map((o) => `${o.kind}:${o.label}`)).toEqual([
      "suggestion:kurta",
      "suggestion:kurta set",
      "designer:Kurtas & Co",
      "product:Cotton Kurta 1",
      "product:Cotton Kurta 2",
    ]);
  });

  test("a newer lookup aborts the older one, whose late answer is never shown", async () => {
    const t = setup();
    t.type("ku");
    t.scheduler.advance(150);
    t.type("kurta");
    t.scheduler.advance(150);
    expect(t.lookups.map((l) => [l.query, l.signal.aborted])).toEqual([
      ["ku", true],
      ["kurta", false],
    ]);
    t.lookups[0]!.resolve();
    await settle();
    expect([t.c.open, t.c.loading, t.c.answered]).toEqual([true, true, ""]); // open, searching: not the late answer
    t.lookups[1]!.resolve();
    await settle();
    expect(t.c.answered).toBe("kurta");
    // Clearing the input closes at once and cancels what is pending.
    t.type("kurtas");
    t.type("");
    t.scheduler.advance(500);
    expect(t.lookups).toHaveLength(2);
    expect(t.c.open).toBe(false);
  });

  test("keyboard: ArrowDown/ArrowUp wrap, Enter selects the active option, Escape closes, Enter alone submits", async () => {
    const t = setup();
    t.type("kur");
    t.scheduler.advance(150);
    t.lookups[0]!.resolve();
    await settle();
    expect(t.key("ArrowDown")).toBe(true);
    expect(t.c.activeIndex).toBe(0);
    t.key("ArrowUp");
    expect(t.c.activeIndex).toBe(4); // wraps to the last
    t.key("ArrowDown");
    expect(t.c.activeIndex).toBe(0);
    t.key("ArrowDown");
    expect(t.key("Enter")).toBe(true);
    expect(t.selected.map(([o, q]) => [o.label, q])).toEqual([["kurta set", "kur"]]);
    expect(t.c.open).toBe(false);

    t.key("ArrowDown"); // reopens
    expect(t.c.open).toBe(true);
    expect(t.key("Escape")).toBe(true);
    expect(t.c.open).toBe(false);
    expect(t.c.activeIndex).toBe(-1);
    expect(t.key("Escape")).toBe(false); // closed: the page may use Escape

    t.input.value = "kurta set blue";
    expect(t.key("Enter")).toBe(true);
    expect(t.submitted).toEqual(["kurta set blue"]);
  });

  test("choosing a product reports ProductClick with the PageChange fields", async () => {
    const t = setup();
    t.type("kur");
    t.scheduler.advance(150);
    t.lookups[0]!.resolve();
    await settle();
    t.c.select(4);
    expect(t.selected[0]![0].kind).toBe("product");
    expect(t.events).toEqual([
      [
        "ProductClick",
        {
          query: "kur",
          productIds: ["kurta-1", "kurta-2"],
          facets: [],
          pageSize: 4,
          sortBy: "relevance",
          page: 1,
          clickProductId: "kurta-2",
          region: "IN",
          language: "en",
          currency: "INR",
        },
      ],
    ]);
  });
});
