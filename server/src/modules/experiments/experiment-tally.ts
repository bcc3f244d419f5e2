import { hasResults, orderLines } from "../analytics/event-facts.ts";
import type { StoredEvent } from "../events/storage/events-repository.ts";
import { covers } from "./experiment-scope.ts";
import type { Scope } from "./experiment-schema.ts";
import type { ShopperCounts } from "./storage/experiments-repository.ts";

/*
 * What one event adds to its shopper's counters in an experiment, and which shoppers the results leave out. The
 * shopper is the unit of every test (a shopper's searches are not independent of each other), so each rate is the
 * share of shoppers who did something at least once: flags, not counts.
 */

/** A shopper sending more events than this while one experiment runs is a script or a load test, not a shopper. */
export const MAX_EVENTS_PER_SHOPPER = 2_000;

/** A SiteView whose user agent says it is a crawler, a monitor or a headless browser marks its shopper a bot. */
export const BOT_AGENT = /bot\b|crawl|spider|slurp|headless|lighthouse|pingdom|uptime|monitor|curl\/|wget|python-requests/i;

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The counters one event adds: searches in scope (with and without results), a click from a search in scope, an
 * add-to-cart, an order and its revenue (only for the event that counts the order, `firstOfOrder`), the currency it
 * names, and the event itself.
 */
export function eventCounts(
  event: StoredEvent,
  scope: Scope,
  firstOfOrder: boolean,
): Omit<ShopperCounts, "variant" | "creditsA" | "creditsB"> {
  const data = event.data;
  const currency = text(data.currency).trim().toUpperCase();
  const inScope = () => covers(scope, { query: text(data.query) });
  const search = event.type === "Search" && inScope();
  const order = (event.type === "OrderComplete" || event.type === "Purchase") && firstOfOrder;
  return {
    searches: search && hasResults(data) ? 1 : 0,
    emptySearches: search && !hasResults(data) ? 1 : 0,
    clicked: event.type === "ProductClick" && inScope() ? 1 : 0,
    carted: event.type === "AddToCart" ? 1 : 0,
    ordered: order ? 1 : 0,
    revenue: order ? orderLines(data).reduce((s, line) => s + line.revenue, 0) : 0,
    currency: /^[A-Z]{3}$/.test(currency) ? currency : null,
    events: 1,
    bot: event.type === "SiteView" && BOT_AGENT.test(text(data.userAgent)) ? 1 : 0,
  };
}

/** Why a shopper's counters are left out of the results, or null when they count. */
export function exclusion(t: ShopperCounts): "bot" | "tooManyEvents" | "noSearch" | null {
  if (t.bot) return "bot";
  if (t.events > MAX_EVENTS_PER_SHOPPER) return "tooManyEvents";
  if (t.searches === 0) return "noSearch";
  return null;
}
