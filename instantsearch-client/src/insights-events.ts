import { randomHex } from "./ids.ts";
import { listingFields, type ListingEvent, type ListingEvents } from "./listing-events.ts";
import { contextShowing, queryContext, type QueryContext } from "./query-contexts.ts";

/*
 * The insights middleware's calls (search-insights' methods: clickedObjectIDsAfterSearch, viewedObjectIDs,
 * sendEvents, …) as our shopper events. A click is a ProductClick that says the query, the page shown and the
 * product, from which the service counts the position; an add-to-cart an AddToCart; a purchase a Purchase. A
 * view of a result page is the listing's own event (listing-events.ts: a Search, a PageChange or a
 * SortByChange), which a click or conversion on it sends first should no view have come. A conversion that is
 * neither an add-to-cart nor a purchase, filter events and the middleware's own telemetry (`sendEvents` with
 * eventType "instantsearch") have no event of ours and are dropped.
 */

export interface OurEvent {
  type: ListingEvent["type"] | "ProductClick" | "AddToCart" | "Purchase";
  data: Record<string, unknown>;
}

type Kind = "click" | "view" | "addToCart" | "purchase";

interface ObjectData {
  queryID?: string;
  price?: number | string;
  discount?: number | string;
  quantity?: number;
}

/** One event as the middleware sends it: a method's payload, or an item of sendEvents. */
interface AlgoliaEvent {
  eventType?: string;
  eventSubtype?: string;
  queryID?: string;
  objectIDs?: string[];
  objectData?: ObjectData[];
  /** Not Algolia's: a page may add it to a purchase (sendEvent's 4th argument) to name the order. */
  orderId?: string;
}

const METHOD_KINDS: Record<string, Kind> = {
  clickedObjectIDsAfterSearch: "click",
  clickedObjectIDs: "click",
  viewedObjectIDs: "view",
  addedToCartObjectIDsAfterSearch: "addToCart",
  addedToCartObjectIDs: "addToCart",
  purchasedObjectIDsAfterSearch: "purchase",
  purchasedObjectIDs: "purchase",
};

function kindOf(eventType: string | undefined, subtype: string | undefined): Kind | null {
  if (eventType === "click" || eventType === "view") return eventType;
  if (eventType === "conversion" && (subtype === "addToCart" || subtype === "purchase")) return subtype;
  return null;
}

const isEvent = (arg: unknown): arg is AlgoliaEvent =>
  typeof arg === "object" && arg !== null && Array.isArray((arg as AlgoliaEvent).objectIDs);

/** The middleware's call as events of a kind; anything else (init, setUserToken, telemetry, filters) is none. */
export function algoliaEvents(method: string, args: readonly unknown[]): { kind: Kind; event: AlgoliaEvent }[] {
  if (method === "sendEvents") {
    const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : [];
    return list.filter(isEvent).flatMap((event) => {
      const kind = kindOf(event.eventType, event.eventSubtype);
      return kind ? [{ kind, event }] : [];
    });
  }
  const kind =
    METHOD_KINDS[method] ?? (method === "convertedObjectIDsAfterSearch" || method === "convertedObjectIDs" ? "conversion" : undefined);
  if (!kind) return [];
  // The payloads are the event objects among the arguments; the middleware appends request options after them.
  return args.filter(isEvent).flatMap((event) => {
    const resolved = kind === "conversion" ? kindOf("conversion", event.eventSubtype) : kind;
    return resolved ? [{ kind: resolved, event }] : [];
  });
}

const toNumber = (v: number | string | undefined): number | undefined => {
  const n = typeof v === "string" ? Number(v) : v;
  return n !== undefined && Number.isFinite(n) ? n : undefined;
};

const newOrderId = () => `order-${randomHex(8)}`;

/** Our events for one of the middleware's events, each after the event of the listing it refers to, if new. */
export function ourEvents(kind: Kind, event: AlgoliaEvent, listings: ListingEvents): OurEvent[] {
  const ids = event.objectIDs ?? [];
  const contextOf = (i: number) => queryContext(event.objectData?.[i]?.queryID ?? event.queryID);
  const out: OurEvent[] = [];
  const withListing = (c: QueryContext | undefined) => {
    const shown = c && listings.eventFor(c);
    if (shown) out.push(shown);
    return c;
  };
  if (kind === "view") {
    withListing(queryContext(event.queryID) ?? contextShowing(ids));
    return out;
  }
  if (kind === "purchase") {
    ids.forEach((_, i) => withListing(contextOf(i)));
    const products = ids.map((id, i) => {
      const data = event.objectData?.[i];
      const price = toNumber(data?.price);
      const discount = toNumber(data?.discount) ?? 0;
      return {
        id,
        ...(price !== undefined ? { price: Math.max(0, price - discount) } : {}),
        ...(data?.quantity ? { qty: data.quantity } : {}),
      };
    });
    if (products.length) out.push({ type: "Purchase", data: { orderId: event.orderId ?? newOrderId(), products } });
    return out;
  }
  ids.forEach((id, i) => {
    const c = withListing(contextOf(i));
    const context = c ? { ...listingFields(c), page: c.page } : {};
    if (kind === "click") out.push({ type: "ProductClick", data: { ...context, clickProductId: id } });
    else {
      const qty = event.objectData?.[i]?.quantity;
      out.push({
        type: "AddToCart",
        data: { ...context, ...(c ? { totalProducts: c.totalProducts } : {}), addProductId: id, ...(qty ? { qty } : {}) },
      });
    }
  });
  return out;
}
