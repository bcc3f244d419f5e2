import type { NewEvent } from "../../events/storage/events-repository.ts";
import type { OrderLine } from "../../analytics/storage/purchase-counts-repository.ts";

/*
 * Shopper event ingest as one transaction: the events, and what they count towards (look clicks, orders'
 * purchases and product pairs), so that counts and events never disagree. The interface both durable stores
 * implement (event-ingest-sqlite.ts, postgres/event-ingest.ts), held to the same behaviour by
 * server/test/repository-conformance.test.ts; which events count towards what is decided once, in
 * modules/tracking/event-effects.ts.
 */

/** A product clicked in another's look, in a shopper session: counted once per session and pair. */
export interface LookClickEffect {
  kind: "lookClick";
  storeId: string;
  sessionId: string;
  baseId: string;
  clickedId: string;
}

/**
 * An order: counted once however many events report it; each product once per buyer (user id, else session id;
 * null: every line counts) and day; its first products paired with each other once.
 */
export interface OrderEffect {
  kind: "order";
  storeId: string;
  orderId: string;
  lines: OrderLine[];
  actor: string | null;
  day: string;
}

export type EventEffect = LookClickEffect | OrderEffect;

export interface EventIngest {
  /**
   * Stores the events and counts the effects, all or nothing; when it resolves, everything is committed. Returns,
   * for each order effect in turn, its store and the products whose purchase counts changed.
   */
  commit(events: readonly NewEvent[], effects: readonly EventEffect[]): Promise<[storeId: string, changed: string[]][]>;
}
