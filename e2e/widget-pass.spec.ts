/*
 * The widget pass (issue 16): what a shopper and a designer saw on the demo store, each as a check, and axe-core
 * on the results page, the open typeahead, the similar carousel and the look popup. A test that changes the
 * store's settings puts them back after. That no page asks a host beyond this machine (fonts, images, scripts
 * from elsewhere) is checked after every test (support/fixtures.ts).
 */
import { wcagContrast } from "culori";
import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe.ts";
import { expect, test } from "./support/fixtures.ts";
import { admin, layoutShift, loadedResults, searchPage, sidewaysScroll, withSettings } from "./support/shop.ts";

const MAX_LAYOUT_SHIFT = 0.02;
const PHONE = { width: 390, height: 844 };

/** The width of a part of the results page, as a share of the whole results element. */
const widthOf = (page: Page, part: string) =>
  page.evaluate((part) => {
    const host = document.querySelector("sfs-search-results")!;
    const el = host.shadowRoot!.querySelector(`[part~=${part}]`);
    return el ? el.getBoundingClientRect().width / host.getBoundingClientRect().width : 0;
  }, part);

/** The element focused, through the shadow roots: its part, or its tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let a: Element | null = document.activeElement;
    while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement;
    return a ? (a.getAttribute("part") ?? a.localName) : "";
  });

for (const [device, viewport] of [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", PHONE],
] as const) {
  test.describe(device, () => {
    test.use({ viewport });
    test(`widget pass (${device}): the first search goes out with the configuration; results arrive with layout shift ≤ 0.02, no sideways scroll, names clamped to two lines (full name in the title), even card heights`, async ({
      page,
      demo,
    }) => {
      await page.goto(searchPage(demo, "shirt"));
      await loadedResults(page, `shirt at ${viewport.width}px`);
      const timing = await page.evaluate(() => {
        const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
        const config = entries.find((e) => e.name.includes("/widget-config"));
        const search = entries.find((e) => e.name.includes("/1.9/search?"));
        return { searchStart: search?.startTime ?? NaN, configEnd: config?.responseEnd ?? NaN };
      });
      expect(
        timing.searchStart < timing.configEnd,
        `the search started at ${timing.searchStart} ms, before the configuration arrived (${timing.configEnd} ms)`,
      ).toBe(true);
      await page.waitForTimeout(300);
      expect(await layoutShift(page), "layout shift").toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
      expect(await sidewaysScroll(page), "sideways scroll").toBeLessThanOrEqual(1);
      const cards = await page.evaluate(() =>
        [...document.querySelector("sfs-search-results")!.shadowRoot!.querySelectorAll("sfs-product-card")].map((card) => {
          const link = card.shadowRoot!.querySelector<HTMLElement>("[part~=name-link]")!;
          const base = card.shadowRoot!.querySelector<HTMLElement>("[part~=base]")!.getBoundingClientRect();
          return {
            height: link.getBoundingClientRect().height,
            line: parseFloat(getComputedStyle(link.parentElement!).lineHeight),
            title: link.title,
            text: link.textContent!.trim(),
            top: Math.round(base.top),
            cardHeight: base.height,
          };
        }),
      );
      for (const c of cards) {
        expect(c.height, `"${c.text}": at most two lines of ${c.line}px`).toBeLessThanOrEqual(2 * c.line + 1);
        expect(c.title, "the name's title is the full name").toBe(c.text);
      }
      expect(
        cards.some((c) => c.text.length > 40),
        "a long name to see clamped",
      ).toBe(true);
      for (const top of new Set(cards.map((c) => c.top))) {
        const heights = cards.filter((c) => c.top === top).map((c) => c.cardHeight);
        expect(
          Math.max(...heights) - Math.min(...heights),
          `heights of the cards of the row at ${top}px: ${heights.join(", ")}`,
        ).toBeLessThanOrEqual(1);
      }
    });
  });
}

test("widget pass: facets follow the store's settings (which, order, names, values shown); groups collapse; a long list has a filter box and a bounded scroll; a selected value stays in sight", async ({
  page,
  demo,
}) => {
  const facets = [{ key: "designer", names: { en: "Label of the brand" }, shownValues: 3 }, { key: "color" }, { key: "price" }];
  await withSettings(demo, { facets }, async () => {
    await page.goto(searchPage(demo, "shirt"));
    await loadedResults(page, "shirt");
    const facet = page.locator('sfs-search-results sfs-facets [part~="facet"][data-key="designer"]');
    await expect(page.locator('sfs-search-results sfs-facets [part~="facet-toggle"] > span:first-child')).toHaveText([
      "Label of the brand",
      "Colour",
      "Price",
    ]);
    const values = facet.locator('[part~="value-label"]');
    await expect(values, "the brand's values shown").toHaveCount(3);
    await facet.locator('[part~="show-more"]').click();
    const list = await facet.locator('[part~="values"]').evaluate((ul) => ({ client: ul.clientHeight, scroll: ul.scrollHeight }));
    expect(
      list.scroll > list.client && list.client <= 16 * 16 + 1,
      `the whole brand list is ${list.client}px high showing ${list.scroll}px: a bounded scroll`,
    ).toBe(true);
    const filter = facet.locator('input[part~="filter"]');
    await filter.fill("an");
    const matching = await values.allTextContents();
    expect(
      matching.length > 0 && matching.every((l) => l.toLowerCase().includes("an")),
      `the filter box shows ${matching.join(", ")}`,
    ).toBe(true);
    const chosen = matching.at(-1)!;
    await facet.locator('[part~="value"]', { hasText: chosen }).locator("input").check();
    await expect(page).toHaveURL((url) => url.searchParams.get("facets")?.startsWith("designer:") ?? false);
    await loadedResults(page, "shirt with a brand");
    await filter.fill("");
    if ((await facet.locator('[part~="show-more"]').getAttribute("aria-expanded")) === "true")
      await facet.locator('[part~="show-more"]').click();
    await expect(values.filter({ hasText: chosen }), `the selected "${chosen}" in sight`).not.toHaveCount(0);
    const toggle = page.locator('sfs-search-results sfs-facets [part~="facet"][data-key="color"] [part~="facet-toggle"]');
    const open = await toggle.getAttribute("aria-expanded");
    await toggle.click();
    await expect(toggle, "the colour group's button opens or collapses it").not.toHaveAttribute("aria-expanded", open ?? "");
  });
});

test("widget pass: with the default facet settings a broad query does not open every group", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "shirt"));
  await loadedResults(page, "shirt");
  const shown = await page.evaluate(() => {
    const f = document.querySelector("sfs-search-results")!.shadowRoot!.querySelector("sfs-facets")!.shadowRoot!;
    const boxes = [...f.querySelectorAll<HTMLElement>("input[type=checkbox]")].filter((b) => b.getClientRects().length);
    return {
      groups: f.querySelectorAll("[part~=facet]").length,
      open: f.querySelectorAll("[aria-expanded=true][part~=facet-toggle]").length,
      boxes: boxes.length,
    };
  });
  expect(shown.open <= 4 && shown.boxes <= 40, `"shirt" opens ${shown.open} of ${shown.groups} groups with ${shown.boxes} checkboxes`).toBe(
    true,
  );
});

test("widget pass: loading, empty and error states take the full width with layout shift ≤ 0.02; zero results offer the correction, popular queries and 'Clear filters'; an error offers a retry", async ({
  page,
  demo,
}) => {
  await withSettings(demo, { widget: { popularQueries: ["jeans", "kurta"] } }, async () => {
    // Loading: the facet column and the grid are placeholders where they will be.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/1.9/search?*", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(searchPage(demo, "shirt"));
    await expect(page.locator('sfs-search-results [part~="facets-skeleton"]')).toBeVisible();
    await expect(page.locator('sfs-search-results [part~="skeleton"]'), "placeholder cards while loading").not.toHaveCount(0);
    release();
    await loadedResults(page, "shirt after a slow answer");
    await page.unroute("**/1.9/search?*");
    await page.waitForTimeout(300);
    expect(await layoutShift(page), "layout shift from placeholders to results").toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);

    // Nothing found (a misspelling with a filter that matches nothing).
    await page.goto(`${searchPage(demo, "jeanz")}&facets=${encodeURIComponent("designer:No such brand")}`);
    await expect(page.locator('sfs-search-results [part~="empty"]')).toBeVisible();
    expect(await widthOf(page, "empty"), "the empty state's share of the width").toBeGreaterThan(0.95);
    await expect(page.locator('sfs-search-results [part~="sidebar"]'), "a facet column beside the empty state").toHaveCount(0);
    // The misspelling was corrected: the state says so and offers the words as typed.
    const corrected = page.locator('sfs-search-results [part~="corrected"]');
    await expect(corrected).toContainText("“jeans”");
    await expect(corrected).toContainText("“jeanz”");
    await expect(page.locator('sfs-search-results [part~="popular-link"]')).toHaveText(["jeans", "kurta"]);
    expect(await layoutShift(page), "layout shift on the empty state").toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
    await page.locator('sfs-search-results [part~="clear-filters"]').click();
    await expect(page, "'Clear filters' drops the facets").toHaveURL((url) => !url.searchParams.has("facets"));
    await loadedResults(page, "jeanz without filters");

    // Search down: an error state with a retry.
    await page.route("**/1.9/search?*", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down","code":"internal_error"}' }),
    );
    await page.goto(searchPage(demo, "shirt"));
    await expect(page.locator('sfs-search-results [part~="error"][role="alert"]')).toBeVisible();
    expect(await widthOf(page, "error"), "the error state's share of the width").toBeGreaterThan(0.95);
    expect(await layoutShift(page), "layout shift on the error state").toBeLessThanOrEqual(MAX_LAYOUT_SHIFT);
    await page.unroute("**/1.9/search?*");
    await page.locator('sfs-search-results [part~="retry-button"]').click();
    await loadedResults(page, "shirt after 'Try again'");
  });
});

