import { hasResults, orderLines, UNKNOWN_CURRENCY } from "../analytics/event-facts.ts";
import type { StoredEvent } from "../events/storage/events-repository.ts";
import { covers } from "./experiment-scope.ts";
import type { Scope } from "./experiment-schema.ts";

/*
 * What one shopper did while an experiment ran, counted from their events: the per-shopper figures the results are
 * computed from. Shoppers are the unit of every test (a shopper's searches are not independent of each other), so
 * each rate is the share of shoppers who did something at least once.
 */

/** A shopper sending more events than this while one experiment runs is a script or a load test, not a shopper. */
export const MAX_EVENTS_PER_SHOPPER = 2_000;

/** A SiteView whose user agent says it is a crawler, a monitor or a headless browser marks its shopper a bot. */
export const BOT_AGENT = /bot\b|crawl|spider|slurp|headless|lighthouse|pingdom|uptime|monitor|curl\/|wget|python-requests/i;

export interface ShopperTally {
  /** Searches in the experiment's scope that found something; a shopper with none was never in the experiment. */
  searches: number;
  /** Searches in scope that found nothing: not counted, but reported. */
  emptySearches: number;
  clicked: boolean;
  carted: boolean;
  ordered: boolean;
  /** Revenue of the shopper's orders, counted once per order id, in their currency. */
  revenue: number;
  /** The currency the shopper's last event naming one gave; UNKNOWN_CURRENCY when none did. */
  currency: string;
  events: number;
  bot: boolean;
  orders: Set<string>;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

function fresh(): ShopperTally {
  return {
    searches: 0,
    emptySearches: 0,
    clicked: false,
    carted: false,
    ordered: false,
    revenue: 0,
    currency: UNKNOWN_CURRENCY,
    events: 0,
    bot: false,
    orders: new Set(),
  };
}

/** Adds one event to its shopper's tally. */
export function tallyEvent(tallies: Map<string, ShopperTally>, shopper: string, event: StoredEvent, scope: Scope): void {
  let t = tallies.get(shopper);
  if (!t) tallies.set(shopper, (t = fresh()));
  t.events++;
  const data = event.data;
  const currency = text(data.currency).trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(currency)) t.currency = currency;
  const search = { query: text(data.query) };
  switch (event.type) {
    case "SiteView":
      if (BOT_AGENT.test(text(data.userAgent))) t.bot = true;
      break;
    case "Search":
      if (!covers(scope, search)) break;
      if (hasResults(data)) t.searches++;
      else t.emptySearches++;
      break;
    case "ProductClick":
      if (covers(scope, search)) t.clicked = true;
      break;
    case "AddToCart":
      t.carted = true;
      break;
    case "OrderComplete":
    case "Purchase": {
      const orderId = text(data.orderId);
      if (t.orders.has(orderId)) break;
      t.orders.add(orderId);
      t.ordered = true;
      t.revenue += orderLines(data).reduce((s, line) => s + line.revenue, 0);
      break;
    }
  }
}

/** Why a shopper's tally is left out of the results, or null when it counts. */
export function exclusion(t: ShopperTally): "bot" | "tooManyEvents" | "noSearch" | null {
  if (t.bot) return "bot";
  if (t.events > MAX_EVENTS_PER_SHOPPER) return "tooManyEvents";
  if (t.searches === 0) return "noSearch";
  return null;
}
