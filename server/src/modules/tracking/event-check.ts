import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { NewEvent } from "../events/storage/events-repository.ts";
import { ValidationError, type ErrorDetail } from "../../errors.ts";
import { schemaProblems } from "../../schema-check.ts";
import { MAX_EVENTS_PER_REQUEST } from "@storefront-search/contract";
import { ANONYMOUS_ID, EVENT_DATA, EVENT_TYPES, type EventType } from "./event-schemas.ts";

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
function eitherSpelling(
  e: Envelope,
  lower: "userId" | "sessionId",
  upper: "UserId" | "SessionId",
  path: string,
): {
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

function checkEvent(
  raw: unknown,
  path: string,
  storeId: string,
  apiVersion: string,
  problems: ErrorDetail[],
): Omit<NewEvent, "receivedAt"> | null {
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

/**
 * The events of a POST /tracking body (one event or an array of up to MAX_EVENTS_PER_REQUEST), all valid or none:
 * throws a ValidationError naming the first 20 problems.
 */
export function checkEvents(storeId: string, apiVersion: string, body: unknown, receivedAt: number): NewEvent[] {
  const items = Array.isArray(body) ? body : [body];
  if (Array.isArray(body) && (body.length === 0 || body.length > MAX_EVENTS_PER_REQUEST)) {
    throw new ValidationError(`A batch holds 1 to ${MAX_EVENTS_PER_REQUEST} events`, [
      { path: "body", problem: `has ${body.length} events` },
    ]);
  }
  const problems: ErrorDetail[] = [];
  const accepted: NewEvent[] = [];
  items.forEach((item, i) => {
    if (problems.length >= 20) return;
    const event = checkEvent(item, Array.isArray(body) ? `body[${i}]` : "body", storeId, apiVersion, problems);
    if (event) accepted.push({ ...event, receivedAt });
  });
  if (problems.length) {
    const first = problems[0]!;
    throw new ValidationError(`Invalid event: ${first.path} ${first.problem}`, problems.slice(0, 20));
  }
  return accepted;
}
