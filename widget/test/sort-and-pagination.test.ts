import "./setup.ts";
import { afterEach, describe, expect, test } from "bun:test";
import "../src/components/pagination/pagination.ts";
import "../src/components/sort/sort.ts";
import { pageWindow } from "../src/components/pagination/pagination.component.ts";
import { DEFAULT_CONFIG, DEFAULT_TEXTS } from "@storefront-search/contract";

afterEach(() => document.body.replaceChildren());

describe("<sfs-sort>", () => {
  test("accessibility: a native select with a label bound to it", async () => {
    const el = document.createElement("sfs-sort");
    el.options = DEFAULT_CONFIG.sortOptions;
    el.value = "priced";
    el.label = "Sort by";
    document.body.append(el);
    await el.updateComplete;
    const select = el.shadowRoot!.querySelector("select")!;
    const label = el.shadowRoot!.querySelector("label")!;
    expect(label.getAttribute("for")).toBe(select.id);
    expect(label.textContent).toBe("Sort by");
    expect([...select.options].map((o) => o.textContent)).toEqual([
      "Relevance",
      "Price: low to high",
      "Price: high to low",
      "Newest",
      "Top rated",
    ]);
    expect(select.value).toBe("priced");
    const changes: unknown[] = [];
    el.addEventListener("sfs-sort-change", (e) => changes.push(e.detail));
    select.value = "new";
    select.dispatchEvent(new Event("change"));
    expect(changes).toEqual([{ value: "new" }]);
  });
});

describe("<sfs-pagination>", () => {
  async function pagination(page: number, pageCount: number) {
    const el = document.createElement("sfs-pagination");
    el.page = page;
    el.pageCount = pageCount;
    el.texts = DEFAULT_TEXTS;
    document.body.append(el);
    await el.updateComplete;
    return el;
  }

  test("accessibility: a named nav of buttons; the current page has aria-current; previous is disabled on page 1", async () => {
    const el = await pagination(1, 3);
    const nav = el.shadowRoot!.querySelector("nav")!;
    expect(nav.getAttribute("aria-label")).toBe("Pages");
    const buttons = [...nav.querySelectorAll("button")];
    expect(buttons.map((b) => b.getAttribute("aria-label") ?? b.textContent!.trim())).toEqual([
      "Previous",
      "Page 1",
      "Page 2",
      "Page 3",
      "Next",
    ]);
    expect(buttons[1]!.getAttribute("aria-current")).toBe("page");
    expect(buttons[2]!.hasAttribute("aria-current")).toBe(false);
    expect(buttons[0]!.disabled).toBe(true);
    expect(buttons[4]!.disabled).toBe(false);
  });

  test("buttons emit sfs-page-change; a single page shows nothing", async () => {
    const el = await pagination(2, 9);
    const pages: number[] = [];
    el.addEventListener("sfs-page-change", (e) => pages.push(e.detail.page));
    const buttons = [...el.shadowRoot!.querySelectorAll("button")];
    buttons[0]!.click(); // previous
    buttons.at(-1)!.click(); // next
    buttons.find((b) => b.textContent!.trim() === "9")!.click();
    buttons.find((b) => b.textContent!.trim() === "2")!.click(); // the current page: nothing
    expect(pages).toEqual([1, 3, 9]);
    const single = await pagination(1, 1);
    expect(single.shadowRoot!.querySelector("nav")).toBeNull();
  });

  test("page window: first, last, two either side of the current one", () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(6, 20)).toEqual([1, null, 4, 5, 6, 7, 8, null, 20]);
    expect(pageWindow(20, 20)).toEqual([1, null, 18, 19, 20]);
  });
});
