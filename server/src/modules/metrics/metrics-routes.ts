import { timingSafeEqual } from "node:crypto";
import { Elysia } from "elysia";
import { hashApiKey } from "../stores/api-keys.ts";
import { UnauthorizedError } from "../../errors.ts";
import type { ServiceMetrics } from "./service-metrics.ts";

/*
 * GET /metrics in Prometheus text format, for the operator's scraper: mounted only when METRICS_TOKEN is set
 * (otherwise the path is as unknown as any other), and answered only to `Authorization: Bearer <METRICS_TOKEN>`.
 * Both tokens are hashed first, so the constant-time compare sees equal lengths and the time tells nothing
 * about the token.
 */

const BEARER = /^Bearer +(\S+) *$/i;

function assertBearer(header: string | null, expected: Uint8Array): void {
  const presented = header ? BEARER.exec(header)?.[1] : undefined;
  if (presented === undefined || !timingSafeEqual(hashApiKey(presented), expected)) {
    throw new UnauthorizedError("Metrics need the header Authorization: Bearer <METRICS_TOKEN>", undefined, {
      "www-authenticate": 'Bearer realm="metrics"',
    });
  }
}

/** No route at all without a token: /metrics is then a 404 like any unknown path. */
export function metricsRoutes(deps: { token: string | null; metrics: ServiceMetrics }) {
  const plugin = new Elysia({ name: "metrics-routes" });
  if (!deps.token) return plugin;
  const expected = hashApiKey(deps.token);
  return plugin.get(
    "/metrics",
    async ({ request }) => {
      assertBearer(request.headers.get("authorization"), expected);
      return new Response(await deps.metrics.render(), {
        headers: { "content-type": deps.metrics.contentType, "cache-control": "no-store" },
      });
    },
    // For the operator's scraper, not API clients, and present only when enabled; docs/operations.md ("Metrics") documents it.
    { detail: { hide: true } },
  );
}
