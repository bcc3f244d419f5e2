/*
 * No dead ends (issue 37), as a shopper meets them on the demo store: the empty search box offers the shopper's
 * recent searches and the store's popular ones, a results page without a query shows the popular products, a
 * search that finds nothing offers the correction, popular searches and categories, and Back from a product page
 * lands where the shopper was in the results. The corrected search and the one "search instead" asked for are
 * checked in what the server recorded (its search log).
 */
import type { Page } from "playwright-core";
import { admin, spec } from "./widget-pass-specs.ts";
import { assert, loadedResults, searchPage, waitFor, type Spec } from "./specs.ts";

const parts = (page: Page, part: string) => page.locator(`sfs-search-results [part~="${part}"]`);

export const noDeadEndsSpecs: Spec[] = [
  {
    name: "no dead ends: the focused empty search box offers recent and popular searches; a page without a query shows popular products",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "kurta"));
        await loadedResults(page, "kurta");
        await page.goto(env.base + "/");
        const input = page.locator("#store-search-input");
        await input.fill("jeans");
        await input.press("Enter");
        await page.waitForURL((url) => url.searchParams.get("q") === "jeans");
        await loadedResults(page, "jeans");
        await input.fill("");
        await input.blur();
        await input.focus();
        const groups = page.locator("sfs-typeahead >> [part~=group-label]");
        await waitFor(
          async () => (await groups.count()) > 0,
          () => "the focused empty box offered nothing",
        );
        const labels = await groups.allTextContents();
        assert(labels[0] === "Recent searches", `the empty box's groups: ${labels.join(", ")}`);
        const recent = await page
          .locator('sfs-typeahead sfs-typeahead-option[slot="recent"]')
          .evaluateAll((els) => els.map((e) => (e as unknown as { option: { label: string } }).option.label));
        assert(recent[0] === "jeans", `recent searches: ${recent.join(", ")}`);

        await page.goto(`${env.base}/search-results`);
        await waitFor(
          async () => (await parts(page, "heading").textContent())?.trim() === "Popular products",
          () => "no 'Popular products' heading without a query",
        );
        const shown = await loadedResults(page, "popular products");
        assert(shown.cards.length > 0, "no popular products without a query");
      });
    },
  },
  {
    name: "no dead ends: a misspelling is corrected ('Showing results for', 'Search instead for'), and the server logged what was searched",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "jeens"));
        await loadedResults(page, "jeens");
        const corrected = (await parts(page, "corrected").textContent())?.trim() ?? "";
        assert(corrected.startsWith("Showing results for “jeans”."), `the correction reads "${corrected}"`);
        await parts(page, "search-instead").click();
        await page.waitForURL((url) => url.searchParams.get("exact") === "1");
        // The words as typed find nothing here: the answer for them replaces the corrected one, with no correction.
        await waitFor(
          async () => (await parts(page, "empty").count()) > 0 && (await parts(page, "corrected").count()) === 0,
          () => "the words as typed still show a correction",
        );
      });
      // The search log holds the words as the shopper typed them, the corrected search among the ones that found products.
      const logged = await waitFor(
        async () => {
          const report = (await admin(env, "GET", "/reports/searches")) as {
            searches: { query: string; count: number; noResultCount: number }[];
          };
          return report.searches.find((r) => r.query === "jeens" && r.count >= 2);
        },
        () => "the searches report lacks both searches for 'jeens'",
      );
      assert(logged.noResultCount < logged.count, "the corrected search was logged as finding nothing");
    },
  },
  {
    name: "no dead ends: nothing found offers popular searches and categories, full width, with layout shift ≤ 0.02",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "qzxvwk"));
        await parts(page, "empty").waitFor();
        const categories = await parts(page, "category-link").allTextContents();
        assert(categories.length > 0, "no popular categories on the empty state");
        const shift = await page.evaluate(() => (window as unknown as { sfsShift: number }).sfsShift);
        assert(shift <= 0.02, `layout shift ${shift.toFixed(4)} on the empty state`);
        await parts(page, "category-link").first().click();
        await waitFor(
          async () => (await parts(page, "heading").textContent())?.trim() === "Popular products",
          () => "a category link did not browse the category",
        );
        const shown = await loadedResults(page, "a popular category");
        assert(shown.total > 0, "a popular category shows nothing");
        assert(new URL(page.url()).searchParams.get("facets")?.startsWith("category.lvl1:"), `the category page is ${page.url()}`);
      });
    },
  },
  {
    name: "no dead ends: Back from a product page returns to the same place in the results",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "shirt"));
        await loadedResults(page, "shirt");
        const cards = page.locator('sfs-search-results sfs-product-card a[part="name-link"]');
        const target = cards.nth(13);
        await target.scrollIntoViewIfNeeded();
        await page.mouse.wheel(0, 200);
        await page.waitForTimeout(200);
        const before = await page.evaluate(() => window.scrollY);
        assert(before > 500, `the page scrolled only to ${before}`);
        await target.click();
        await page.waitForURL(/\/products\//);
        await page.goBack();
        await loadedResults(page, "shirt after Back");
        const after = await waitFor(
          async () => {
            const y = await page.evaluate(() => window.scrollY);
            return Math.abs(y - before) <= 2 ? y + 1 : null;
          },
          () => "Back did not restore the scroll position",
        );
        assert(Math.abs(after - 1 - before) <= 2, `scrolled to ${after - 1}, was ${before}`);
      });
    },
  },
];
