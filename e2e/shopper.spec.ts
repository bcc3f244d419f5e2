/*
 * The shopper's journey on the demo store: search, correct a typo, filter, sort, page, the typeahead, buying,
 * similar products, complete the look, the events all that reports, restyling, a store on another origin, and
 * the reports page. Each test is its own shopper (a new browser context) and does its own errands.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import type { OverviewReport, SearchesReport } from "@storefront-search/contract";
import { ROOT } from "./demo-session.ts";
import { expect, test, type Demo } from "./support/fixtures.ts";
import {
  admin,
  buyFirstResult,
  events,
  firstResultPage,
  loadedResults,
  productIdOf,
  resultsWhere,
  searchFromHome,
  searchPage,
  sidewaysScroll,
  type StoredEvent,
} from "./support/shop.ts";

const ARTIFACTS = join(ROOT, ".artifacts/e2e");

const ascending = (prices: number[]) => prices.length > 1 && prices.every((p, i) => i === 0 || p >= prices[i - 1]!);

/** The shopper's id the head script keeps in the page's localStorage (widget/src/analytics/identity.ts). */
async function shopperId(page: Page): Promise<string> {
  const read = () => page.evaluate(() => localStorage.getItem("sfs.uid"));
  await expect.poll(read, { message: "the head script's shopper id in localStorage" }).toBeTruthy();
  return (await read())!;
}

/** Polls the stored events until `accept` holds for the list; returns that list. */
async function eventsWhere(
  demo: Demo,
  accept: (list: StoredEvent[]) => boolean,
  message: (list: StoredEvent[]) => string,
): Promise<StoredEvent[]> {
  let list: StoredEvent[] = [];
  await expect.poll(async () => accept((list = await events(demo))), { message: message(list), timeout: 15_000 }).toBe(true);
  return list;
}

/**
 * On a product page of a jacket: checks that its similar products are of its kind, then follows the first one.
 * Returns the product and the similar one clicked.
 */
async function clickSimilar(page: Page, demo: Demo): Promise<{ sourceId: string; clickedId: string }> {
  const source = await firstResultPage(page, demo, "jackets");
  const links = page.locator('sfs-similar-products sfs-product-card a[part="name-link"]');
  await expect.poll(() => links.count(), { message: "similar products on the product page" }).toBeGreaterThanOrEqual(4);
  await page.locator("sfs-similar-products").scrollIntoViewIfNeeded();
  const ids = await Promise.all([0, 1, 2, 3].map(async (i) => productIdOf(await links.nth(i).getAttribute("href"), demo.base)));
  const product = (id: string) => admin<{ categories?: string[]; gender?: string }>(demo, "GET", `/products/${encodeURIComponent(id)}`);
  const own = await product(source.id);
  for (const id of ids) {
    const other = await product(id);
    expect(id, "the product is among its own similar products").not.toBe(source.id);
    expect(other.categories?.[0], `${id} (${other.categories?.join(" > ")}) is of the kind of ${source.id}`).toBe(own.categories?.[0]);
    expect(
      !other.gender || !own.gender || other.gender === own.gender || [other.gender, own.gender].includes("Unisex"),
      `${id} is for ${other.gender}, ${source.id} for ${own.gender}`,
    ).toBe(true);
  }
  const href = await links.first().getAttribute("href");
  await links.first().click();
  await page.waitForURL((url) => url.href === new URL(href ?? "", demo.base).href);
  await page.goto(demo.base + "/");
  return { sourceId: source.id, clickedId: ids[0]! };
}

test("search from the home page's input (Enter) shows products and a result count", async ({ page, demo }) => {
  await searchFromHome(page, demo, "jackets");
  const r = await loadedResults(page, "jackets");
  expect(r.count, "the count line says how many results").toMatch(/\d[\d,.]*\s+results?/i);
  expect(r.cards.map((c) => c.name).join(" | "), "a jacket among the results").toMatch(/jacket/i);
});

test("a typo (jakcets) still finds jackets", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "jakcets"));
  const r = await loadedResults(page, "jakcets");
  const jackets = r.cards.filter((c) => /jacket/i.test(c.name));
  expect(jackets.length, `jackets among ${r.cards.map((c) => c.name).join(" | ")}`).toBeGreaterThanOrEqual(Math.min(3, r.cards.length));
});

