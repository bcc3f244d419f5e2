import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { boundedInteger } from "../../http/query-params.ts";
import { EVENT_TYPES } from "./event-schemas.ts";
import type { TrackingService } from "./tracking-service.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";

const DAY = 86_400_000;

/** ISO date-time or Unix milliseconds. */
const instant = t.Union([t.Numeric(), t.String({ format: "date-time" })], { description: "ISO 8601 date-time or Unix milliseconds" });
const toMs = (v: string | number | undefined, fallback: number) =>
  v === undefined ? fallback : typeof v === "number" ? v : Date.parse(v);

export function trackingRoutes(deps: AuthDeps & { tracking: TrackingService; maxBodyBytes: number; metrics: Pick<ServiceMetrics, "countEvents"> }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .post(
      "/tracking",
      async ({ request, caller, params }) => {
        const body = await readJsonBody(request, { maxBytes: Math.min(deps.maxBodyBytes, 1024 * 1024), allowTextPlain: true });
        deps.metrics.countEvents(await deps.tracking.ingest(caller.store.id, params.version, body));
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
        return deps.tracking.list(caller.store.id, {
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