test("widget pass: a configuration that fails still shows results", async ({ page, demo }) => {
  await page.route("**/1.9/widget-config", (route) =>
    route.fulfill({ status: 503, contentType: "application/json", body: '{"message":"down","code":"unavailable"}' }),
  );
  await page.goto(searchPage(demo, "shirt"));
  await loadedResults(page, "shirt without a configuration");
});

test("widget pass: the store's search box holds the query under 'Results for …'; the skip link and the sort are a few Tab presses away; the skip link lands on the results", async ({
  page,
  demo,
}) => {
  await page.goto(searchPage(demo, "shirt"));
  await loadedResults(page, "shirt");
  await expect(page.locator("#store-search-input")).toHaveValue("shirt");
  await expect(page.locator('sfs-search-results h2[part~="heading"]')).toHaveText("Results for “shirt”");
  let presses = 0;
  const reached: string[] = [];
  while (presses < 40 && !reached.includes("select")) {
    await page.keyboard.press("Tab");
    presses++;
    reached.push(await focused(page));
  }
  expect(reached.includes("skip-link") && presses <= 10, `the sort took ${presses} Tab presses (${reached.join(", ")})`).toBe(true);
  await page.goto(searchPage(demo, "shirt"));
  await loadedResults(page, "shirt");
  for (let i = 0; i < 20 && (await focused(page)) !== "skip-link"; i++) await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  expect(await focused(page), "where the skip link moved the focus").toBe("main");
  await page.keyboard.press("Tab");
  expect(["name-link", "suggestion-link", "image-link"], "after the skip link, Tab goes to the results").toContain(await focused(page));
});

