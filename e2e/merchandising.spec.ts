/*
 * Merchandising (issue 20) on the demo store: store staff make a synonym set and a rule on /merchandising (a
 * product picked from the catalog to pin, a banner), see its effect in the preview, save it, and a shopper meets
 * it: the banner over the results, the pinned product first; a redirect rule takes the shopper from the search
 * box to its page. What a test creates carries an id of its own and is deleted after it.
 */
import { randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { axeViolations } from "./support/axe.ts";
import { openStaffPage } from "./support/staff-page.ts";
import { expect, test, type Demo } from "./support/fixtures.ts";
import { admin, loadedResults, searchPage } from "./support/shop.ts";

/** An id no other test, nor an earlier run against the same store, uses. */
const uniqueId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

async function remove(demo: Demo, paths: string[]): Promise<void> {
  for (const path of paths) await admin(demo, "DELETE", path).catch(() => {});
}

/** The first banner's title on the results page, or null. */
const bannerShown = (page: Page) =>
  page.evaluate(
    () => document.querySelector("sfs-search-results")?.shadowRoot?.querySelector('[part~="banner-title"]')?.textContent?.trim() ?? null,
  );

/** Shoppers' sessions as the widget reports them: "sunnies" found nothing, "sunglasses" did, and a pair was clicked. */
async function rewordedSessions(demo: Demo, sunglassId: string, count: number): Promise<void> {
  const listing = { productIds: [], facets: [], pageSize: 24, sortBy: "", page: 1, region: "IN", language: "en", currency: "INR" };
  const run = randomUUID().slice(0, 8);
  for (let i = 0; i < count; i++) {
    const who = { userId: `e2e-${run}-u${i}`, sessionId: `e2e-${run}-s${i}`, storeId: demo.keys.storeId };
    const events = [
      { type: "Search", data: { ...listing, query: "sunnies", totalProducts: 0 }, ...who },
      { type: "Search", data: { ...listing, query: "sunglasses", productIds: [sunglassId], totalProducts: 1 }, ...who },
      { type: "ProductClick", data: { ...listing, query: "sunglasses", productIds: [sunglassId], clickProductId: sunglassId }, ...who },
    ];
    const res = await fetch(`${demo.base}/1.9/tracking`, {
      method: "POST",
      headers: { "X-Service-Store-ID": demo.keys.storeId, "X-Service-API-Key": demo.keys.analyticsKey, "content-type": "application/json" },
      body: JSON.stringify(events),
    });
    expect(res.status, "POST /tracking").toBeLessThan(300);
  }
}

test("merchandising: shoppers who reworded 'sunnies' teach the store; the page proposes 'sunnies → sunglasses' with its evidence, Accept saves it, and the store then finds sunglasses for 'sunnies'", async ({
  page,
  demo,
}) => {
  try {
    const first = await admin<{ products: { productId: string }[] }>(demo, "GET", "/search?query=sunglasses&pageSize=1");
    await rewordedSessions(demo, first.products[0]!.productId, 12);
    await admin(demo, "POST", "/meaning/train");
    await openStaffPage(demo, page, "/merchandising");
    // The service names a learned synonym set after the query it was learned from.
    const row = page.locator('#proposals-table tr[data-proposal="learned-sunnies"]');
    await expect(async () => {
      if (!(await row.count())) {
        await page.reload();
        await expect(page.locator("#workspace")).toBeVisible();
      }
      await expect(row).toHaveCount(1, { timeout: 1_000 });
    }, "a proposal for 'sunnies' on /merchandising").toPass({ timeout: 20_000 });
    await expect(row).toContainText("found nothing");
    await expect(row).toContainText("sunglass");
    await row.getByRole("button", { name: /^Accept / }).click();
    await expect(page.locator('#synonyms-table tr[data-synonym="learned-sunnies"]')).toBeVisible();
    await expect(row, "the accepted proposal is no longer offered").toHaveCount(0);
    await page.goto(searchPage(demo, "sunnies"));
    const shown = await loadedResults(page, "sunnies");
    expect(
      shown.cards.filter((c) => /sunglass/i.test(c.name)).length * 2,
      `'sunnies' shows ${shown.cards.map((c) => c.name).join(", ")}`,
    ).toBeGreaterThanOrEqual(shown.cards.length);
  } finally {
    await remove(demo, ["/synonyms/learned-sunnies"]);
  }
});

test("merchandising: on /merchandising a synonym set and a rule made with the form (a product found with the picker pinned first, a banner); the preview shows it beside the live order; no axe-core violation; saved, the store shows the banner and the pinned product first", async ({
  page,
  demo,
}) => {
  const synonymId = uniqueId("e2e-knitwear");
  const ruleId = uniqueId("e2e-jackets");
  try {
    const response = await page.goto(`${demo.base}/merchandising`);
    expect(response?.headers()["content-security-policy"] ?? "", "the merchandising page's Content-Security-Policy").toMatch(
      /script-src 'self'/,
    );
    await openStaffPage(demo, page, "/merchandising");

    await page.locator("#synonym-id").fill(synonymId);
    await page.locator("#synonym-words").fill("jumper, sweater, pullover");
    await page.getByRole("button", { name: "Save synonyms" }).click();
    await expect(page.locator(`#synonyms-table tr[data-synonym="${synonymId}"]`)).toBeVisible();
    const stored = await admin(demo, "GET", `/synonyms/${synonymId}`);
    expect(stored.synonyms, "the synonyms saved").toEqual(["jumper", "sweater", "pullover"]);

    await page.getByRole("button", { name: "New rule" }).click();
    await page.locator("#rule-id").fill(ruleId);
    await page.locator("#rule-anchoring").selectOption("contains");
    await page.locator("#rule-pattern").fill("jackets");
    // A shirt: certainly not what "jackets" shows first.
    await page.locator("#picker-query").fill("shirt");
    const found = page.locator("#picker-results li").first();
    await expect(found.getByRole("button", { name: /^Pin / })).toBeVisible();
    const label = (await found.locator("span").textContent()) ?? "";
    const pinnedId = /\(([^()]+)\)$/.exec(label)?.[1] ?? "";
    expect(pinnedId, `the product id in the picker's line "${label}"`).not.toBe("");
    await found.getByRole("button", { name: /^Pin / }).click();
    await expect(page.locator("#pins li").first()).toBeVisible();
    await page.locator("#banner-title").fill("The winter edit");
    await page.locator("#banner-link").fill("/search-results?q=coats");

    await page.locator("#preview-query").fill("jackets");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect(page.locator("#preview-draft li.pinned").first()).toBeVisible();
    await expect(page.locator("#preview-draft li").first(), "the preview's first product is the pinned one").toContainText(pinnedId);
    await expect(page.locator("#preview-draft .banner")).toContainText("The winter edit");
    await expect(page.locator("#preview-live li").first(), "the live order's first product").not.toContainText(pinnedId);
    const before = await admin<{ rules: { id: string }[] }>(demo, "GET", "/rules?limit=1000");
    expect(
      before.rules.map((r) => r.id),
      "rules saved by the preview",
    ).not.toContain(ruleId);

    await page.getByRole("button", { name: "Save rule" }).click();
    await expect(page.locator(`#rules-table tr[data-rule="${ruleId}"]`)).toBeVisible();
    expect(await axeViolations(page), "axe-core on the merchandising page").toEqual([]);

    await page.goto(searchPage(demo, "jackets"));
    const r = await loadedResults(page, "jackets with the rule");
    expect(r.cards[0]?.id, "the first card").toBe(pinnedId);
    await expect.poll(() => bannerShown(page), { message: "the banner over the results" }).toBe("The winter edit");

    // Disabled from the list: the store goes back to its own order.
    await openStaffPage(demo, page, "/merchandising");
    await page.getByRole("checkbox", { name: `Rule ${ruleId} enabled` }).uncheck();
    await expect.poll(async () => (await admin(demo, "GET", `/rules/${ruleId}`)).enabled, { message: "the rule is disabled" }).toBe(false);
    await page.goto(searchPage(demo, "jackets"));
    const after = await loadedResults(page, "jackets without the rule");
    expect(after.cards[0]?.id, "the first card under a disabled rule").not.toBe(pinnedId);
    expect(await bannerShown(page), "the banner under a disabled rule").toBeNull();
  } finally {
    await remove(demo, [`/rules/${ruleId}`, `/synonyms/${synonymId}`]);
  }
});

test("merchandising: a redirect rule takes a shopper who searches 'gift card' from the home page's search box to the rule's page", async ({
  page,
  demo,
}) => {
  const ruleId = uniqueId("e2e-gift-card");
  await admin(demo, "PUT", `/rules/${ruleId}`, {
    conditions: [{ pattern: "gift card", anchoring: "is" }],
    consequence: { redirect: "/cart" },
  });
  try {
    await page.goto(`${demo.base}/`);
    const box = page.locator("input[type=search]").first();
    await box.fill("gift card");
    await page.waitForTimeout(600); // the typeahead's answer, which carries the redirect
    await box.press("Enter");
    await page.waitForURL((url) => url.pathname === "/cart");
    // From the results page too (a link or a bookmark to the search), without the typeahead.
    await page.goto(searchPage(demo, "gift card"));
    await page.waitForURL((url) => url.pathname === "/cart");
  } finally {
    await remove(demo, [`/rules/${ruleId}`]);
  }
});
