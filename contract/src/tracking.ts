/*
 * The shopper events of POST /tracking: every type, the data fields an event of it must carry (what it is about),
 * and the types whose data may say the shopper's region, language and currency. The widget drops an event the
 * service would refuse; the service's schemas (server/src/modules/tracking/event-schemas.ts) are held to this
 * table by server/test/tracking.test.ts.
 */

/** One event of POST /tracking. */
export interface TrackingEvent {
  type: string;
  data: Record<string, unknown>;
  userId: string;
  sessionId: string;
  storeId: string;
}

/** An event as GET /events lists it: as it was stored, with the id its page's cursor counts by. */
export interface ListedEvent {
  id: string;
  type: string;
  userId: string | null;
  sessionId: string | null;
  /** The API version of the request that brought it. */
  apiVersion: string;
  data: Record<string, unknown>;
  receivedAt: string;
}

/** GET /events: a page of a store's events in arrival order; `nextCursor` asks for the next page. */
export interface EventList {
  events: ListedEvent[];
  nextCursor: string | null;
}

/** Most events one POST /tracking request may carry. */
export const MAX_EVENTS_PER_REQUEST = 500;

/** Every event type, with the data fields an event of it must carry. */
export const EVENT_REQUIRED_FIELDS = {
  SiteView: [],
  Search: [],
  PageChange: [],
  SortByChange: [],
  ProductClick: ["clickProductId"],
  PromotionClick: ["clickPromotionId"],
  AddToCart: ["addProductId"],
  OrderComplete: ["orderId", "products"],
  Purchase: ["orderId", "products"],
  ViewSimilarProducts: ["productId"],
  SimilarProductClick: ["similarProductId", "clickProductId"],
  CTLLoad: [],
  CTLViewLookClick: ["position"],
  CTLProductClick: ["selectedProduct"],
  CTLPopupProductClick: ["selectedProduct"],
  CTLPageChange: ["pageTo", "pageFrom"],
  CTLPopupPageChange: ["pageTo", "pageFrom"],
} as const satisfies Record<string, readonly string[]>;

export type EventType = keyof typeof EVENT_REQUIRED_FIELDS;
export const EVENT_TYPES = Object.keys(EVENT_REQUIRED_FIELDS) as EventType[];

/** The types whose data may carry region, language and currency: all but orders and the similar products'. */
const WITHOUT_LOCALE: readonly EventType[] = ["OrderComplete", "Purchase", "ViewSimilarProducts", "SimilarProductClick"];
export const LOCALE_EVENT_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES.filter((type) => !WITHOUT_LOCALE.includes(type)));
