import type { EventList } from "@storefront-search/contract";
import type { EventsRepository } from "../events/storage/events-repository.ts";
import { ValidationError } from "../../errors.ts";
import { EVENT_TYPES, type EventType } from "./event-schemas.ts";

export interface EventQuery {
  from: number;
  to: number;
  type?: string;
  cursor?: string;
  limit: number;
}

/** Raw events of a store in arrival order, a page at a time (GET /events). */
export async function listEvents(events: EventsRepository, storeId: string, q: EventQuery): Promise<EventList> {
  if (q.type !== undefined && !EVENT_TYPES.includes(q.type as EventType)) {
    throw new ValidationError(`Unknown event type "${q.type}"`, [{ path: "query.type", problem: `use one of ${EVENT_TYPES.join(", ")}` }]);
  }
  const afterSeq = q.cursor ? Number(q.cursor) : 0;
  if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) {
    throw new ValidationError("Invalid cursor", [{ path: "query.cursor", problem: "use the nextCursor of a previous page" }]);
  }
  const rows = await events.list({ storeId, from: q.from, to: q.to, type: q.type, afterSeq, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return {
    events: page.map(({ seq, receivedAt, ...rest }) => ({ id: String(seq), receivedAt: new Date(receivedAt).toISOString(), ...rest })),
    nextCursor: rows.length > q.limit ? String(page[page.length - 1]!.seq) : null,
  };
}
