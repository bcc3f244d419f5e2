/*
 * The widget pass (issue 16): what a shopper and a designer saw on the demo store, each as a check, and axe-core
 * (from node_modules) on the results page, the open typeahead, the similar carousel and the look popup. Each spec
 * opens its own browser context (a new shopper with nothing cached), so the store's settings a spec changes are
 * read fresh and put back.
 */
import { readFileSync } from "node:fs";
import { wcagContrast } from "culori";
import type { BrowserContext, Page } from "playwright-core";
import { assert, loadedResults, searchPage, waitFor, type Env, type Spec } from "./specs.ts";

const AXE = readFileSync(Bun.resolveSync("axe-core/axe.min.js", import.meta.dir), "utf8");
/** WCAG 2.0–2.2 A and AA, and axe's best practices (heading order, landmarks), which the issue counted too. */
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice"];
const MAX_LAYOUT_SHIFT = 0.02;

/** Requests to anywhere but the demo store and the service (fonts, images, scripts from elsewhere). */
const outside = new Set<string>();

async function shopper(env: Env, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext({ viewport });
  context.setDefaultTimeout(10_000);
  const origin = new URL(env.base).origin;
  context.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) outside.add(r.url());
  });
  // Layout shift as the Core Web Vitals count it: shifts not caused by the shopper's input, summed.
  await context.addInitScript(() => {
    const w = window as unknown as { sfsShift: number };
    w.sfsShift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!e.hadRecentInput) w.sfsShift += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  const page = await context.newPage();
  page.on("pageerror", (e) => env.pageErrors.push(String(e)));
  return { context, page };
}

export async function spec(
  env: Env,
  run: (page: Page, context: BrowserContext) => Promise<void>,
  viewport?: { width: number; height: number },
) {
  const { context, page } = await shopper(env, viewport);
  try {
    await run(page, context);
  } finally {
    // Closed as a shopper closes a tab: pagehide sends the widget's last events. Chromium's headless shell
    // fires no pagehide when a whole context closes, so each page closes first.
    for (const open of context.pages()) await Promise.all([open.waitForEvent("close"), open.close({ runBeforeUnload: true })]);
    await context.close();
  }
}

const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { sfsShift: number }).sfsShift);

export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through DevTools rather than added as a script tag, which a page's strict CSP would refuse.
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE);
  return page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const { violations } = await axe.run(document, { runOnly: { type: "tag", values: tags } });
    return violations.map(
      (v) =>
        `${v.id} on ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(" "))
          .join(" | ")}`,
    );
  }, AXE_TAGS);
}

