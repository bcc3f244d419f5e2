/*
 * Experiments (issue 40) on the demo store's /experiments page: store staff create an A/B test with the form (a
 * query scope of its own, two variants, one turning behaviour ranking off), estimate its sample size, and start it
 * from the list; simulated shoppers then search the experiment's query and some click, through POST /tracking with
 * the analytics key as the widget sends them; the page's results show each variant's shoppers, searches and clicks
 * as the results API counts them. Staff then stop it and end it with the control as the winner, which changes no
 * setting of the store.
 */
import { randomUUID } from "node:crypto";
import type { Experiment, ExperimentList, ExperimentResults } from "@storefront-search/contract";
import { axeViolations } from "./support/axe.ts";
import { openStaffPage } from "./support/staff-page.ts";
import { expect, test, type Demo } from "./support/fixtures.ts";
import { admin } from "./support/shop.ts";

const SHOPPERS = 40;

/** Shoppers who search `query` and find a product; every third one clicks it. Answers how many clicked. */
async function shoppersSearch(demo: Demo, query: string, productId: string): Promise<number> {
  const listing = {
    query,
    productIds: [productId],
    facets: [],
    pageSize: 24,
    sortBy: "",
    page: 1,
    region: "IN",
    language: "en",
    currency: "INR",
  };
  const run = randomUUID().slice(0, 8);
  let clicked = 0;
  const events = Array.from({ length: SHOPPERS }, (_, i) => {
    const who = { userId: `e2e-exp-${run}-u${i}`, sessionId: `e2e-exp-${run}-s${i}`, storeId: demo.keys.storeId };
    const search = { type: "Search", data: { ...listing, totalProducts: 1 }, ...who };
    if (i % 3) return [search];
    clicked++;
    return [search, { type: "ProductClick", data: { ...listing, clickProductId: productId }, ...who }];
  }).flat();
  const res = await fetch(`${demo.base}/1.9/tracking`, {
    method: "POST",
    headers: { "X-Service-Store-ID": demo.keys.storeId, "X-Service-API-Key": demo.keys.analyticsKey, "content-type": "application/json" },
    body: JSON.stringify(events),
  });
  expect(res.status, "POST /tracking").toBeLessThan(300);
  return clicked;
}

test("experiments: on /experiments staff create an A/B test with the form, estimate its shoppers and start it; shoppers' searches and clicks sent through tracking show up per variant in its results; no axe-core violation; stopped and ended with the control as the winner", async ({
  page,
  demo,
}) => {
  const name = `e2e experiment ${randomUUID().slice(0, 8)}`;
  const query = `e2e ${randomUUID().slice(0, 8)} dress`;
  let created: Experiment | undefined;
  try {
    const response = await page.goto(`${demo.base}/experiments`);
    expect(response?.headers()["content-security-policy"] ?? "", "the page's Content-Security-Policy").toMatch(/script-src 'self'/);
    await openStaffPage(demo, page, "/experiments");

    await page.getByRole("button", { name: "New experiment" }).click();
    await page.locator("#experiment-name").fill(name);
    await page.locator("#scope-type").selectOption("query");
    await page.locator("#scope-anchoring").selectOption("is");
    await page.locator("#scope-pattern").fill(query);
    const variants = page.locator("#variants fieldset");
    await expect(variants).toHaveCount(2);
    await variants.nth(1).getByLabel("Name").fill("plain");
    await variants.nth(1).getByLabel("Behaviour ranking").selectOption("off");
    await variants.nth(1).getByLabel("Other overrides (JSON)").fill('{ "settings": { "newnessDays": 14 } }');
    expect(await axeViolations(page), "axe-core on the experiments page with the form open").toEqual([]);
    await page.getByRole("button", { name: "Create experiment" }).click();

    const row = page.locator("#experiments-table tbody tr", { hasText: name });
    await expect(row).toContainText("draft");
    const { experiments } = await admin<ExperimentList>(demo, "GET", "/experiments");
    created = experiments.find((e) => e.name === name);
    expect(created?.scope, "the scope saved").toEqual({ type: "query", pattern: query, anchoring: "is" });
    expect(created?.variants[1], "the second variant saved").toEqual({
      name: "plain",
      share: 50,
      overrides: { settings: { newnessDays: 14, behaviourRanking: false } },
    });

    // The draft is open: its sample size at the form's defaults (3% → 3.3%, 1,000 shoppers a day).
    await expect(page.locator("#detail-title")).toHaveText(name);
    await page.getByRole("button", { name: "Estimate" }).click();
    await expect(page.locator("#sample-size-answer")).toContainText("shoppers per variant");

    await row.getByRole("button", { name: `Start experiment ${name}` }).click();
    await expect(row.locator(".status")).toHaveText("running");
    await expect(page.locator("#results")).toBeVisible();
    await expect(page.locator("#results-mode")).toContainText("A/B test");

    const { products } = await admin<{ products: { productId: string }[] }>(demo, "GET", "/search?query=dress&pageSize=1");
    const clicked = await shoppersSearch(demo, query, products[0]!.productId);
    await page.getByRole("button", { name: "Refresh results" }).click();

    const counted = await admin<ExperimentResults>(demo, "GET", `/experiments/${created!.id}/results`);
    expect(
      counted.variants.reduce((n, v) => n + v.shoppers, 0),
      "shoppers counted in the experiment",
    ).toBe(SHOPPERS);
    expect(counted.variants.reduce((n, v) => n + v.clickThrough.shoppers, 0)).toBe(clicked);
    for (const v of counted.variants) {
      const shown = page.locator(`#results-table tr[data-variant="${v.name}"]`);
      await expect(shown.locator(".shoppers"), `${v.name}'s shoppers on the page`).toHaveText(String(v.shoppers));
      await expect(shown.locator(".searches"), `${v.name}'s searches on the page`).toHaveText(String(v.searches));
      await expect(shown.locator(".click-through strong"), `${v.name}'s clicks on the page`).toContainText(`(${v.clickThrough.shoppers})`);
    }
    await expect(page.locator('#results-table tr[data-variant="plain"] .click-through .vs')).toContainText("p ");
    expect(await axeViolations(page), "axe-core on the experiments page with results").toEqual([]);

    // Stopped from the list, then ended with the control, which overrides nothing, so the store stays as it was.
    page.on("dialog", (dialog) => void dialog.accept());
    await row.getByRole("button", { name: `Stop experiment ${name}` }).click();
    await expect(row.locator(".status")).toHaveText("stopped");
    await page.locator("#winner").selectOption("control");
    await page.getByRole("button", { name: "End the experiment" }).click();
    await expect(row.locator(".status")).toHaveText("ended: control won");
    await expect(page.locator("#status")).toContainText("No settings to apply.");
    await expect(page.locator("#end"), "an ended experiment cannot end again").toBeHidden();
    expect((await admin<Experiment>(demo, "GET", `/experiments/${created!.id}`)).winner).toBe("control");
  } finally {
    if (created) {
      await admin(demo, "POST", `/experiments/${created.id}/stop`).catch(() => {});
      await admin(demo, "DELETE", `/experiments/${created.id}`).catch(() => {});
    }
  }
});
