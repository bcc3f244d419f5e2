import type { NewEvent } from "../src/modules/events/storage/events-repository.ts";
import type { SqliteEventsRepo } from "../src/modules/events/storage/events.sqlite.ts";

/*
 * Shopper events for the benches that read what the analytics worker counted (reports, experiments, learning):
 * sessions of about 8 events over 30 days, in arrival order (site views, searches with 5,000 queries of a Zipf-like
 * popularity, page changes, clicks, carts, orders, recommendation events; 3 regions, 2 languages, 2 currencies),
 * from a fixed seed so runs compare. Given `listings`, the searches are those queries (Zipf-like in their order)
 * and show those products, so that clicks, carts and orders are about real products of the catalog.
 */

export const DAY_MS = 86_400_000;

export interface SimulatedShoppers {
  events: number;
  /** The newest arrival time; the sessions cover the 30 days before it. */
  now: number;
  /** Signed-in shoppers the sessions belong to, in turn; null: every session is a shopper of its own. */
  users: number | null;
  /** Each query with the products its first page shows; absent: made-up queries and product ids. */
  listings?: readonly Listing[];
}

export interface Listing {
  query: string;
  productIds: readonly string[];
}

/** A deterministic generator (mulberry32). */
function seeded(start: number): () => number {
  let seed = start;
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const QUERIES = Array.from({ length: 5_000 }, (_, i) => `query ${i}`);
const REGIONS = [
  { region: "DE", language: "de", currency: "EUR" },
  { region: "FR", language: "fr", currency: "EUR" },
  { region: "US", language: "en", currency: "USD" },
];

function* shopperEvents(o: SimulatedShoppers): Generator<Omit<NewEvent, "storeId" | "apiVersion">> {
  const random = seeded(42);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const zipf = (n: number) => Math.min(n - 1, Math.floor(n ** random()) - 1);
  const sessions = Math.ceil(o.events / 8);
  let sent = 0;
  for (let s = 0; sent < o.events; s++) {
    const sessionId = `s${s % 40_000}-${Math.floor(s / 40_000)}`;
    const userId = o.users === null ? null : `u${s % o.users}`;
    const dims = pick(REGIONS);
    // Arrival order, as the events table has it: the sessions of 30 days one after the other.
    let at = o.now - 30 * DAY_MS + Math.floor((s / sessions) * 30 * DAY_MS);
    const visit = (type: string, data: Record<string, unknown>) => {
      sent++;
      at += 5_000 + Math.floor(random() * 60_000);
      return { type, userId, sessionId, data, receivedAt: Math.min(at, o.now) };
    };
    yield visit("SiteView", { location: "https://shop.example/", ...dims });
    for (let q = 0; q < 3 && sent < o.events; q++) {
      const listed = o.listings?.[zipf(o.listings.length)];
      const query = listed?.query ?? QUERIES[zipf(QUERIES.length)]!;
      const total = listed ? listed.productIds.length : random() < 0.08 ? 0 : 1 + Math.floor(random() * 500);
      const productIds = listed ? [...listed.productIds] : Array.from({ length: Math.min(total, 30) }, () => `p${zipf(20_000)}`);
      const listing = { query, productIds, pageSize: 30, ...dims };
      yield visit("Search", { ...listing, totalProducts: total });
      if (total === 0) continue;
      if (random() < 0.3) yield visit("PageChange", { ...listing, page: 2 });
      if (random() < 0.45) {
        const clicked = pick(productIds);
        yield visit("ProductClick", { ...listing, page: 1, clickProductId: clicked });
        if (random() < 0.25) yield visit("AddToCart", { ...listing, page: 1, addProductId: clicked, qty: 1 });
        if (random() < 0.08)
          yield visit("Purchase", { orderId: `o${s}-${q}`, products: [{ id: clicked, price: 10 + Math.floor(random() * 90), qty: 1 }] });
        if (random() < 0.2) yield visit("ViewSimilarProducts", { productId: clicked });
        if (random() < 0.1) yield visit("CTLLoad", { baseProductId: clicked });
      }
    }
  }
}

/** Writes the simulated events of `store` in batches of 5,000, as the events thread appends them; answers how many. */
export function appendSimulated(events: SqliteEventsRepo, store: string, o: SimulatedShoppers): number {
  let batch: NewEvent[] = [];
  let written = 0;
  const flush = () => {
    events.append(batch);
    written += batch.length;
    batch = [];
  };
  for (const e of shopperEvents(o)) {
    batch.push({ ...e, storeId: store, apiVersion: "1.9" });
    if (batch.length === 5_000) flush();
  }
  flush();
  return written;
}