export async function admin(env: Env, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${env.base}/1.9${path}`, {
    method,
    headers: { "X-Service-Store-ID": env.keys.storeId, "X-Service-API-Key": env.keys.adminKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Runs `fn` with some of the store's settings changed, and puts them back after. */
async function withSettings(env: Env, patch: Record<string, unknown>, fn: () => Promise<void>) {
  const before = await admin(env, "GET", "/settings");
  await admin(env, "PATCH", "/settings", patch);
  try {
    await fn();
  } finally {
    await admin(env, "PATCH", "/settings", Object.fromEntries(Object.keys(patch).map((k) => [k, before[k] ?? null])));
  }
}

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

export const widgetPassSpecs: Spec[] = [
  {
    name: "widget pass: the first search goes out with the configuration; results arrive with layout shift ≤ 0.02 on desktop and phone, no sideways scroll, names clamped to two lines (full name in the title), even card heights",
    async run(env) {
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await spec(
          env,
          async (page) => {
            await page.goto(searchPage(env, "shirt"));
            await loadedResults(page, `shirt at ${viewport.width}px`);
            const timing = await page.evaluate(() => {
              const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
              const config = entries.find((e) => e.name.includes("/widget-config"));
              const search = entries.find((e) => e.name.includes("/1.9/search?"));
              return { searchStart: search?.startTime ?? NaN, configEnd: config?.responseEnd ?? NaN };
            });
            assert(
              timing.searchStart < timing.configEnd,
              `the search started at ${timing.searchStart} ms, after the configuration arrived (${timing.configEnd} ms)`,
            );
            await page.waitForTimeout(300);
            const shift = await layoutShift(page);
            assert(shift <= MAX_LAYOUT_SHIFT, `layout shift ${shift.toFixed(4)} at ${viewport.width}px (at most ${MAX_LAYOUT_SHIFT})`);
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
            assert(overflow <= 1, `the page scrolls sideways by ${overflow}px at ${viewport.width}px`);
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
              assert(c.height <= 2 * c.line + 1, `"${c.text}" takes ${c.height}px, more than two lines of ${c.line}px`);
              assert(c.title === c.text, `the name's title "${c.title}" is not the full name "${c.text}"`);
            }
            assert(
              cards.some((c) => c.text.length > 40),
              "no long name to see clamped",
            );
            for (const top of new Set(cards.map((c) => c.top))) {
              const heights = cards.filter((c) => c.top === top).map((c) => c.cardHeight);
              assert(Math.max(...heights) - Math.min(...heights) <= 1, `cards of the row at ${top}px have heights ${heights.join(", ")}`);
            }
          },
          viewport,
        );
      }
    },
  },
  {
    name: "widget pass: facets follow the store's settings (which, order, names, values shown); groups collapse; a long list has a filter box and a bounded scroll; a selected value stays in sight",
    async run(env) {
      const facets = [{ key: "designer", names: { en: "Label of the brand" }, shownValues: 3 }, { key: "color" }, { key: "price" }];
      await withSettings(env, { facets }, () =>
        spec(env, async (page) => {
          await page.goto(searchPage(env, "shirt"));
          await loadedResults(page, "shirt");
          const facet = page.locator('sfs-search-results sfs-facets [part~="facet"][data-key="designer"]');
          const titles = await page.locator('sfs-search-results sfs-facets [part~="facet-toggle"] > span:first-child').allTextContents();
          assert(
            JSON.stringify(titles) === JSON.stringify(["Label of the brand", "Colour", "Price"]),
            `facet groups: ${titles.join(" | ")}`,
          );
          const labels = () => facet.locator('[part~="value-label"]').allTextContents();
          assert((await labels()).length === 3, `the brand shows ${(await labels()).length} values, not 3`);
          await facet.locator('[part~="show-more"]').click();
          const list = await facet.locator('[part~="values"]').evaluate((ul) => ({ client: ul.clientHeight, scroll: ul.scrollHeight }));
          assert(
            list.scroll > list.client && list.client <= 16 * 16 + 1,
            `the whole brand list is ${list.client}px high showing ${list.scroll}px: not a bounded scroll`,
          );
          const filter = facet.locator('input[part~="filter"]');
          await filter.fill("an");
          const matching = await labels();
          assert(
            matching.length > 0 && matching.every((l) => l.toLowerCase().includes("an")),
            `the filter box shows ${matching.join(", ")}`,
          );
          const chosen = matching.at(-1)!;
          await facet.locator('[part~="value"]', { hasText: chosen }).locator("input").check();
          await waitFor(
            () => new URL(page.url()).searchParams.get("facets")?.startsWith("designer:"),
            () => `no designer facet in ${page.url()}`,
          );
          await loadedResults(page, "shirt with a brand");
          await filter.fill("");
          if ((await facet.locator('[part~="show-more"]').getAttribute("aria-expanded")) === "true")
            await facet.locator('[part~="show-more"]').click();
          await waitFor(
            async () => (await labels()).includes(chosen),
            () => `the selected "${chosen}" is out of sight: ${labels()}`,
          );
          const toggle = page.locator('sfs-search-results sfs-facets [part~="facet"][data-key="color"] [part~="facet-toggle"]');
          const open = await toggle.getAttribute("aria-expanded");
          await toggle.click();
          assert((await toggle.getAttribute("aria-expanded")) !== open, "the colour group's button does not open or collapse it");
        }),
      );
      // With the default settings a broad query no longer opens every group.
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "shirt"));
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
        assert(
          shown.open <= 4 && shown.boxes <= 40,
          `"shirt" opens ${shown.open} of ${shown.groups} groups with ${shown.boxes} checkboxes`,
        );
      });
    },
  },
  {
    name: "widget pass: loading, empty and error states take the full width with layout shift ≤ 0.02; zero results offer the correction, popular queries and 'Clear filters'; an error offers a retry; a configuration that fails still shows results",
    async run(env) {
      await withSettings(env, { widget: { popularQueries: ["jeans", "kurta"] } }, async () => {
        await spec(env, async (page) => {
          // Loading: the facet column and the grid are placeholders where they will be.
          let release = () => {};
          const held = new Promise<void>((resolve) => (release = resolve));
          await page.route("**/1.9/search?*", async (route) => {
            await held;
            await route.continue();
          });
          await page.goto(searchPage(env, "shirt"));
          await page.locator('sfs-search-results [part~="facets-skeleton"]').waitFor();
          assert((await page.locator('sfs-search-results [part~="skeleton"]').count()) > 0, "no placeholder cards while loading");
          release();
          await loadedResults(page, "shirt after a slow answer");
          await page.unroute("**/1.9/search?*");
          await page.waitForTimeout(300);
          const loadingShift = await layoutShift(page);
          assert(loadingShift <= MAX_LAYOUT_SHIFT, `layout shift ${loadingShift.toFixed(4)} from placeholders to results`);

          // Nothing found (a misspelling with a filter that matches nothing).
          await page.goto(`${searchPage(env, "jeanz")}&facets=${encodeURIComponent("designer:No such brand")}`);
          await page.locator('sfs-search-results [part~="empty"]').waitFor();
          assert((await widthOf(page, "empty")) > 0.95, "the empty state does not take the full width");
          assert((await page.locator('sfs-search-results [part~="sidebar"]').count()) === 0, "a facet column beside the empty state");
          // The misspelling was corrected: the state says so and offers the words as typed.
          const corrected = (await page.locator('sfs-search-results [part~="corrected"]').textContent())?.trim() ?? "";
          assert(corrected.includes("“jeans”") && corrected.includes("“jeanz”"), `the correction reads "${corrected}"`);
          const popular = await page.locator('sfs-search-results [part~="popular-link"]').allTextContents();
          assert(JSON.stringify(popular) === JSON.stringify(["jeans", "kurta"]), `popular queries: ${popular.join(", ")}`);
          const emptyShift = await layoutShift(page);
          assert(emptyShift <= MAX_LAYOUT_SHIFT, `layout shift ${emptyShift.toFixed(4)} on the empty state`);
          await page.locator('sfs-search-results [part~="clear-filters"]').click();
          await waitFor(
            () => !new URL(page.url()).searchParams.has("facets"),
            () => `'Clear filters' left ${page.url()}`,
          );
          await loadedResults(page, "jeanz without filters");

          // Search down: an error state with a retry.
          await page.route("**/1.9/search?*", (route) =>
            route.fulfill({ status: 500, contentType: "application/json", body: '{"message":"down","code":"internal_error"}' }),
          );
          await page.goto(searchPage(env, "shirt"));
          await page.locator('sfs-search-results [part~="error"][role="alert"]').waitFor();
          assert((await widthOf(page, "error")) > 0.95, "the error state does not take the full width");
          const errorShift = await layoutShift(page);
          assert(errorShift <= MAX_LAYOUT_SHIFT, `layout shift ${errorShift.toFixed(4)} on the error state`);
          await page.unroute("**/1.9/search?*");
          await page.locator('sfs-search-results [part~="retry-button"]').click();
          await loadedResults(page, "shirt after 'Try again'");
        });
      });
      // The configuration cannot be read: results with the defaults all the same.
      await spec(env, async (page) => {
        await page.route("**/1.9/widget-config", (route) =>
          route.fulfill({ status: 503, contentType: "application/json", body: '{"message":"down","code":"unavailable"}' }),
        );
        await page.goto(searchPage(env, "shirt"));
        await loadedResults(page, "shirt without a configuration");
      });
    },
  },
  {
    name: "widget pass: the store's search box holds the query under 'Results for …'; the skip link and the sort are a few Tab presses away; the skip link lands on the results",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(searchPage(env, "shirt"));
        await loadedResults(page, "shirt");
        assert((await page.locator("#store-search-input").inputValue()) === "shirt", "the store's search box does not hold the query");
        const heading = (await page.locator('sfs-search-results h2[part~="heading"]').textContent())?.trim();
        assert(heading === "Results for “shirt”", `the heading is "${heading}"`);
        let presses = 0;
        const reached: string[] = [];
        while (presses < 40 && !reached.includes("select")) {
          await page.keyboard.press("Tab");
          presses++;
          reached.push(await focused(page));
        }
        assert(reached.includes("skip-link") && presses <= 10, `the sort took ${presses} Tab presses (${reached.join(", ")})`);
        await page.goto(searchPage(env, "shirt"));
        await loadedResults(page, "shirt");
        for (let i = 0; i < 20 && (await focused(page)) !== "skip-link"; i++) await page.keyboard.press("Tab");
        await page.keyboard.press("Enter");
        assert((await focused(page)) === "main", `the skip link moved the focus to ${await focused(page)}`);
        await page.keyboard.press("Tab");
        const next = await focused(page);
        assert(["name-link", "suggestion-link", "image-link"].includes(next), `after the skip link, Tab goes to ${next}, not the results`);
      });
    },
  },
  {
    name: "widget pass: on a phone the filter button counts the active filters and the drawer says 'Show N results'",
    async run(env) {
      await spec(
        env,
        async (page) => {
          await page.goto(searchPage(env, "shirt"));
          await loadedResults(page, "shirt on a phone");
          const button = page.locator('sfs-search-results [part~="filter-button"]');
          await button.click();
          const drawer = page.locator('sfs-search-results dialog[part~="drawer"]');
          await drawer.locator('input[part~="checkbox"]').first().check();
          await waitFor(
            async () => (await page.locator('sfs-search-results [part~="filter-count"]').textContent())?.trim() === "1",
            () => "the filter button does not count 1 active filter",
          );
          const apply = drawer.locator('[part~="drawer-apply"]');
          let said = "";
          let count = "";
          await waitFor(
            async () => {
              said = (await apply.textContent())?.trim() ?? "";
              count = (await page.locator('sfs-search-results p[part~="count"]').textContent())?.trim() ?? "";
              return said === `Show ${count.replace(/\s*results?$/, "")} results` && count !== "";
            },
            () => `the drawer's button says "${said}" for "${count}"`,
          );
          await apply.click();
          assert(!(await drawer.evaluate((d) => (d as HTMLDialogElement).open)), "'Show N results' left the drawer open");
        },
        { width: 390, height: 844 },
      );
    },
  },
  {
    name: "widget pass: the typeahead says it is searching and when nothing matches; its active option has a ring of 3:1 or more",
    async run(env) {
      await spec(env, async (page) => {
        await page.goto(env.base + "/");
        const input = page.locator("#store-search-input");
        const status = page.locator('sfs-typeahead [part~="status"]');
        let release = () => {};
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route("**/1.9/suggestions?*", async (route) => {
          await held;
          await route.continue();
        });
        // Typed before the head script attached the typeahead, the keystrokes would reach no listener.
        await page.locator('#store-search-input[role="combobox"]').waitFor();
        await input.pressSequentially("shir");
        let said: string | null = "";
        await waitFor(
          async () => (said = await status.textContent()) === "Searching…",
          () => `the typeahead shows "${said}" while searching`,
        );
        release();
        await page.locator("sfs-typeahead-option").first().waitFor();
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
        assert(
          ratio >= 3 && parseFloat(ring.width) >= 2,
          `the active option's ring is ${ring.width} ${ring.outline} on ${ring.background} (${ratio.toFixed(2)}:1)`,
        );
        await input.fill("qwxyzzq");
        await waitFor(
          async () => (said = await status.textContent()) === "No suggestions for “qwxyzzq”",
          () => `no 'nothing matched' line: "${said}"`,
        );
      });
    },
  },
  {
    name: "widget pass: axe-core finds no WCAG 2.2 A/AA or best-practice violation on the results page, the open typeahead, the similar carousel and the look popup",
    async run(env) {
      await spec(env, async (page) => {
        const problems: string[] = [];
        const check = async (where: string) => problems.push(...(await axeViolations(page)).map((v) => `${where}: ${v}`));
        await page.goto(searchPage(env, "shirts"));
        const first = (await loadedResults(page, "shirts")).cards[0]!;
        await check("results page");
        const input = page.locator("#store-search-input");
        await input.fill("shir");
        await page.locator("sfs-typeahead-option").first().waitFor();
        await input.press("ArrowDown");
        await check("typeahead open");
        await page.goto(`${env.base}/products/${encodeURIComponent(first.id)}`);
        await page.locator("sfs-similar-products sfs-product-card").first().waitFor();
        await page.locator("sfs-similar-products").scrollIntoViewIfNeeded();
        await check("similar carousel");
        const view = page.locator('sfs-complete-the-look [part~="view-look"]').first();
        await view.click();
        await page.locator('sfs-complete-the-look dialog[part~="dialog"][open]').waitFor();
        await check("look popup");
        assert(problems.length === 0, `axe-core:\n${problems.join("\n")}`);
      });
    },
  },
  {
    name: "widget pass: the theme page: sign in with the admin key (sessionStorage only), a colour, the radius and the density show at once in the four previews, and Save puts them in the store's widget configuration",
    async run(env) {
      const before = await admin(env, "GET", "/settings");
      try {
        await spec(env, async (page) => {
          const response = await page.goto(`${env.base}/theme`);
          assert(
            /script-src 'self'/.test(response?.headers()["content-security-policy"] ?? ""),
            "the theme page has no strict Content-Security-Policy",
          );
          await page.locator("#store-id").fill(env.keys.storeId);
          await page.locator("#admin-key").fill(env.keys.adminKey);
          await page.getByRole("button", { name: "Sign in" }).click();
          await page.locator("#editor").waitFor();
          const stored = await page.evaluate(() => {
            const all = (storage: Storage) =>
              Array.from({ length: storage.length }, (_, i) => `${storage.key(i)}=${storage.getItem(storage.key(i)!)}`).join("\n");
            return { session: all(sessionStorage), local: all(localStorage) };
          });
          assert(
            stored.session.includes(env.keys.adminKey) && !stored.local.includes(env.keys.adminKey),
            `the admin key is not (only) in sessionStorage: ${JSON.stringify(stored)}`,
          );
          assert(!page.url().includes(env.keys.adminKey), "the admin key is in the address");

          await page.locator("#colour-accent").fill("#aa0055");
          await page.locator("#radius").fill("2");
          await page.locator("#density").selectOption("compact");
          const frame = (id: string) => page.frameLocator(`#${id}`);
          const results = frame("preview-results");
          // The results page's current page button is drawn in the accent colour with the radius.
          const current = results.locator('sfs-search-results sfs-pagination [part~="current"]');
          await waitFor(
            async () => (await current.evaluate((b) => getComputedStyle(b).backgroundColor).catch(() => "")) === "rgb(170, 0, 85)",
            () => "the results preview's current page is not in the new accent colour",
          );
          const radius = await current.evaluate((b) => getComputedStyle(b).borderTopLeftRadius);
          assert(radius === "2px", `the results preview's buttons have a radius of ${radius}`);
          const ring = frame("preview-typeahead").locator("sfs-typeahead-option").first();
          await ring.waitFor();
          const look = frame("preview-look").locator('sfs-complete-the-look dialog[part~="dialog"][open]');
          await look.waitFor();
          const addButton = await look.evaluate((d) => getComputedStyle(d).borderTopLeftRadius);
          assert(addButton === "2px", `the look popup's radius is ${addButton}`);
          const similar = frame("preview-similar").locator('sfs-similar-products [part~="list"]');
          await similar.waitFor();
          const gap = await similar.evaluate((l) => getComputedStyle(l).columnGap);
          assert(gap === "10px", `the similar carousel's gap is ${gap} (compact: 0.625rem)`);
          for (const id of ["preview-results", "preview-typeahead", "preview-similar", "preview-look"]) {
            const accent = await frame(id)
              .locator("html")
              .evaluate((h) => getComputedStyle(h).getPropertyValue("--sfs-color-accent").trim());
            assert(accent === "#aa0055", `${id} has the accent ${accent}`);
          }

          await page.getByRole("button", { name: "Save to the store" }).click();
          let status = "";
          await waitFor(
            async () => /^Saved/.test((status = (await page.locator("#status").textContent()) ?? "")),
            () => `no 'Saved' status: "${status}"`,
          );
          const config = (await (
            await fetch(`${env.base}/1.9/widget-config`, {
              headers: { "X-Service-Store-ID": env.keys.storeId, "X-Service-API-Key": env.keys.searchKey },
            })
          ).json()) as { theme: Record<string, string> };
          assert(
            config.theme["--sfs-color-accent"] === "#aa0055" &&
              config.theme["--sfs-radius"] === "2px" &&
              config.theme["--sfs-spacing"] === "0.625rem",
            `the saved theme is ${JSON.stringify(config.theme)}`,
          );
          assert(!("--sfs-color-text" in config.theme), "tokens left at the widget's defaults were saved too");
        });
      } finally {
        await admin(env, "PATCH", "/settings", { widget: before.widget ?? null });
      }
    },
  },
  {
    name: "widget pass: no request left the store and the service (no outside fonts, images or scripts)",
    async run() {
      assert(outside.size === 0, `requests elsewhere: ${[...outside].slice(0, 5).join(", ")}`);
    },
  },
];
