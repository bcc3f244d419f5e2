/*
 * No dead ends (issue 37), as a shopper meets them on the demo store: the empty search box offers the shopper's
 * recent searches and the store's popular ones, a results page without a query shows the popular products, a
 * search that finds nothing offers the correction, popular searches and categories, and Back from a product page
 * lands where the shopper was in the results. The corrected search and the one "search instead" asked for are
 * checked in what the server recorded (its search log).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures.ts";
import { admin, layoutShift, loadedResults, searchPage } from "./support/shop.ts";

const parts = (page: Page, part: string) => page.locator(`sfs-search-results [part~="${part}"]`);

test("no dead ends: the focused empty search box offers recent and popular searches; a page without a query shows popular products", async ({
  page,
  demo,
}) => {
  await page.goto(searchPage(demo, "kurta"));
  await loadedResults(page, "kurta");
  await page.goto(demo.base + "/");
  const input = page.locator("#store-search-input");
  await input.fill("jeans");
  await input.press("Enter");
  await page.waitForURL((url) => url.searchParams.get("q") === "jeans");
  await loadedResults(page, "jeans");
  await input.fill("");
  await input.blur();
  await input.focus();
  const groups = page.locator("sfs-typeahead >> [part~=group-label]");
  await expect(groups.first(), "the focused empty box's first group").toHaveText("Recent searches");
  const recent = await page
    .locator('sfs-typeahead sfs-typeahead-option[slot="recent"]')
    .evaluateAll((els) => els.map((e) => (e as unknown as { option: { label: string } }).option.label));
  expect(recent[0], `the latest recent search (of ${recent.join(", ")})`).toBe("jeans");

  await page.goto(`${demo.base}/search-results`);
  await expect(parts(page, "heading")).toHaveText("Popular products");
  await loadedResults(page, "popular products");
});

test("no dead ends: a misspelling is corrected ('Showing results for', 'Search instead for'), and the server logged what was searched", async ({
  page,
  demo,
}) => {
  await page.goto(searchPage(demo, "jeens"));
  await loadedResults(page, "jeens");
  await expect(parts(page, "corrected")).toHaveText(/^Showing results for “jeans”\./);
  await parts(page, "search-instead").click();
  await page.waitForURL((url) => url.searchParams.get("exact") === "1");
  // The words as typed find nothing here: the answer for them replaces the corrected one, with no correction.
  await expect(parts(page, "empty")).not.toHaveCount(0);
  await expect(parts(page, "corrected"), "a correction for the words as typed").toHaveCount(0);
  // The search log holds the words as the shopper typed them, the corrected search among the ones that found products.
  type Logged = { query: string; count: number; noResultCount: number };
  const logged = async () =>
    (await admin<{ searches: Logged[] }>(demo, "GET", "/reports/searches")).searches.find((r) => r.query === "jeens");
  await expect
    .poll(async () => (await logged())?.count ?? 0, { message: "the searches report counts both searches for 'jeens'" })
    .toBeGreaterThanOrEqual(2);
  const row = (await logged())!;
  expect(row.noResultCount, "searches for 'jeens' logged as finding nothing").toBeLessThan(row.count);
});

test("no dead ends: nothing found offers popular searches and categories, full width, with layout shift ≤ 0.02", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "qzxvwk"));
  await expect(parts(page, "empty")).toBeVisible();
  await expect(parts(page, "category-link").first(), "popular categories on the empty state").toBeVisible();
  expect(await layoutShift(page), "layout shift on the empty state").toBeLessThanOrEqual(0.02);
  await parts(page, "category-link").first().click();
  await expect(parts(page, "heading"), "a category link browses the category").toHaveText("Popular products");
  await loadedResults(page, "a popular category");
  await expect(page, "the category page's address").toHaveURL(
    (url) => url.searchParams.get("facets")?.startsWith("category.lvl1:") ?? false,
  );
});

test("no dead ends: Back from a product page returns to the same place in the results", async ({ page, demo }) => {
  await page.goto(searchPage(demo, "shirt"));
  await loadedResults(page, "shirt");
  const target = page.locator('sfs-search-results sfs-product-card a[part="name-link"]').nth(13);
  await target.scrollIntoViewIfNeeded();
  await page.mouse.wheel(0, 200);
  await page.waitForTimeout(200);
  const before = await page.evaluate(() => window.scrollY);
  expect(before, "how far the page scrolled").toBeGreaterThan(500);
  await target.click();
  await page.waitForURL(/\/products\//);
  await page.goBack();
  await loadedResults(page, "shirt after Back");
  const distance = async () => Math.abs((await page.evaluate(() => window.scrollY)) - before);
  await expect.poll(distance, { message: `Back restores the scroll position ${before}` }).toBeLessThanOrEqual(2);
});
