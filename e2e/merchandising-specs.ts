/*
 * Merchandising (issue 20) on the demo store: store staff make a synonym set and a rule on /merchandising (a
 * product picked from the catalog to pin, a banner), see its effect in the preview, save it, and a shopper meets
 * it: the banner over the results, the pinned product first; a redirect rule takes the shopper from the search
 * box to its page. What a spec creates is deleted after it.
 */
import type { Page } from "playwright-core";
import { assert, loadedResults, searchPage, waitFor, type Env, type Spec } from "./specs.ts";
import { admin, axeViolations, spec } from "./widget-pass-specs.ts";

async function remove(env: Env, paths: string[]): Promise<void> {
  for (const path of paths) await admin(env, "DELETE", path).catch(() => {});
}

/** Opens the page, signing in unless this tab already did (the key is in its sessionStorage). */
async function signIn(env: Env, page: Page): Promise<void> {
  await page.goto(`${env.base}/merchandising`);
  await page.locator("#workspace:not([hidden]), #sign-in:not([hidden])").first().waitFor();
  if (await page.locator("#workspace").isVisible()) return;
  await page.locator("#store-id").fill(env.keys.storeId);
  await page.locator("#admin-key").fill(env.keys.adminKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.locator("#workspace").waitFor();
}

/** The first banner's title and the first card's id on the results page. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector("sfs-search-results")?.shadowRoot;
    return { banner: root?.querySelector('[part~="banner-title"]')?.textContent?.trim() ?? null };
  });

/** Shoppers' sessions as the widget reports them: "sunnies" found nothing, "sunglasses" did, and a pair was clicked. */
async function rewordedSessions(env: Env, sunglassId: string, count: number): Promise<void> {
  const listing = { productIds: [], facets: [], pageSize: 24, sortBy: "", page: 1, region: "IN", language: "en", currency: "INR" };
  for (let i = 0; i < count; i++) {
    const who = { userId: `e2e-u${i}`, sessionId: `e2e-s${i}`, storeId: env.keys.storeId };
    const events = [
      { type: "Search", data: { ...listing, query: "sunnies", totalProducts: 0 }, ...who },
      { type: "Search", data: { ...listing, query: "sunglasses", productIds: [sunglassId], totalProducts: 1 }, ...who },
      { type: "ProductClick", data: { ...listing, query: "sunglasses", productIds: [sunglassId], clickProductId: sunglassId }, ...who },
    ];
    const res = await fetch(`${env.base}/1.9/tracking`, {
      method: "POST",
      headers: { "X-Service-Store-ID": env.keys.storeId, "X-Service-API-Key": env.keys.analyticsKey, "content-type": "application/json" },
      body: JSON.stringify(events),
    });
    assert(res.ok, `POST /tracking answered ${res.status}`);
  }
}

export const merchandisingSpecs: Spec[] = [
  {
    name: "merchandising: shoppers who reworded 'sunnies' teach the store; the page proposes 'sunnies → sunglasses' with its evidence, Accept saves it, and the store then finds sunglasses for 'sunnies'",
    async run(env) {
      try {
        const first = (await admin(env, "GET", `/search?query=sunglasses&pageSize=1`)) as { products: { productId: string }[] };
        await rewordedSessions(env, first.products[0]!.productId, 12);
        await admin(env, "POST", "/meaning/train");
        await spec(env, async (page) => {
          await signIn(env, page);
          const row = page.locator('#proposals-table tr[data-proposal="learned-sunnies"]');
          await waitFor(
            async () => {
              if (await row.count()) return true;
              await page.reload();
              await page.locator("#workspace").waitFor();
              return (await row.count()) > 0;
            },
            () => "no proposal for 'sunnies' on /merchandising",
            20_000,
          );
          const text = (await row.textContent()) ?? "";
          assert(/sunglass/.test(text) && /found nothing/.test(text), `the proposal reads "${text}"`);
          await row.getByRole("button", { name: /^Accept / }).click();
          await page.locator('#synonyms-table tr[data-synonym="learned-sunnies"]').waitFor();
          await waitFor(
            async () => (await row.count()) === 0,
            () => "the accepted proposal is still offered",
          );
          await page.goto(searchPage(env, "sunnies"));
          const shown = await loadedResults(page, "sunnies");
          assert(
            shown.total > 0 && shown.cards.filter((c) => /sunglass/i.test(c.name)).length * 2 >= shown.cards.length,
            `'sunnies' shows ${shown.cards.map((c) => c.name).join(", ")}`,
          );
        });
      } finally {
        await remove(env, ["/synonyms/learned-sunnies"]);
      }
    },
  },
  {
    name: "merchandising: on /merchandising a synonym set and a rule made with the form (a product found with the picker pinned first, a banner); the preview shows it beside the live order; no axe-core violation; saved, the store shows the banner and the pinned product first",
    async run(env) {
      try {
        await spec(env, async (page) => {
          const response = await page.goto(`${env.base}/merchandising`);
          assert(
            /script-src 'self'/.test(response?.headers()["content-security-policy"] ?? ""),
            "the merchandising page has no strict Content-Security-Policy",
          );
          await signIn(env, page);

          await page.locator("#synonym-id").fill("e2e-knitwear");
          await page.locator("#synonym-words").fill("jumper, sweater, pullover");
          await page.getByRole("button", { name: "Save synonyms" }).click();
          await page.locator('#synonyms-table tr[data-synonym="e2e-knitwear"]').waitFor();
          const stored = await admin(env, "GET", "/synonyms/e2e-knitwear");
          assert(
            JSON.stringify(stored.synonyms) === JSON.stringify(["jumper", "sweater", "pullover"]),
            `the synonyms saved are ${JSON.stringify(stored)}`,
          );

          await page.getByRole("button", { name: "New rule" }).click();
          await page.locator("#rule-id").fill("e2e-jackets");
          await page.locator("#rule-anchoring").selectOption("contains");
          await page.locator("#rule-pattern").fill("jackets");
          // A shirt: certainly not what "jackets" shows first.
          await page.locator("#picker-query").fill("shirt");
          const found = page.locator("#picker-results li").first();
          await found.getByRole("button", { name: /^Pin / }).waitFor();
          const label = (await found.locator("span").textContent()) ?? "";
          const pinnedId = /\(([^()]+)\)$/.exec(label)?.[1] ?? "";
          assert(pinnedId, `the picker's line "${label}" names no product id`);
          await found.getByRole("button", { name: /^Pin / }).click();
          await page.locator("#pins li").first().waitFor();
          await page.locator("#banner-title").fill("The winter edit");
          await page.locator("#banner-link").fill("/search-results?q=coats");

          await page.locator("#preview-query").fill("jackets");
          await page.getByRole("button", { name: "Preview" }).click();
          const firstDraft = page.locator("#preview-draft li").first();
          await page.locator("#preview-draft li.pinned").waitFor();
          assert(((await firstDraft.textContent()) ?? "").includes(pinnedId), `the preview's first product is not the pinned ${pinnedId}`);
          assert(
            ((await page.locator("#preview-draft .banner").textContent()) ?? "").includes("The winter edit"),
            "the preview shows no banner",
          );
          const firstLive = (await page.locator("#preview-live li").first().textContent()) ?? "";
          assert(!firstLive.includes(pinnedId), "the live order already had the pinned product first");
          const before = await admin(env, "GET", "/rules?limit=1000");
          assert(!(before.rules as { id: string }[]).some((r) => r.id === "e2e-jackets"), "the preview saved the rule");

          await page.getByRole("button", { name: "Save rule" }).click();
          await page.locator('#rules-table tr[data-rule="e2e-jackets"]').waitFor();
          const violations = await axeViolations(page);
          assert(violations.length === 0, `axe-core on the merchandising page: ${violations.join("; ")}`);

          await page.goto(searchPage(env, "jackets"));
          const r = await loadedResults(page, "jackets with the rule");
          assert(r.cards[0]?.id === pinnedId, `the first card is ${r.cards[0]?.id}, not the pinned ${pinnedId}`);
          const { banner } = await waitFor(
            async () => ((await shown(page)).banner ? shown(page) : null),
            () => "no banner over the results",
          );
          assert(banner === "The winter edit", `the banner says "${banner}"`);

          // Disabled from the list: the store goes back to its own order.
          await signIn(env, page);
          await page.getByRole("checkbox", { name: "Rule e2e-jackets enabled" }).uncheck();
          await waitFor(
            async () => (await admin(env, "GET", "/rules/e2e-jackets")).enabled === false || null,
            () => "the rule was not disabled",
          );
          await page.goto(searchPage(env, "jackets"));
          const after = await loadedResults(page, "jackets without the rule");
          assert(after.cards[0]?.id !== pinnedId && (await shown(page)).banner === null, "a disabled rule still acts");
        });
      } finally {
        await remove(env, ["/rules/e2e-jackets", "/synonyms/e2e-knitwear"]);
      }
    },
  },
  {
    name: "merchandising: a redirect rule takes a shopper who searches 'gift card' from the home page's search box to the rule's page",
    async run(env) {
      await admin(env, "PUT", "/rules/e2e-gift-card", {
        conditions: [{ pattern: "gift card", anchoring: "is" }],
        consequence: { redirect: "/cart" },
      });
      try {
        await spec(env, async (page) => {
          await page.goto(`${env.base}/`);
          const box = page.locator("input[type=search]").first();
          await box.fill("gift card");
          await page.waitForTimeout(600); // the typeahead's answer, which carries the redirect
          await box.press("Enter");
          await page.waitForURL((url) => url.pathname === "/cart", { timeout: 10_000 });
          // From the results page too (a link or a bookmark to the search), without the typeahead.
          await page.goto(searchPage(env, "gift card"));
          await page.waitForURL((url) => url.pathname === "/cart", { timeout: 10_000 });
        });
      } finally {
        await remove(env, ["/rules/e2e-gift-card"]);
      }
    },
  },
];