test.describe("phone", () => {
  test.use({ viewport: PHONE });
  test("widget pass: on a phone the filter button counts the active filters and the drawer says 'Show N results'", async ({
    page,
    demo,
  }) => {
    await page.goto(searchPage(demo, "shirt"));
    await loadedResults(page, "shirt on a phone");
    await page.locator('sfs-search-results [part~="filter-button"]').click();
    const drawer = page.locator('sfs-search-results dialog[part~="drawer"]');
    await drawer.locator('input[part~="checkbox"]').first().check();
    await expect(page.locator('sfs-search-results [part~="filter-count"]'), "the filter button counts 1 active filter").toHaveText("1");
    const apply = drawer.locator('[part~="drawer-apply"]');
    const count = page.locator('sfs-search-results p[part~="count"]');
    await expect
      .poll(
        async () => {
          const shown = (await count.textContent())?.trim() ?? "";
          return shown !== "" && (await apply.textContent())?.trim() === `Show ${shown.replace(/\s*results?$/, "")} results`;
        },
        { message: "the drawer's button says 'Show N results' for the count shown" },
      )
      .toBe(true);
    await apply.click();
    expect(await drawer.evaluate((d) => (d as HTMLDialogElement).open), "the drawer is open after 'Show N results'").toBe(false);
  });
});

