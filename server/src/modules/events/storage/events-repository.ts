/*
 * Shopper events as stored: the reads both durable stores implement (events-repo.ts on SQLite,
 * postgres/events-repo.ts), held to the same behaviour by server/test/repository-conformance.test.ts. Events are
 * written by EventIngest (event-ingest.ts) and deleted only by retention.
 */

export interface NewEvent {
  storeId: string;
  type: string;
  userId: string | null;
  sessionId: string | null;
  apiVersion: string;
  data: Record<string, unknown>;
  receivedAt: number;
}

export interface StoredEvent extends Omit<NewEvent, "storeId"> {
  seq: number;
}

export interface EventsRepository {
  /** Events of every store after `afterSeq`, in arrival order: what the analytics worker reads next. */
  after(afterSeq: number, limit: number): Promise<(StoredEvent & { storeId: string })[]>;
  /** Events of a store received in [from, to), in arrival order, after the cursor `afterSeq`. */
  list(q: { storeId: string; from: number; to: number; type?: string; afterSeq: number; limit: number }): Promise<StoredEvent[]>;
  /** Deletes up to `limit` of a store's events received before `before`, oldest first; returns how many. */
  deleteReceivedBefore(storeId: string, before: number, limit: number): Promise<number>;
}

export interface EventRow {
  seq: number;
  type: string;
  received_at: number;
  user_id: string | null;
  session_id: string | null;
  api_version: string;
  data: string;
}

export const EVENT_COLUMNS = "seq, type, received_at, user_id, session_id, api_version, data";

export const fromEventRow = (r: EventRow): StoredEvent => ({
  seq: r.seq,
  type: r.type,
  receivedAt: r.received_at,
  userId: r.user_id,
  sessionId: r.session_id,
  apiVersion: r.api_version,
  data: JSON.parse(r.data),
});
