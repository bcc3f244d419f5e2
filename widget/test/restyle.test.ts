import "./setup.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../src/components/facets/facets.ts";
import "../src/components/pagination/pagination.ts";
import "../src/components/product-card/product-card.ts";
import "../src/components/search-results/search-results.ts";
import "../src/components/sort/sort.ts";
import "../src/components/typeahead/typeahead.ts";
import { SfsFacets } from "../src/components/facets/facets.component.ts";
import { SfsPagination } from "../src/components/pagination/pagination.component.ts";
import { SfsProductCard } from "../src/components/product-card/product-card.component.ts";
import { SfsSearchResults } from "../src/components/search-results/search-results.component.ts";
import { define } from "../src/components/shared/define.ts";
import { CARD_PARTS, FACETS_PARTS, PAGINATION_PARTS, SORT_PARTS } from "../src/components/shared/export-parts.ts";
import { SfsSort } from "../src/components/sort/sort.component.ts";
import { SfsTypeaheadOption } from "../src/components/typeahead/typeahead-option.component.ts";
import { SfsTypeahead } from "../src/components/typeahead/typeahead.component.ts";
import { DEFAULT_TEXTS } from "@storefront-search/contract";
import { themeStyleText } from "../src/config/resolve-config.ts";

afterEach(() => {
  document.body.replaceChildren();
  document.head.querySelectorAll("style[data-test]").forEach((s) => s.remove());
});

function addStyle(text: string) {
  const style = document.createElement("style");
  style.dataset.test = "";
  style.textContent = text;
  document.head.append(style);
}

async function pagination() {
  const el = document.createElement("sfs-pagination");
  el.page = 1;
  el.pageCount = 3;
  el.texts = DEFAULT_TEXTS;
  document.body.append(el);
  await el.updateComplete;
  return el;
}

const exported: Record<string, readonly string[]> = {
  SfsProductCard: CARD_PARTS,
  SfsFacets: FACETS_PARTS,
  SfsSort: SORT_PARTS,
  SfsPagination: PAGINATION_PARTS,
};
const components = [SfsSearchResults, SfsFacets, SfsSort, SfsPagination, SfsProductCard, SfsTypeahead, SfsTypeaheadOption];
const cssOf = (c: { styles?: unknown }) => ([c.styles].flat(Infinity) as { cssText: string }[]).map((s) => s.cssText).join("\n");

describe("restyling from the store's CSS", () => {
  test("--sfs-color-accent set on the host changes the computed style inside the shadow root", async () => {
    const el = await pagination();
    const current = el.shadowRoot!.querySelector<HTMLElement>("[part~=current]")!;
    expect(getComputedStyle(current).backgroundColor).toBe("#1f1f1f"); // the fallback
    el.style.setProperty("--sfs-color-accent", "rgb(200, 0, 100)");
    expect(getComputedStyle(current).backgroundColor).toBe("rgb(200, 0, 100)");
    // From a stylesheet too, as a store's theme (or the service's :where(:root) theme) sets it.
    el.style.removeProperty("--sfs-color-accent");
    addStyle(themeStyleText({ "--sfs-color-accent": "rgb(1, 2, 3)" }));
    expect(getComputedStyle(current).backgroundColor).toBe("rgb(1, 2, 3)");
  });

  test("::part rules: every documented part exists in the rendered shadow DOM (happy-dom does not apply ::part)", async () => {
    const el = await pagination();
    addStyle("sfs-pagination::part(current) { border-radius: 50px; }");
    const current = el.shadowRoot!.querySelector<HTMLElement>("[part~=current]")!;
    // happy-dom ignores ::part() selectors (checked: the rule does not apply); Chromium e2e checks the real thing.
    expect(getComputedStyle(current).borderRadius).not.toBe("50px");
    for (const part of ["base", "list", "button", "previous", "next", "page", "current"]) {
      expect(el.shadowRoot!.querySelector(`[part~="${part}"]`)).not.toBeNull();
    }
  });

  test("every @csspart in a class's JSDoc is used by its template, and styles use only --sfs-* custom properties with fallbacks", async () => {
    const dir = new URL("../src/components/", import.meta.url);
    const files: Record<string, string> = {
      SfsSearchResults: "search-results/search-results.component.ts",
      SfsFacets: "facets/facets.component.ts",
      SfsSort: "sort/sort.component.ts",
      SfsPagination: "pagination/pagination.component.ts",
      SfsProductCard: "product-card/product-card.component.ts",
      SfsTypeahead: "typeahead/typeahead.component.ts",
      SfsTypeaheadOption: "typeahead/typeahead-option.component.ts",
    };
    for (const c of components) {
      const source = await Bun.file(new URL(files[c.name]!, dir)).text();
      const documented = new Set([...source.matchAll(/@csspart ([\w-]+)/g)].map((m) => m[1]!));
      // Part names the template renders: part="a b", or the string literals of part=${cond ? "a b" : "a"}.
      const rendered = new Set<string>();
      for (const m of source.matchAll(/\spart=(?:"([^"]*)"|\$\{([^}]*)\})/g)) {
        const literals = m[1] !== undefined ? [m[1]] : [...m[2]!.matchAll(/"([^"]*)"/g)].map((l) => l[1]!);
        for (const l of literals) for (const name of l.split(/\s+/).filter(Boolean)) rendered.add(name);
      }
      expect({ component: c.name, parts: [...rendered].sort() }).toEqual({ component: c.name, parts: [...documented].sort() });
      const forwarded = exported[c.name];
      if (forwarded) expect([...forwarded].sort()).toEqual([...documented].sort()); // <sfs-search-results> forwards them all
      const css = cssOf(c);
      expect(css).toContain("var(--sfs-");
      for (const m of css.matchAll(/var\((--[\w-]+)(,?)/g)) {
        expect(m[1]!.startsWith("--sfs-")).toBe(true);
        expect(m[2]).toBe(","); // every token has a fallback
      }
    }
  });

  test("a second registration of a tag (a second copy of the script) is harmless", () => {
    expect(() => define("sfs-facets", class extends SfsFacets {})).not.toThrow();
    expect(customElements.get("sfs-facets")).toBe(SfsFacets);
  });
});