test("widget pass: the typeahead says it is searching and when nothing matches; its active option has a ring of 3:1 or more", async ({
  page,
  demo,
}) => {
  await page.goto(demo.base + "/");
  const input = page.locator("#store-search-input");
  const status = page.locator('sfs-typeahead [part~="status"]');
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/1.9/suggestions?*", async (route) => {
    await held;
    await route.continue();
  });
  // Typed before the head script attached the typeahead, the keystrokes would reach no listener.
  await expect(page.locator('#store-search-input[role="combobox"]')).toBeAttached();
  await input.pressSequentially("shir");
  await expect(status).toHaveText("Searching…");
  release();
  await expect(page.locator("sfs-typeahead-option").first()).toBeVisible();
  await page.unroute("**/1.9/suggestions?*");
  await input.press("ArrowDown");
  const ring = await page.evaluate(() => {
    const option = document.querySelector('sfs-typeahead-option[aria-selected="true"]')!.shadowRoot!.querySelector("[part~=base]")!;
    const popup = document.querySelector("sfs-typeahead")!.shadowRoot!.querySelector("[part~=base]")!;
    return {
      outline: getComputedStyle(option).outlineColor,
      width: getComputedStyle(option).outlineWidth,
      background: getComputedStyle(popup).backgroundColor,
    };
  });
  const ratio = wcagContrast(ring.outline, ring.background);
  expect(
    ratio >= 3 && parseFloat(ring.width) >= 2,
    `the active option's ring is ${ring.width} ${ring.outline} on ${ring.background} (${ratio.toFixed(2)}:1)`,
  ).toBe(true);
  await input.fill("qwxyzzq");
  await expect(status).toHaveText("No suggestions for “qwxyzzq”");
});

test("widget pass: axe-core finds no WCAG 2.2 A/AA or best-practice violation on the results page, the open typeahead, the similar carousel and the look popup", async ({
  page,
  demo,
}) => {
  const problems: string[] = [];
  const check = async (where: string) => problems.push(...(await axeViolations(page)).map((v) => `${where}: ${v}`));
  await page.goto(searchPage(demo, "shirts"));
  const first = (await loadedResults(page, "shirts")).cards[0]!;
  await check("results page");
  const input = page.locator("#store-search-input");
  await input.fill("shir");
  await expect(page.locator("sfs-typeahead-option").first()).toBeVisible();
  await input.press("ArrowDown");
  await check("typeahead open");
  await page.goto(`${demo.base}/products/${encodeURIComponent(first.id)}`);
  await expect(page.locator("sfs-similar-products sfs-product-card").first()).toBeVisible();
  await page.locator("sfs-similar-products").scrollIntoViewIfNeeded();
  await check("similar carousel");
  await page.locator('sfs-complete-the-look [part~="view-look"]').first().click();
  await expect(page.locator('sfs-complete-the-look dialog[part~="dialog"][open]')).toBeVisible();
  await check("look popup");
  expect(problems, "axe-core violations").toEqual([]);
});

