import "./setup.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../src/components/facets/facets.ts";
import type { SfsFacets } from "../src/components/facets/facets.component.ts";
import { DEFAULT_TEXTS } from "../src/config/widget-config.ts";
import { createPriceFormat } from "../src/format/price-format.ts";
import type { FacetSelection } from "../src/state/facet-param.ts";
import { searchResponse } from "./fixtures.ts";

async function facets(selected: FacetSelection[] = []): Promise<SfsFacets> {
  const el = document.createElement("sfs-facets");
  el.facets = searchResponse().facets!;
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
  test("accessibility: a fieldset with a legend per facet; every checkbox has a label; chip buttons are named", async () => {
    const el = await facets([{ key: "designer", value: "Marks, Spencer & Co" }]);
    const legends = $$(el, "fieldset[part~=facet] > legend").map((l) => l.textContent);
    expect(legends).toEqual(["Designer", "Colour", "Price"]);
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
    const boxes = $$<HTMLInputElement>(el, "fieldset[data-key=designer] input");
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

  test("eight values, then 'show more' (aria-expanded) shows the rest", async () => {
    const el = await facets();
    const colorBoxes = () => $$(el, "fieldset[data-key=color] input");
    expect(colorBoxes()).toHaveLength(8);
    const more = $$(el, "fieldset[data-key=color] button[part~=show-more]")[0]!;
    expect(more.getAttribute("aria-expanded")).toBe("false");
    expect(more.textContent!.trim()).toBe("Show more");
    more.click();
    await el.updateComplete;
    expect(colorBoxes()).toHaveLength(10);
    expect(more.getAttribute("aria-expanded")).toBe("true");
    expect($$(el, "fieldset[data-key=designer] button[part~=show-more]")).toHaveLength(0);
  });

  test("price ranges are checkboxes labelled in the store's currency; selections send lb-ub", async () => {
    const el = await facets([{ key: "price", value: "1000-2000" }]);
    const boxes = $$<HTMLInputElement>(el, "fieldset[data-key=price] input");
    expect(boxes.map(labelOf)).toEqual(["₹0 – ₹1,000 (12)", "₹1,000 – ₹2,000 (40)"]);
    expect(boxes[1]!.checked).toBe(true);
    expect($$(el, "[part~=chip] span")[0]!.textContent).toBe("Price: ₹1,000 – ₹2,000");
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
});