test("selecting a facet value changes the count and puts a facets param in the URL", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "jackets"));
  const before = await loadedResults(page, "jackets");
  const designer = page.locator('sfs-search-results fieldset[part="facet"][data-key*="designer" i] input[part="checkbox"]');
  const checkbox = (await designer.count()) ? designer.first() : page.locator('sfs-search-results input[part="checkbox"]').first();
  await checkbox.check();
  await expect(page).toHaveURL((url) => url.searchParams.has("facets"));
  const after = await resultsWhere(
    page,
    (r) => r.total > 0 && r.total !== before.total,
    `the count stayed "${before.count}" after choosing a facet value`,
  );
  expect(after.total, "the count after choosing a facet value").toBeLessThan(before.total);
  await expect(checkbox).toBeChecked();
});

test("sort by price ascending shows prices in ascending order", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "jackets"));
  await loadedResults(page, "jackets");
  await page.locator('sfs-search-results select[part="select"]').selectOption("pricea");
  await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "pricea");
  await resultsWhere(page, (r) => ascending(r.cards.map((c) => c.price)), "prices are not ascending");
});

test("page 2 shows other products; Back restores page 1 (URL and first product)", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "jackets"));
  const first = await loadedResults(page, "jackets");
  expect(first.total, "results beyond page 1").toBeGreaterThan(first.cards.length);
  await page.locator('sfs-search-results button[part~="next"]').click();
  await page.waitForURL(/[?&]page=2/);
  const second = await resultsWhere(
    page,
    (r) => r.cards.length > 0 && r.cards[0]!.id !== first.cards[0]!.id,
    "page 2 shows the same first product as page 1",
  );
  const overlap = second.cards.filter((c) => first.cards.some((f) => f.id === c.id));
  expect(overlap, "products of page 1 repeated on page 2").toEqual([]);
  await page.goBack();
  await expect(page).toHaveURL((url) => !url.searchParams.has("page") && url.searchParams.get("q") === "jackets");
  await resultsWhere(page, (r) => r.cards[0]?.id === first.cards[0]!.id, "Back did not restore page 1's first product");
});

test("typeahead by keyboard: snea, ArrowDown, Enter lands on the chosen suggestion", async ({ page, demo }) => {
  await page.goto(demo.base + "/");
  const input = page.locator("#store-search-input");
  await input.click();
  await input.pressSequentially("snea", { delay: 40 });
  await expect(page.locator("sfs-typeahead-option").first()).toBeVisible();
  await input.press("ArrowDown");
  await expect(input, "ArrowDown made an option active").toHaveAttribute("aria-activedescendant", /.+/);
  const activeId = (await input.getAttribute("aria-activedescendant"))!;
  const label = await page.evaluate((id) => {
    const option = document.getElementById(id);
    return (option?.shadowRoot?.textContent ?? option?.textContent ?? "").replace(/\s+/g, " ").trim();
  }, activeId);
  expect(label, "the active option's text").not.toBe("");
  await input.press("Enter");
  await page.waitForURL((url) => url.pathname === "/search-results" || url.pathname.startsWith("/products/"));
  const url = new URL(page.url());
  if (url.pathname === "/search-results") {
    const r = await loadedResults(page, `suggestion "${label}"`);
    const q = url.searchParams.get("q") ?? "";
    expect(q !== "" && label.toLowerCase().includes(q.toLowerCase()), `landed on q="${q}", the chosen suggestion was "${label}"`).toBe(
      true,
    );
    expect(r.cards.length, "products for the suggestion").toBeGreaterThan(0);
  } else {
    const h1 = ((await page.locator("h1").textContent()) ?? "").trim();
    expect(label, "the product page is the chosen suggestion's").toContain(h1);
    await expect(page.locator("#add-to-cart")).toBeVisible();
  }
});

test("click a product, add it to the cart, check out and place the order", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "jackets"));
  await buyFirstResult(page, demo, "jackets");
});

test("a product page shows similar products of its kind; seeing them and clicking one are reported", async ({ page, demo }) => {
  await page.goto(demo.base + "/");
  const user = await shopperId(page);
  const { sourceId, clickedId } = await clickSimilar(page, demo);
  const mine = (list: StoredEvent[]) => list.filter((e) => e.userId === user);
  await eventsWhere(
    demo,
    (list) =>
      mine(list).some((e) => e.type === "ViewSimilarProducts" && e.data.productId === sourceId) &&
      mine(list).some(
        (e) => e.type === "SimilarProductClick" && e.data.similarProductId === sourceId && e.data.clickProductId === clickedId,
      ),
    () => `no ViewSimilarProducts of ${sourceId} and SimilarProductClick of ${clickedId} from ${sourceId} by shopper ${user}`,
  );
});

