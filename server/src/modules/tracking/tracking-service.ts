import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { EventIngest } from "../../db/event-ingest.ts";
import type { EventsRepository, NewEvent, StoredEvent } from "../../db/events-repository.ts";
import { GroupCommit } from "../../db/group-commit.ts";
import { effectsOf } from "./event-effects.ts";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { schemaProblems } from "../../schema-check.ts";
import { ANONYMOUS_ID, EVENT_DATA, EVENT_TYPES, MAX_EVENTS_PER_REQUEST, type EventType } from "./event-schemas.ts";

const Envelope = Type.Object({
  type: Type.String(),
  data: Type.Object({}),
  userId: Type.Optional(ANONYMOUS_ID),
  UserId: Type.Optional(ANONYMOUS_ID),
  sessionId: Type.Optional(ANONYMOUS_ID),
  SessionId: Type.Optional(ANONYMOUS_ID),
  storeId: Type.Optional(Type.String({ maxLength: 64 })),
});

interface Envelope {
  type: string;
  data: Record<string, unknown>;
  userId?: string;
  UserId?: string;
  sessionId?: string;
  SessionId?: string;
  storeId?: string;
}

/** Version 1.8 capitalised UserId and SessionId; both spellings are accepted from every version. */
function eitherSpelling(e: Envelope, lower: "userId" | "sessionId", upper: "UserId" | "SessionId", path: string): {
  value: string | null;
  problem?: ErrorDetail;
} {
  const a = e[lower];
  const b = e[upper];
  if (a !== undefined && b !== undefined && a !== b) {
    return { value: null, problem: { path: `${path}.${upper}`, problem: `differs from ${lower}; send one of them` } };
  }
  return { value: a ?? b ?? null };
}

function checkEvent(raw: unknown, path: string, storeId: string, apiVersion: string, problems: ErrorDetail[]): Omit<NewEvent, "receivedAt"> | null {
  const envelopeProblems = schemaProblems(Envelope, raw, path);
  if (envelopeProblems.length) {
    problems.push(...envelopeProblems);
    return null;
  }
  const e = raw as Envelope;
  if (!EVENT_TYPES.includes(e.type as EventType)) {
    problems.push({ path: `${path}.type`, problem: `unknown event type "${e.type.slice(0, 60)}"; use one of ${EVENT_TYPES.join(", ")}` });
    return null;
  }
  const schema = EVENT_DATA[e.type as EventType];
  const dataProblems = schemaProblems(schema, e.data, `${path}.data`);
  if (e.storeId !== undefined && e.storeId !== storeId) {
    dataProblems.push({ path: `${path}.storeId`, problem: "differs from the X-Service-Store-ID of the request" });
  }
  const user = eitherSpelling(e, "userId", "UserId", path);
  const session = eitherSpelling(e, "sessionId", "SessionId", path);
  for (const p of [user.problem, session.problem]) if (p) dataProblems.push(p);
  if (dataProblems.length) {
    problems.push(...dataProblems);
    return null;
  }
  return {
    storeId,
    type: e.type,
    userId: user.value,
    sessionId: session.value,
    apiVersion,
    data: Value.Clean(schema, structuredClone(e.data)) as Record<string, unknown>,
  };
}

export interface EventQuery {
  from: number;
  to: number;
  type?: string;
  cursor?: string;
  limit: number;
}

/** Shopper event ingest: validated as a whole, committed before the answer. */
export class TrackingService {
  private readonly writer: GroupCommit<NewEvent>;

  constructor(
    ingest: EventIngest,
    private readonly events: EventsRepository,
    private readonly now: () => number,
    /** Called after a commit with the products whose purchase counts changed. */
    onPurchases: (storeId: string, productIds: string[]) => void,
    /** Called after every commit: the analytics worker counts the new events. */
    onCommitted: () => void,
  ) {
    this.writer = new GroupCommit(async (batch) => {
      const changed = await ingest.commit(batch, effectsOf(batch));
      for (const [storeId, ids] of changed) onPurchases(storeId, ids);
      onCommitted();
    });
  }

  /** Resolves once the events are committed; the caller acknowledges only then. */
  async ingest(storeId: string, apiVersion: string, body: unknown): Promise<number> {
    const items = Array.isArray(body) ? body : [body];
    if (Array.isArray(body) && (body.length === 0 || body.length > MAX_EVENTS_PER_REQUEST)) {
      throw new ValidationError(`A batch holds 1 to ${MAX_EVENTS_PER_REQUEST} events`, [
        { path: "body", problem: `has ${body.length} events` },
      ]);
    }
    const problems: ErrorDetail[] = [];
    const accepted: NewEvent[] = [];
    const receivedAt = this.now();
    items.forEach((item, i) => {
      if (problems.length >= 20) return;
      const event = checkEvent(item, Array.isArray(body) ? `body[${i}]` : "body", storeId, apiVersion, problems);
      if (event) accepted.push({ ...event, receivedAt });
    });
    if (problems.length) {
      const first = problems[0]!;
      throw new ValidationError(`Invalid event: ${first.path} ${first.problem}`, problems.slice(0, 20));
    }
    await this.writer.add(accepted);
    return accepted.length;
  }

  async list(storeId: string, q: EventQuery): Promise<{ events: (Omit<StoredEvent, "seq" | "receivedAt"> & { id: string; receivedAt: string })[]; nextCursor: string | null }> {
    if (q.type !== undefined && !EVENT_TYPES.includes(q.type as EventType)) {
      throw new ValidationError(`Unknown event type "${q.type}"`, [{ path: "query.type", problem: `use one of ${EVENT_TYPES.join(", ")}` }]);
    }
    const afterSeq = q.cursor ? Number(q.cursor) : 0;
    if (!Number.isSafeInteger(afterSeq) || afterSeq < 0) {
      throw new ValidationError("Invalid cursor", [{ path: "query.cursor", problem: "use the nextCursor of a previous page" }]);
    }
    const rows = await this.events.list({ storeId, from: q.from, to: q.to, type: q.type, afterSeq, limit: q.limit + 1 });
    const page = rows.slice(0, q.limit);
    return {
      events: page.map(({ seq, receivedAt, ...rest }) => ({ id: String(seq), receivedAt: new Date(receivedAt).toISOString(), ...rest })),
      nextCursor: rows.length > q.limit ? String(page[page.length - 1]!.seq) : null,
    };
  }
}
