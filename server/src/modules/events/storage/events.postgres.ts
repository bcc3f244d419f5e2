import { EVENT_COLUMNS, fromEventRow, type EventRow, type EventsRepository, type StoredEvent } from "./events-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Shopper events on PostgreSQL (appended by postgres/event-ingest.ts). */
export class PostgresEventsRepo implements EventsRepository {
  constructor(private readonly sql: Sql) {}

  async after(afterSeq: number, limit: number): Promise<(StoredEvent & { storeId: string })[]> {
    const rows = await this.sql.unsafe<(EventRow & { store_id: string })[]>(
      `SELECT ${EVENT_COLUMNS}, store_id FROM events WHERE seq > $1 ORDER BY seq LIMIT $2`,
      [afterSeq, limit],
    );
    return rows.map((r) => ({ ...fromEventRow(r), storeId: r.store_id }));
  }

  async list(q: { storeId: string; from: number; to: number; type?: string; afterSeq: number; limit: number }): Promise<StoredEvent[]> {
    const rows = await this.sql.unsafe<EventRow[]>(
      `SELECT ${EVENT_COLUMNS} FROM events
       WHERE store_id = $1 AND received_at >= $2 AND received_at < $3 AND seq > $4 AND ($5::text IS NULL OR type = $5)
       ORDER BY seq LIMIT $6`,
      [q.storeId, q.from, q.to, q.afterSeq, q.type ?? null, q.limit],
    );
    return rows.map(fromEventRow);
  }

  async deleteReceivedBefore(storeId: string, before: number, limit: number): Promise<number> {
    const result = await this.sql`
      DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE store_id = ${storeId} AND received_at < ${before} ORDER BY received_at LIMIT ${limit})`;
    return result.count;
  }
}