test("widget pass: the theme page: sign in with the admin key (sessionStorage only), a colour, the radius and the density show at once in the four previews, and Save puts them in the store's widget configuration", async ({
  page,
  demo,
}) => {
  const before = await admin(demo, "GET", "/settings");
  try {
    const response = await page.goto(`${demo.base}/theme`);
    expect(response?.headers()["content-security-policy"] ?? "", "the theme page's Content-Security-Policy").toMatch(/script-src 'self'/);
    await page.locator("#store-id").fill(demo.keys.storeId);
    await page.locator("#admin-key").fill(demo.keys.adminKey);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.locator("#editor")).toBeVisible();
    const stored = await page.evaluate(() => {
      const all = (storage: Storage) =>
        Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i)!)}`).join("\n");
      return { session: all(sessionStorage), local: all(localStorage) };
    });
    expect(
      stored.session.includes(demo.keys.adminKey) && !stored.local.includes(demo.keys.adminKey),
      `the admin key only in sessionStorage: ${JSON.stringify(stored)}`,
    ).toBe(true);
    expect(page.url(), "the address").not.toContain(demo.keys.adminKey);

    await page.locator("#colour-accent").fill("#aa0055");
    await page.locator("#radius").fill("2");
    await page.locator("#density").selectOption("compact");
    const frame = (id: string) => page.frameLocator(`#${id}`);
    // The results page's current page button is drawn in the accent colour with the radius.
    const current = frame("preview-results").locator('sfs-search-results sfs-pagination [part~="current"]');
    await expect(current, "the results preview's current page in the new accent colour").toHaveCSS("background-color", "rgb(170, 0, 85)");
    await expect(current, "the results preview's buttons' radius").toHaveCSS("border-top-left-radius", "2px");
    await expect(frame("preview-typeahead").locator("sfs-typeahead-option").first()).toBeVisible();
    const look = frame("preview-look").locator('sfs-complete-the-look dialog[part~="dialog"][open]');
    await expect(look, "the look popup's radius").toHaveCSS("border-top-left-radius", "2px");
    // Compact: 0.625rem.
    await expect(frame("preview-similar").locator('sfs-similar-products [part~="list"]'), "the similar carousel's gap").toHaveCSS(
      "column-gap",
      "10px",
    );
    for (const id of ["preview-results", "preview-typeahead", "preview-similar", "preview-look"]) {
      const accent = await frame(id)
        .locator("html")
        .evaluate((h) => getComputedStyle(h).getPropertyValue("--sfs-color-accent").trim());
      expect(accent, `${id}'s accent`).toBe("#aa0055");
    }

    await page.getByRole("button", { name: "Save to the store" }).click();
    await expect(page.locator("#status")).toHaveText(/^Saved/);
    const res = await fetch(`${demo.base}/1.9/widget-config`, {
      headers: { "X-Service-Store-ID": demo.keys.storeId, "X-Service-API-Key": demo.keys.searchKey },
    });
    const { theme } = (await res.json()) as { theme: Record<string, string> };
    expect(theme, "the saved theme").toMatchObject({ "--sfs-color-accent": "#aa0055", "--sfs-radius": "2px", "--sfs-spacing": "0.625rem" });
    expect(Object.keys(theme), "tokens left at the widget's defaults are not saved").not.toContain("--sfs-color-text");
  } finally {
    await admin(demo, "PATCH", "/settings", { widget: before.widget ?? null });
  }
});
