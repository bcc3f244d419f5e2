import type { Database } from "bun:sqlite";

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

/** Shopper events: appended as received, deleted only when older than the retention period. */
export class EventsRepo {
  constructor(private readonly db: Database) {}

  /** All or nothing, in one transaction: when this returns, the events are committed. */
  append(events: readonly NewEvent[]): void {
    const insert = this.db.query(
      "INSERT INTO events (store_id, type, received_at, user_id, session_id, api_version, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.db.transaction(() => {
      for (const e of events) {
        insert.run(e.storeId, e.type, e.receivedAt, e.userId, e.sessionId, e.apiVersion, JSON.stringify(e.data));
      }
    })();
  }

  /**
   * Deletes up to `limit` of a store's events received before `before`, oldest first, in one statement (its
   * own transaction); returns how many. The (store_id, received_at) index finds them without a table scan.
   */
  deleteReceivedBefore(storeId: string, before: number, limit: number): number {
    return this.db
      .query("DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE store_id = ? AND received_at < ? ORDER BY received_at LIMIT ?)")
      .run(storeId, before, limit).changes;
  }

  /** Events of every store after `afterSeq`, in arrival order: what the analytics worker reads next. */
  after(afterSeq: number, limit: number): (StoredEvent & { storeId: string })[] {
    const rows = this.db
      .query("SELECT seq, store_id, type, received_at, user_id, session_id, api_version, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?")
      .all(afterSeq, limit) as (EventRow & { store_id: string })[];
    return rows.map((r) => ({ ...fromRow(r), storeId: r.store_id }));
  }

  /** Events of a store received in [from, to), in arrival order, after the cursor `afterSeq`. */
  list(q: { storeId: string; from: number; to: number; type?: string; afterSeq: number; limit: number }): StoredEvent[] {
    const rows = this.db
      .query(
        `SELECT seq, type, received_at, user_id, session_id, api_version, data FROM events
         WHERE store_id = ? AND received_at >= ? AND received_at < ? AND seq > ? AND (? IS NULL OR type = ?)
         ORDER BY seq LIMIT ?`,
      )
      .all(q.storeId, q.from, q.to, q.afterSeq, q.type ?? null, q.type ?? null, q.limit) as EventRow[];
    return rows.map(fromRow);
  }
}

interface EventRow {
  seq: number;
  type: string;
  received_at: number;
  user_id: string | null;
  session_id: string | null;
  api_version: string;
  data: string;
}

const fromRow = (r: EventRow): StoredEvent => ({
  seq: r.seq,
  type: r.type,
  receivedAt: r.received_at,
  userId: r.user_id,
  sessionId: r.session_id,
  apiVersion: r.api_version,
  data: JSON.parse(r.data),
});
