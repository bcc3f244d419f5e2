import { Elysia, t } from "elysia";
import type { EventsRepository } from "../events/storage/events-repository.ts";
import { authPlugin, chargeEvents, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBytes } from "../../http/json-body.ts";
import { boundedInteger } from "../../http/query-params.ts";
import { EVENT_TYPES } from "./event-schemas.ts";
import { listEvents } from "./event-listing.ts";
import type { EventsThread } from "./events-thread.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";

const DAY = 86_400_000;

/** ISO date-time or Unix milliseconds. */
const instant = t.Union([t.Numeric(), t.String({ format: "date-time" })], { description: "ISO 8601 date-time or Unix milliseconds" });
const toMs = (v: string | number | undefined, fallback: number) => (v === undefined ? fallback : typeof v === "number" ? v : Date.parse(v));

export function trackingRoutes(
  deps: AuthDeps & { events: EventsThread; eventLog: EventsRepository; maxBodyBytes: number; metrics: Pick<ServiceMetrics, "countEvents"> },
) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/tracking",
      async ({ request, caller, params }) => {
        const body = await readJsonBytes(request, { maxBytes: Math.min(deps.maxBodyBytes, 1024 * 1024), allowTextPlain: true });
        const count = await deps.events.ingest(caller.store.id, params.version, body, deps.now(), (n) =>
          chargeEvents(deps.access, caller, n),
        );
        deps.metrics.countEvents(count);
        return { ok: true, result: "success" as const };
      },
      {
        auth: "analytics",
        // Read by the handler, after the key is checked.
        parse: "none",
        detail: {
          summary: "Report shopper events",
          description: `One event or an array of up to 500 (sendBeacon batches). Types: ${EVENT_TYPES.join(", ")}.`,
          tags: ["Analytics"],
        },
      },
    )
    .get(
      "/events",
      ({ query, caller }) => {
        const now = deps.now();
        return listEvents(deps.eventLog, caller.store.id, {
          from: toMs(query.from, now - DAY),
          to: toMs(query.to, now + 1),
          type: query.type,
          cursor: query.cursor,
          limit: boundedInteger(query.limit, "limit", { min: 1, max: 1000, fallback: 100 }),
        });
      },
      {
        auth: "admin",
        query: t.Object({
          from: t.Optional(instant),
          to: t.Optional(instant),
          // A plain string: Elysia fills an absent optional enum with its first member.
          type: t.Optional(t.String({ maxLength: 64 })),
          cursor: t.Optional(t.String({ pattern: "^\\d{1,15}$" })),
          limit: t.Optional(t.Numeric({ description: "1 to 1000, default 100" })),
        }),
        detail: {
          summary: "Read raw events (debugging, end-to-end tests)",
          description: "Events received in [from, to) (default: the last 24 hours), in arrival order, paged by nextCursor.",
          tags: ["Analytics"],
        },
      },
    );
}
