import type { Database } from "bun:sqlite";
import { EVENT_COLUMNS, fromEventRow, type EventRow, type EventsRepository, type NewEvent, type StoredEvent } from "./events-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** Shopper events on SQLite: appended as received, deleted only when older than the retention period. */
export class SqliteEventsRepo implements EventsRepository {
  constructor(private readonly db: Database) {}

  /** All or nothing, in one transaction: when this returns, the events are committed. */
  append(events: readonly NewEvent[]): void {
    const insert = this.db.query(
      "INSERT INTO events (store_id, type, received_at, user_id, session_id, api_version, data) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    writeTransaction(this.db, () => {
      for (const e of events) {
        insert.run(e.storeId, e.type, e.receivedAt, e.userId, e.sessionId, e.apiVersion, JSON.stringify(e.data));
      }
    })();
  }

  /** One statement (its own transaction); the (store_id, received_at) index finds the rows without a table scan. */
  async deleteReceivedBefore(storeId: string, before: number, limit: number): Promise<number> {
    return this.db
      .query("DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE store_id = ? AND received_at < ? ORDER BY received_at LIMIT ?)")
      .run(storeId, before, limit).changes;
  }

  async after(afterSeq: number, limit: number): Promise<(StoredEvent & { storeId: string })[]> {
    const rows = this.db
      .query(`SELECT ${EVENT_COLUMNS}, store_id FROM events WHERE seq > ? ORDER BY seq LIMIT ?`)
      .all(afterSeq, limit) as (EventRow & { store_id: string })[];
    return rows.map((r) => ({ ...fromEventRow(r), storeId: r.store_id }));
  }

  async list(q: { storeId: string; from: number; to: number; type?: string; afterSeq: number; limit: number }): Promise<StoredEvent[]> {
    const rows = this.db
      .query(
        `SELECT ${EVENT_COLUMNS} FROM events
         WHERE store_id = ? AND received_at >= ? AND received_at < ? AND seq > ? AND (? IS NULL OR type = ?)
         ORDER BY seq LIMIT ?`,
      )
      .all(q.storeId, q.from, q.to, q.afterSeq, q.type ?? null, q.type ?? null, q.limit) as EventRow[];
    return rows.map(fromEventRow);
  }
}
