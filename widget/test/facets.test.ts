import "./setup.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../src/components/facets/facets.ts";
import { type Facet, DEFAULT_TEXTS, type FacetSelection } from "@storefront-search/contract";
import type { SfsFacets } from "../src/components/facets/facets.component.ts";
import { createPriceFormat } from "../src/format/price-format.ts";
import { searchResponse } from "./fixtures.ts";

async function facets(selected: FacetSelection[] = [], list: Facet[] = searchResponse().facets!): Promise<SfsFacets> {
  const el = document.createElement("sfs-facets");
  el.facets = list;
  el.selected = selected;
  el.texts = DEFAULT_TEXTS;
  el.priceFormat = createPriceFormat("en-IN", { code: "INR" });
  document.body.append(el);
  await el.updateComplete;
  return el;
}
const $$ = <T extends HTMLElement = HTMLElement>(el: SfsFacets, sel: string) => [...el.shadowRoot!.querySelectorAll<T>(sel)];
const labelOf = (input: HTMLElement) => input.closest("label")?.textContent?.replace(/\s+/g, " ").trim();

afterEach(() => document.body.replaceChildren());

describe("<sfs-facets>", () => {
  test("accessibility: a group labelled by its heading per facet, whose button opens it; every checkbox has a label; chip buttons are named", async () => {
    const el = await facets([{ key: "designer", value: "Marks, Spencer & Co" }]);
    const groups = $$(el, "[part~=facet][role=group]");
    expect(groups.map((g) => el.shadowRoot!.getElementById(g.getAttribute("aria-labelledby")!)!.tagName)).toEqual(["H3", "H3", "H3"]);
    expect($$(el, "[part~=facet-toggle] > span:first-child").map((l) => l.textContent)).toEqual(["Designer", "Colour", "Price"]);
    for (const toggle of $$(el, "[part~=facet-toggle]")) {
      expect(el.shadowRoot!.getElementById(toggle.getAttribute("aria-controls")!)?.getAttribute("part")).toBe("facet-body");
    }
    const boxes = $$<HTMLInputElement>(el, "input[type=checkbox]");
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) expect(labelOf(box)).toBeTruthy();
    expect(labelOf(boxes[0]!)).toBe("Fabindia (30)");
    const remove = $$(el, "button[part~=chip-remove]");
    expect(remove.map((b) => b.getAttribute("aria-label"))).toEqual(["Remove filter Marks, Spencer & Co"]);
    expect($$(el, "[part~=selected]")[0]!.getAttribute("aria-label")).toBe("Selected filters");
  });

  test("checkboxes reflect the selection and emit sfs-facet-change", async () => {
    const el = await facets([{ key: "designer", value: "Marks, Spencer & Co" }]);
    const boxes = $$<HTMLInputElement>(el, "[part~=facet][data-key=designer] input");
    expect(boxes.map((b) => b.checked)).toEqual([false, true]);
    const changes: unknown[] = [];
    el.addEventListener("sfs-facet-change", (e) => changes.push(e.detail));
    boxes[0]!.click();
    boxes[1]!.click();
    expect(changes).toEqual([
      { key: "designer", value: "Fabindia", selected: true },
      { key: "designer", value: "Marks, Spencer & Co", selected: false },
    ]);
  });

  test("an exclusion a shared link carries (!designer:X) is neither ticked nor a chip", async () => {
    const el = await facets([{ key: "designer", value: "Marks, Spencer & Co", exclude: true }]);
    expect($$<HTMLInputElement>(el, "[part~=facet][data-key=designer] input").map((b) => b.checked)).toEqual([false, false]);
    expect($$(el, "[part~=chip]")).toEqual([]);
  });

  test("eight values, then 'show more' (aria-expanded) shows the rest", async () => {
    const el = await facets();
    const colorBoxes = () => $$(el, "[part~=facet][data-key=color] input");
    expect(colorBoxes()).toHaveLength(8);
    const more = $$(el, "[part~=facet][data-key=color] button[part~=show-more]")[0]!;
    expect(more.getAttribute("aria-expanded")).toBe("false");
    expect(more.textContent!.trim()).toBe("Show more");
    more.click();
    await el.updateComplete;
    expect(colorBoxes()).toHaveLength(10);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    expect($$(el, "[part~=facet][data-key=designer] button[part~=show-more]")).toHaveLength(0);
  });

  test("price ranges are checkboxes labelled in the store's currency; selections send lb-ub", async () => {
    const el = await facets([{ key: "price", value: "1000-2000" }]);
    const boxes = $$<HTMLInputElement>(el, "[part~=facet][data-key=price] input");
    expect(boxes.map(labelOf)).toEqual(["₹0 – ₹1,000 (12)", "₹1,000 – ₹2,000 (40)"]);
    expect(boxes[1]!.checked).toBe(true);
    expect($$(el, "[part~=chip-label]")[0]!.textContent).toBe("Price: ₹1,000 – ₹2,000");
    const changes: unknown[] = [];
    el.addEventListener("sfs-facet-change", (e) => changes.push(e.detail));
    boxes[0]!.click();
    expect(changes).toEqual([{ key: "price", value: "0-1000", selected: true }]);
  });

  test("chips remove one value; 'clear all' emits sfs-facets-clear", async () => {
    const el = await facets([
      { key: "color", value: "Rust" },
      { key: "designer", value: "Fabindia" },
    ]);
    const events: string[] = [];
    el.addEventListener("sfs-facet-change", (e) => events.push(`remove ${e.detail.key}:${e.detail.value}`));
    el.addEventListener("sfs-facets-clear", () => events.push("clear"));
    $$(el, "button[part~=chip-remove]")[0]!.click();
    $$(el, "button[part~=clear-all]")[0]!.click();
    expect(events).toEqual(["remove color:Rust", "clear"]);
  });

  test("the first `open` groups are open, the others collapsed unless a value of theirs is selected; a heading's button flips its group", async () => {
    const el = document.createElement("sfs-facets");
    el.open = 1;
    el.facets = searchResponse().facets!;
    el.selected = [{ key: "price", value: "0-1000" }];
    document.body.append(el);
    await el.updateComplete;
    const expanded = () => $$(el, "[part~=facet-toggle]").map((b) => b.getAttribute("aria-expanded"));
    const hidden = () => $$(el, "[part~=facet-body]").map((b) => b.hidden);
    expect(expanded()).toEqual(["true", "false", "true"]); // designer (first), color (collapsed), price (selected)
    expect(hidden()).toEqual([false, true, false]);
    expect($$(el, "[part~=facet][data-key=price] [part~=facet-selected-count]")[0]!.textContent).toBe("1");
    $$(el, "[part~=facet-toggle]")[1]!.click();
    $$(el, "[part~=facet-toggle]")[0]!.click();
    await el.updateComplete;
    expect(expanded()).toEqual(["false", "true", "true"]);
  });

  test("a selected value past the first `shownValues` stays in sight", async () => {
    const el = await facets([{ key: "color", value: "Maroon" }]);
    const labels = $$(el, "[part~=facet][data-key=color] [part~=value-label]").map((l) => l.textContent);
    expect(labels).toHaveLength(9);
    expect(labels.at(-1)).toBe("Maroon");
  });

  test("a long list gets a filter box (over all its values) and, shown whole, a bounded scroll", async () => {
    const brands: Facet = {
      key: "designer",
      name: "Brand",
      shownValues: 5,
      values: Array.from({ length: 40 }, (_, i) => ({ key: `Brand ${i + 1}`, count: 40 - i })),
    };
    const el = await facets([], [brands]);
    const labels = () => $$(el, "[part~=value-label]").map((l) => l.textContent);
    expect(labels()).toHaveLength(5);
    const box = $$<HTMLInputElement>(el, "input[part~=filter]")[0]!;
    expect(box.getAttribute("aria-label")).toBe("Filter Brand");
    box.value = "brand 3";
    box.dispatchEvent(new Event("input"));
    await el.updateComplete;
    expect(labels()).toEqual(["Brand 3", ...Array.from({ length: 10 }, (_, i) => `Brand ${30 + i}`)]);
    expect($$(el, "[part~=values]")[0]!.classList.contains("all")).toBe(true); // bounded by --sfs-facet-values-max-height
    box.value = "zzz";
    box.dispatchEvent(new Event("input"));
    await el.updateComplete;
    expect(labels()).toEqual([]);
    expect($$(el, "[part~=no-values]")[0]!.textContent).toBe("No match");
    // Short lists have no box.
    const short = await facets();
    expect($$(short, "input[part~=filter]")).toHaveLength(0);
  });
});
