/*
 * Experiments (issue 40) as shoppers meet them, in Chromium on the demo store: an A/B test whose variant "pinned"
 * puts a query rule in force that pins a product first. Two browser contexts are two shoppers, one in each variant
 * (ids chosen by asking the service which variant each falls in). Each searches through the head script on the
 * store's results page, sees its variant's first result, and clicks a result. The widget sends the clicks with the
 * answer's experiment and variant, and the experiment's results (the API and the /experiments page) count each
 * shopper and click in that shopper's variant.
 */
import { randomUUID } from "node:crypto";
import type { BrowserContext, Page } from "@playwright/test";
import type { ExperimentResults, SearchAnswer } from "@storefront-search/contract";
import { openStaffPage } from "./support/staff-page.ts";
import { expect, test, type Demo } from "./support/fixtures.ts";
import { admin, events, loadedResults, searchPage } from "./support/shop.ts";

const QUERY = "jeans";
/**
 * A desktop Chrome's user agent: the headless shell's own says "HeadlessChrome", which the results rightly leave
 * out as a bot's (experiment-tally.ts). These two shoppers stand for people.
 */
const PERSON = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36";
test.use({ userAgent: PERSON });

/** The variant the service puts a shopper in, as the search answer names it. */
async function variantOf(demo: Demo, userId: string): Promise<string | undefined> {
  const res = await fetch(`${demo.base}/1.9/search?${new URLSearchParams({ query: QUERY, pageSize: "1", userId })}`, {
    headers: { "X-Service-Store-ID": demo.keys.storeId, "X-Service-API-Key": demo.keys.searchKey },
  });
  expect(res.status, "GET /search").toBe(200);
  return ((await res.json()) as SearchAnswer).experiment?.variant;
}

/** A shopper id (as the head script makes them: lower-case letters and digits) in the named variant. */
async function shopperIn(demo: Demo, variant: string, prefix: string): Promise<string> {
  for (let i = 0; i < 200; i++) if ((await variantOf(demo, `${prefix}${i}`)) === variant) return `${prefix}${i}`;
  throw new Error(`no shopper found in variant ${variant}`);
}

/** The head script in this context takes `userId` as its shopper id (it keeps it in localStorage). */
async function asShopper(context: BrowserContext, userId: string): Promise<void> {
  await context.addInitScript((id) => {
    try {
      localStorage.setItem("sfs.uid", id);
    } catch {
      // a frame without storage (about:blank)
    }
  }, userId);
}

/** Searches on the store's results page and clicks the first result; answers the product shown first. */
async function searchAndClick(page: Page, demo: Demo, who: string): Promise<string> {
  await page.goto(searchPage(demo, QUERY));
  const first = (await loadedResults(page, `${who}'s search`)).cards[0]!.id;
  await page.locator('sfs-search-results sfs-product-card a[part="name-link"]').first().click();
  await page.waitForURL(/\/products\//);
  // Leaving the product page sends what the widget still holds (pagehide), as a shopper closing the tab does.
  await page.close({ runBeforeUnload: true });
  return first;
}

test("experiments: two shoppers in two variants of an A/B test search on the demo store, see different first results, and their clicks count in their own variants in the results and on /experiments", async ({
  browser,
  context,
  demo,
}) => {
  const run = randomUUID().slice(0, 8);
  const name = `e2e shoppers ${run}`;
  const ruleId = `e2e-exp-pin-${run}`;
  let experimentId: string | undefined;
  let other: BrowserContext | undefined;
  try {
    // The rule pins a product from further down the results first; only the "pinned" variant has it in force.
    const organic = await admin<{ products: { productId: string }[] }>(demo, "GET", `/search?query=${QUERY}&pageSize=6`);
    expect(organic.products.length, `the demo store finds several products for "${QUERY}"`).toBeGreaterThan(4);
    const pinnedId = organic.products[4]!.productId;
    await admin(demo, "PUT", `/rules/${ruleId}`, {
      conditions: [{ pattern: QUERY, anchoring: "is" }],
      consequence: { pins: [{ productId: pinnedId, position: 1 }] },
    });
    experimentId = (
      await admin<{ id: string }>(demo, "POST", "/experiments", {
        name,
        scope: { type: "query", pattern: QUERY, anchoring: "is" },
        mode: "ab",
        variants: [
          { name: "control", share: 50 },
          { name: "pinned", share: 50, overrides: { rules: [ruleId] } },
        ],
      })
    ).id;
    await admin(demo, "POST", `/experiments/${experimentId}/start`);

    const controlId = await shopperIn(demo, "control", `e2ec${run}`);
    const pinnedShopper = await shopperIn(demo, "pinned", `e2ep${run}`);
    await asShopper(context, controlId);
    other = await browser.newContext({ userAgent: PERSON });
    await asShopper(other, pinnedShopper);

    const controlFirst = await searchAndClick(await context.newPage(), demo, "the control's shopper");
    const pinnedFirst = await searchAndClick(await other.newPage(), demo, "the pinned variant's shopper");
    expect(pinnedFirst, "the pinned variant's shopper sees the pinned product first").toBe(pinnedId);
    // The control's shopper sees the store's own order, where the pinned product is further down.
    expect(controlFirst, "the control's shopper's first result").not.toBe(pinnedId);

    // The widget sent each click with the variant its answer named.
    const clicks = async () =>
      (await events(demo))
        .filter((e) => e.type === "ProductClick" && (e.userId === controlId || e.userId === pinnedShopper))
        .map((e) => `${e.userId}:${String(e.data.experimentId)}:${String(e.data.variant)}`)
        .sort();
    await expect
      .poll(clicks, { message: "each shopper's ProductClick names the experiment and their variant", timeout: 15_000 })
      .toEqual([`${controlId}:${experimentId}:control`, `${pinnedShopper}:${experimentId}:pinned`].sort());

    const perVariant = async () =>
      (await admin<ExperimentResults>(demo, "GET", `/experiments/${experimentId}/results`)).variants.map(
        (v) => `${v.name}: ${v.shoppers} shopper, ${v.clickThrough.shoppers} clicked`,
      );
    await expect
      .poll(perVariant, { message: "the results count one shopper and one click in each variant", timeout: 15_000 })
      .toEqual(["control: 1 shopper, 1 clicked", "pinned: 1 shopper, 1 clicked"]);

    // The staff page shows the same counts.
    const staff = await context.newPage();
    await openStaffPage(demo, staff, "/experiments");
    const row = staff.locator("#experiments-table tbody tr", { hasText: name });
    await row.getByRole("button", { name: `Results of experiment ${name}` }).click();
    for (const variant of ["control", "pinned"]) {
      const shown = staff.locator(`#results-table tr[data-variant="${variant}"]`);
      await expect(shown.locator(".shoppers"), `${variant}'s shoppers on the page`).toHaveText("1");
      await expect(shown.locator(".click-through strong"), `${variant}'s clicks on the page`).toContainText("(1)");
    }
  } finally {
    await other?.close();
    if (experimentId) {
      await admin(demo, "POST", `/experiments/${experimentId}/stop`).catch(() => {});
      await admin(demo, "DELETE", `/experiments/${experimentId}`).catch(() => {});
    }
    await admin(demo, "DELETE", `/rules/${ruleId}`).catch(() => {});
  }
});
