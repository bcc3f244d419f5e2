/*
 * The demo store as the tests read it: the results page through the widget's shadow roots, the service's admin
 * API, and the shopper's errands (search from the home page, buy the first result) that several tests start from.
 */
import type { EventList, ListedEvent } from "@storefront-search/contract";
import type { Page } from "@playwright/test";
import { expect, type Demo } from "./fixtures.ts";

export interface CardInfo {
  id: string;
  name: string;
  designer: string;
  price: number;
}

export interface Results {
  count: string;
  total: number;
  cards: CardInfo[];
}

export const searchPage = (demo: Demo, query: string) => `${demo.base}/search-results?q=${encodeURIComponent(query)}`;

/** The store's product id a product link points at (/products/{id}). */
export const productIdOf = (href: string | null, base: string) =>
  decodeURIComponent(new URL(href ?? "", base).pathname.split("/").pop() ?? "");

/** What the results page shows: its count line and the cards (read through the shadow roots). */
export function results(page: Page): Promise<Results> {
  return page.evaluate(() => {
    const host = document.querySelector("sfs-search-results");
    const root = host?.shadowRoot;
    const count = root?.querySelector('[part="count"]')?.textContent?.trim() ?? "";
    const total = Number(count.replace(/[^\d]/g, "")) || 0;
    const cards = Array.from(root?.querySelectorAll("sfs-product-card") ?? []).map((card) => {
      const r = card.shadowRoot;
      const text = (part: string) => r?.querySelector(`[part~="${part}"]`)?.textContent?.trim() ?? "";
      const href = r?.querySelector<HTMLAnchorElement>('[part="name-link"]')?.href ?? "";
      return {
        id: href ? decodeURIComponent(new URL(href).pathname.split("/products/")[1] ?? "") : "",
        name: text("name"),
        designer: text("designer"),
        price: Number(text("current-price").replace(/[^\d.]/g, "")),
      };
    });
    return { count, total, cards };
  });
}

/**
 * Polls the results page until `accept` holds for what it shows, and returns that. The page is drawn inside
 * shadow roots and read whole, so this polls rather than asserting on one locator.
 */
export async function resultsWhere(page: Page, accept: (r: Results) => boolean, message: string): Promise<Results> {
  let last: Results = { count: "", total: 0, cards: [] };
  await expect
    .poll(async () => accept((last = await results(page))), {
      message: `${message} (url ${page.url()}, shown: "${last.count}" ${last.cards.map((c) => c.name).join(" | ")})`,
    })
    .toBe(true);
  return last;
}

/** Waits until the results page shows a count and at least one named card. */
export const loadedResults = (page: Page, what: string) =>
  resultsWhere(
    page,
    (r) => r.total > 0 && r.cards.length > 0 && r.cards.every((c) => c.name),
    `${what}: the results page shows no products`,
  );

/** Calls the service's admin API with the store's admin key; fails the test on an error answer. */
export async function admin<T = Record<string, unknown>>(demo: Demo, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${demo.base}/1.9${path}`, {
    method,
    headers: { "X-Service-Store-ID": demo.keys.storeId, "X-Service-API-Key": demo.keys.adminKey, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** An event the service stored, as GET /events lists it. */
export type StoredEvent = ListedEvent;

/** Every event the service has stored for the store, page after page. */
export async function events(demo: Demo): Promise<StoredEvent[]> {
  const all: StoredEvent[] = [];
  for (let cursor: string | null = ""; cursor !== null; ) {
    const page: EventList = await admin(demo, "GET", `/events?from=0&limit=1000${cursor ? `&cursor=${cursor}` : ""}`);
    all.push(...page.events);
    cursor = page.nextCursor;
  }
  return all;
}

/** Runs `fn` with some of the store's settings changed, and puts them back after. */
export async function withSettings(demo: Demo, patch: Record<string, unknown>, fn: () => Promise<void>): Promise<void> {
  const before = await admin(demo, "GET", "/settings");
  await admin(demo, "PATCH", "/settings", patch);
  try {
    await fn();
  } finally {
    await admin(demo, "PATCH", "/settings", Object.fromEntries(Object.keys(patch).map((k) => [k, before[k] ?? null])));
  }
}

/** Layout shift summed since the page loaded (support/fixtures.ts measures it in every page). */
export const layoutShift = (page: Page) => page.evaluate(() => (window as unknown as { sfsShift: number }).sfsShift);

/** How far the page scrolls sideways, in CSS pixels. */
export const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Searches from the home page's input (Enter) and waits for the results page of `query`. */
export async function searchFromHome(page: Page, demo: Demo, query: string): Promise<void> {
  await page.goto(demo.base + "/");
  await page.locator("#store-search-input").fill(query);
  await page.locator("#store-search-input").press("Enter");
  await page.waitForURL((url) => url.pathname === "/search-results" && url.searchParams.get("q") === query);
}

/** Opens the product page of the first result for `query`; its card. */
export async function firstResultPage(page: Page, demo: Demo, query: string): Promise<CardInfo> {
  await page.goto(searchPage(demo, query));
  const source = (await loadedResults(page, query)).cards[0]!;
  await page.goto(`${demo.base}/products/${encodeURIComponent(source.id)}`);
  return source;
}

/**
 * On a results page: opens the first product, adds it to the (empty) cart, checks out and places the order, then
 * leaves for the home page, which flushes the batched events (pagehide).
 */
export async function buyFirstResult(
  page: Page,
  demo: Demo,
  what: string,
): Promise<{ clickedId: string; addedId: string; orderId: string }> {
  const target = (await loadedResults(page, what)).cards[0]!;
  await page.locator('sfs-search-results sfs-product-card a[part="name-link"]').first().click();
  await page.waitForURL(/\/products\//);
  expect(page.url().startsWith(`${demo.base}/products/`), `the product link went to ${page.url()}`).toBe(true);
  await expect(page.locator("h1")).toHaveText(target.name);
  const add = page.locator("#add-to-cart");
  const addedId = (await add.getAttribute("data-product-id")) ?? "";
  await add.click();
  await expect(page.locator("#cart-status")).toContainText("Added");
  await expect(page.locator("#cart-count"), "the header's cart count").toHaveText("1");
  await page.locator("#cart-link").click();
  await page.waitForURL(/\/cart$/);
  const items = page.locator("#cart-items .cart-item");
  await expect(items).toHaveCount(1);
  await expect(items.first().locator(".cart-name")).toHaveText(target.name);
  await page.locator("#go-to-checkout").click();
  await page.waitForURL(/\/checkout$/);
  await page.getByRole("button", { name: "Place order" }).click();
  const confirmation = page.locator("#order-confirmation");
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toContainText(/Thank you/);
  const orderId = (await confirmation.getAttribute("data-order-id")) ?? "";
  expect(orderId, "the confirmation's order id").not.toBe("");
  await expect(page.locator("#cart-count"), "the cart was emptied").toHaveText("0");
  await page.goto(demo.base + "/");
  return { clickedId: target.id, addedId, orderId };
}