test("complete the look: page the carousel, open look 2, page the popup, add and click from it and from the carousel; all six CTL events recorded", async ({
  page,
  demo,
}) => {
  const { base } = demo;
  const source = await firstResultPage(page, demo, "shirts");
  const user = await shopperId(page);
  const ctl = page.locator("sfs-complete-the-look");
  const viewLook = ctl.locator('[part="view-look"]');
  // A page of the carousel shows the looks that fit; a second page needs more looks than that.
  const next = ctl.locator('[part="next"]').first();
  await expect.poll(() => viewLook.count(), { message: "looks on the product page", timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  await expect(next, "a second page of looks").toHaveAttribute("aria-disabled", "false", { timeout: 15_000 });
  await ctl.scrollIntoViewIfNeeded();
  // The carousel: on to page 2 and back.
  await next.click();
  await ctl.locator('[part="previous"]').first().click();
  await viewLook.filter({ hasText: "View Look 2" }).click();
  const dialog = ctl.locator('[part="dialog"]');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[part="dialog-title"]')).toContainText("2");
  // The look's own products: the page's product is shown first as "This item", and following it is no look click.
  const popupLinks = dialog.locator('[part~="product"]:not([part~="source"]) sfs-product-card a[part="name-link"]');
  await dialog.locator('[part="dialog-next"]').click();
  // Add to cart from the popup (the demo store's cart hook), then follow a product of the look.
  const cartIds = () => page.evaluate(() => (JSON.parse(localStorage.getItem("demo-cart") ?? "[]") as { id: string }[]).map((i) => i.id));
  await dialog.locator('[part~="product"]:not([part~="source"]) [part="add-to-cart"]').first().click();
  await expect.poll(async () => (await cartIds()).length, { message: "the cart hook added the item to the demo cart" }).toBe(1);
  const addedId = (await cartIds())[0]!;
  const popupHref = await popupLinks.first().getAttribute("href");
  const popupClicked = productIdOf(popupHref, base);
  await popupLinks.first().click();
  await page.waitForURL((url) => url.href === new URL(popupHref ?? "", base).href);
  // Back on the product page: a product of a look in the carousel.
  await page.goto(`${base}/products/${encodeURIComponent(source.id)}`);
  await expect(viewLook.first(), "looks after coming back").toBeVisible();
  const carouselLink = ctl.locator('[part~="product"]:not([part~="source"]) sfs-product-card a[part="name-link"]').first();
  const carouselHref = await carouselLink.getAttribute("href");
  const carouselClicked = productIdOf(carouselHref, base);
  await carouselLink.click();
  await page.waitForURL((url) => url.href === new URL(carouselHref ?? "", base).href);
  await page.goto(base + "/");

  const types = ["CTLLoad", "CTLPageChange", "CTLViewLookClick", "CTLPopupPageChange", "CTLPopupProductClick", "CTLProductClick"];
  const mineOf = (list: StoredEvent[]) =>
    list.filter((e) => e.userId === user && types.includes(e.type) && e.data.baseProductId === source.id);
  const list = await eventsWhere(
    demo,
    (all) => types.every((t) => mineOf(all).some((e) => e.type === t)),
    (all) => `missing CTL events: ${types.filter((t) => !mineOf(all).some((e) => e.type === t)).join(", ")}`,
  );
  const mine = mineOf(list);
  const of = (type: string) => mine.filter((e) => e.type === type);
  for (const e of mine) {
    const related = e.data.relatedProducts as string[];
    expect(
      Array.isArray(related) && related.length > 0 && e.data.totalProducts === related.length,
      `${e.type}: relatedProducts/totalProducts ${JSON.stringify(e.data)}`,
    ).toBe(true);
    expect(
      Array.isArray(e.data.productIds) && typeof e.data.pageSize === "number" && e.data.query === "",
      `${e.type}: listing fields ${JSON.stringify(e.data)}`,
    ).toBe(true);
    expect(related, `${e.type}: the source is among its own look products`).not.toContain(source.id);
  }
  const pages = of("CTLPageChange").map((e) => `${e.data.pageFrom}->${e.data.pageTo}`);
  expect(pages, "CTLPageChange pages").toEqual(expect.arrayContaining(["1->2", "2->1"]));
  expect(
    of("CTLViewLookClick").some((e) => e.data.position === 2),
    "a CTLViewLookClick with position 2",
  ).toBe(true);
  expect(
    of("CTLPopupPageChange").some((e) => e.data.pageFrom === 1 && e.data.pageTo === 2),
    "a CTLPopupPageChange 1->2",
  ).toBe(true);
  const selected = (type: string, id: string) =>
    of(type).some((e) => {
      const s = e.data.selectedProduct as { productId: string; position: number; internalCategory?: string };
      return s.productId === id && (e.data.relatedProducts as string[])[s.position - 1] === id && !!s.internalCategory;
    });
  expect(
    selected("CTLPopupProductClick", popupClicked),
    `a CTLPopupProductClick of ${popupClicked} with its position and internalCategory`,
  ).toBe(true);
  expect(
    selected("CTLProductClick", carouselClicked),
    `a CTLProductClick of ${carouselClicked} with its position and internalCategory`,
  ).toBe(true);
  expect(
    list.some((e) => e.type === "AddToCart" && e.userId === user && e.data.addProductId === addedId && e.data.qty === 1),
    `an AddToCart of ${addedId} from the look popup`,
  ).toBe(true);
});

test("events: the server recorded the shopper's journey with the required fields", async ({ page, demo }) => {
  // The journey: search from the home page, sort, page 2, buy a jacket, follow a similar product.
  await searchFromHome(page, demo, "jackets");
  const user = await shopperId(page);
  await loadedResults(page, "jackets");
  await page.locator('sfs-search-results select[part="select"]').selectOption("pricea");
  await expect(page).toHaveURL((url) => url.searchParams.get("sort") === "pricea");
  const sorted = await resultsWhere(page, (r) => ascending(r.cards.map((c) => c.price)), "the jackets by price");
  await page.locator('sfs-search-results button[part~="next"]').click();
  await page.waitForURL(/[?&]page=2/);
  // The address changes before the cards do: buy from page 2 once it shows.
  await resultsWhere(
    page,
    (r) => r.cards.length > 0 && !sorted.cards.some((c) => c.id === r.cards[0]!.id),
    "page 2 of the jackets by price",
  );
  const bought = await buyFirstResult(page, demo, "jackets, page 2");
  const similar = await clickSimilar(page, demo);
  expect(await shopperId(page), "one shopper id through the journey").toBe(user);

  const required = [
    "SiteView",
    "Search",
    "PageChange",
    "SortByChange",
    "ProductClick",
    "AddToCart",
    "OrderComplete",
    "Purchase",
    "ViewSimilarProducts",
    "SimilarProductClick",
  ];
  const mineOf = (list: StoredEvent[]) => list.filter((e) => e.userId === user);
  const list = mineOf(
    await eventsWhere(
      demo,
      (all) =>
        required.every((t) => mineOf(all).some((e) => e.type === t)) &&
        mineOf(all).some((e) => e.type === "Purchase" && e.data.orderId === bought.orderId),
      (all) =>
        `missing events of shopper ${user}: ${required.filter((t) => !mineOf(all).some((e) => e.type === t)).join(", ") || `Purchase of ${bought.orderId}`}`,
    ),
  );
  const of = (type: string) => list.filter((e) => e.type === type);
  expect(
    of("ProductClick").some((e) => e.data.clickProductId === bought.clickedId),
    `a ProductClick with clickProductId ${bought.clickedId}`,
  ).toBe(true);
  expect(
    of("AddToCart").some((e) => e.data.addProductId === bought.addedId && e.data.qty === 1),
    `an AddToCart with addProductId ${bought.addedId}`,
  ).toBe(true);
  for (const type of ["OrderComplete", "Purchase"]) {
    const e = of(type).find((x) => x.data.orderId === bought.orderId);
    expect(e, `${type} with orderId ${bought.orderId}`).toBeTruthy();
    const products = e!.data.products as { id: string; price: number; qty: number }[];
    expect(products, `${type}.products`).toHaveLength(1);
    expect(
      products[0]!.id === bought.addedId && products[0]!.qty === 1 && products[0]!.price > 0,
      `${type}.products[0] is ${JSON.stringify(products[0])}`,
    ).toBe(true);
  }
  expect(
    of("ViewSimilarProducts").some((e) => e.data.productId === similar.sourceId),
    `a ViewSimilarProducts of ${similar.sourceId}`,
  ).toBe(true);
  expect(
    of("SimilarProductClick").some((e) => e.data.similarProductId === similar.sourceId && e.data.clickProductId === similar.clickedId),
    `a SimilarProductClick of ${similar.clickedId} from ${similar.sourceId}`,
  ).toBe(true);
});

test("screenshots of the results page at desktop (1280x900) and mobile (390x844)", async ({ page, demo }) => {
  for (const [name, width, height] of [
    ["results-desktop", 1280, 900],
    ["results-mobile", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto(searchPage(demo, "jackets"));
    await loadedResults(page, `jackets at ${width}px`);
    await page.evaluate(() => document.fonts.ready);
    expect(await sidewaysScroll(page), `sideways scroll at ${width}px`).toBeLessThanOrEqual(1);
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  }
});

test("restyling: ::part rules and --sfs-color-accent change the computed styles", async ({ page, demo }) => {
  const probe = () =>
    page.evaluate(() => {
      const root = document.querySelector("sfs-search-results")?.shadowRoot;
      const card = root?.querySelector("sfs-product-card")?.shadowRoot;
      const name = card?.querySelector('[part~="name"]');
      const count = root?.querySelector('[part="count"]');
      const current = root?.querySelector("sfs-pagination")?.shadowRoot?.querySelector('[part~="current"]');
      if (!name || !count || !current) return null;
      const s = (e: Element) => getComputedStyle(e);
      return {
        nameWeight: s(name).fontWeight,
        nameColor: s(name).color,
        countTransform: s(count).textTransform,
        accent: s(current).backgroundColor + " " + s(current).borderColor + " " + s(current).color,
      };
    });
  const measured = async (what: string) => {
    await expect.poll(probe, { message: `a card name, count and current page button to measure on the ${what}` }).not.toBeNull();
    return (await probe())!;
  };
  await page.goto(searchPage(demo, "jackets"));
  await loadedResults(page, "default styles");
  const before = await measured("default page");

  const css = `
    sfs-search-results { --sfs-color-accent: rgb(0, 170, 85); }
    sfs-search-results::part(card-name) { font-weight: 900; color: rgb(200, 0, 0); }
    sfs-search-results::part(count) { text-transform: uppercase; }`;
  const testUrl = `${demo.base}/search-results?q=jackets&restyle=1`;
  await page.route(testUrl, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8">
<script async src="/widget/v1/widget.js" data-store-id="${demo.keys.storeId}" data-search-key="${demo.keys.searchKey}"></script>
<style>${css}</style></head><body><div id="product-search-results"></div></body></html>`,
    }),
  );
  await page.goto(testUrl);
  await loadedResults(page, "restyled page");
  const after = await measured("restyled page");
  expect([before.nameWeight, after.nameWeight], "card-name font-weight before and after").toEqual([
    expect.not.stringMatching(/^900$/),
    "900",
  ]);
  expect(after.nameColor, "card-name color").toBe("rgb(200, 0, 0)");
  expect([before.countTransform, after.countTransform], "count text-transform before and after").toEqual([
    expect.not.stringMatching(/^uppercase$/),
    "uppercase",
  ]);
  expect(before.accent, "the default accent").not.toContain("rgb(0, 170, 85)");
  expect(after.accent, "the restyled accent").toContain("rgb(0, 170, 85)");
});

test("a store page on another origin, with the script included twice, shows results and reports its events", async ({ page, demo }) => {
  // A store's own page on another origin (127.0.0.1, another port) calling the service at localhost: CORS
  // and preflights for real. The page is served by a real server: Chromium treats a page made up by
  // page.route as public, and public pages may not reach loopback addresses.
  const tag = `<script async src="${demo.base}/widget/v1/widget.js" data-store-id="${demo.keys.storeId}" data-search-key="${demo.keys.searchKey}" data-analytics-key="${demo.keys.analyticsKey}"></script>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">${tag}${tag}</head><body><div id="product-search-results"></div></body></html>`;
  const store = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  await new Promise<void>((resolve) => store.listen(0, "127.0.0.1", resolve));
  const other = `http://127.0.0.1:${(store.address() as AddressInfo).port}`;
  try {
    await page.goto(`${other}/search-results?q=kurta`);
    await loadedResults(page, "another origin's store page");
    expect(await page.evaluate(() => document.querySelectorAll("sfs-search-results").length), "times the results are mounted").toBe(1);
    // Leaving sends the batched events (pagehide).
    await page.goto(demo.base + "/");
  } finally {
    store.closeAllConnections();
    await new Promise((resolve) => store.close(resolve));
  }
  await eventsWhere(
    demo,
    (list) => list.some((e) => e.type === "SiteView" && String(e.data.location ?? "").startsWith(other)),
    () => `no SiteView from ${other} reached the service`,
  );
});

test("reports page: after a search and an order, /reports shows the overview's figures, the query, three charts; the key stays in sessionStorage", async ({
  page,
  demo,
  context,
}) => {
  const { base, keys } = demo;
  const query = "dresses";
  type Overview = Pick<OverviewReport, "searches" | "orders">;
  const report = <T>(name: string) => admin<T>(demo, "GET", `/reports/${name}`);
  const before = await report<Overview>("overview");
  await searchFromHome(page, demo, query);
  await buyFirstResult(page, demo, query);
  await expect
    .poll(
      async () => {
        const [o, top] = await Promise.all([report<Overview>("overview"), report<SearchesReport>("searches?limit=50")]);
        return o.orders > before.orders && o.searches > before.searches && top.searches.some((q) => q.query === query);
      },
      { message: `the reports API counts the test's search and order (before: ${JSON.stringify(before)})`, timeout: 15_000 },
    )
    .toBe(true);

  const cspViolations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.goto(`${base}/reports`);
  await page.getByLabel("Store id").fill(keys.storeId);
  await page.getByLabel("Admin key").fill(keys.adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  const shown = (field: string) =>
    page.evaluate((f) => {
      const el = document.querySelector(`[data-metric="${f}"]`);
      return el ? { text: el.textContent ?? "", value: el.getAttribute("data-value") ?? "" } : null;
    }, field);
  let last = "";
  await expect
    .poll(
      async () => {
        const onPage = { searches: await shown("searches"), orders: await shown("orders") };
        const api = await report<Overview>("overview");
        last = `page ${JSON.stringify(onPage)}, API ${JSON.stringify(api)}`;
        const same = (f: "searches" | "orders") =>
          onPage[f] !== null &&
          Number(onPage[f]!.value) === api[f] &&
          Number(onPage[f]!.text.replace(/[^\d]/g, "")) === api[f] &&
          api[f] >= 1;
        if (same("searches") && same("orders")) return true;
        // Counted again since the page loaded: Apply reloads the figures.
        if (onPage.searches) await page.getByRole("button", { name: "Apply" }).click();
        return false;
      },
      { message: `the page's figures are GET /1.9/reports/overview's: ${last}`, timeout: 15_000 },
    )
    .toBe(true);
  await expect(page.locator("#top-queries tbody th").filter({ hasText: new RegExp(`^${query}$`) })).toHaveCount(1);
  for (const id of ["chart-searches", "chart-rates", "chart-positions"]) await expect(page.locator(`#${id} canvas`)).toHaveCount(1);
  const stored = await page.evaluate((key) => {
    const has = (s: Storage) => Object.keys(s).some((k) => (s.getItem(k) ?? "").includes(key));
    return { session: has(sessionStorage), local: has(localStorage) };
  }, keys.adminKey);
  expect(stored, "where the admin key is kept").toEqual({ session: true, local: false });
  expect(page.url(), "the address").not.toContain(keys.adminKey);
  expect(
    (await context.cookies()).filter((c) => c.value.includes(keys.adminKey)),
    "cookies holding the admin key",
  ).toEqual([]);
  // Apply keeps the period in the URL, not the key.
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL((url) => url.searchParams.has("to"));
  expect(page.url(), "the address").not.toContain(keys.adminKey);

  // CSV: fetched with the headers and saved from a Blob URL.
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download CSV of the top queries" }).click(),
  ]);
  const csv = readFileSync(await download.path(), "utf8");
  expect(csv, "the top queries' CSV").toMatch(/^"query","count",/);
  expect(
    csv.split("\r\n").some((line) => line.startsWith(`"${query}",`)),
    `the top queries' CSV has "${query}": ${csv.slice(0, 300)}`,
  ).toBe(true);
  expect(download.url(), "where the CSV came from").toMatch(/^blob:/);

  await page.setViewportSize({ width: 390, height: 844 });
  expect(await sidewaysScroll(page), "the reports page's sideways scroll at 390px").toBeLessThanOrEqual(1);
  await page.screenshot({ path: join(ARTIFACTS, "reports-mobile.png") });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: join(ARTIFACTS, "reports-desktop.png"), fullPage: true });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByLabel("Admin key")).toBeVisible();
  const left = await page.evaluate(
    (key) => Object.keys(sessionStorage).some((k) => (sessionStorage.getItem(k) ?? "").includes(key)),
    keys.adminKey,
  );
  expect(left, "the admin key in sessionStorage after Sign out").toBe(false);
  expect(cspViolations, "Content-Security-Policy violations").toEqual([]);
});
