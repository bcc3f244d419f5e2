import { Elysia } from "elysia";
import type { Logger } from "../log.ts";
import type { StorageHealth } from "../platform/storage-health.ts";
import { assertKnownVersion, assertServedVersion } from "./api-versions.ts";
import { compressingHandler } from "./compression.ts";
import { isBrowserRoute, preflightResponse } from "./cors.ts";
import { renderError, toAppError } from "./error-response.ts";
import { stringifyOnFastPath } from "./fast-json.ts";
import { assertValidHost, pathnameOf, requestIdOf } from "./request-target.ts";

/*
 * What every request goes through, whatever its route: a request id, the host and API version checks, CORS
 * preflights and headers, refusing writes the storage cannot keep, compression, JSON on the fast path, errors
 * rendered as JSON (405 told from 404 by the route table), and a log line and metrics per request. The routes are
 * added to the instance this returns, so its hooks cover every one of them.
 */

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

interface RequestInfo {
  id: string;
  start: number;
  /** Read once: the hooks after onRequest need it too. */
  pathname: string;
  status?: number;
  storeId?: string;
}

/** A path pattern of the route table as a regular expression, to tell 405 from 404. */
const routePattern = (path: string) =>
  new RegExp(
    "^" +
      path
        .replace(/\/$/, "")
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/:[^/]+/g, "[^/]+") +
      "/?$",
  );

export interface PipelineOptions {
  storage: Pick<StorageHealth, "assertWritable" | "classify">;
  log: Logger;
  /** Told of every answered request (modules/metrics/service-metrics.ts keeps the figures). */
  metrics: { observeRequest(method: string, route: string | undefined, status: number, seconds: number): void };
  /** The app's routes, read once on the first 404 or 405. */
  routes: () => readonly { method: string; path: string }[];
}

export function httpPipeline(o: PipelineOptions) {
  const requests = new WeakMap<Request, RequestInfo>();
  let routeTable: { method: string; pattern: RegExp }[] | null = null;
  const allowedMethods = (pathname: string) => {
    routeTable ??= o.routes().map((r) => ({ method: r.method, pattern: routePattern(r.path) }));
    const methods = routeTable.filter((r) => r.pattern.test(pathname)).map((r) => r.method);
    return methods.length ? [...new Set(methods)] : null;
  };

  return new Elysia()
    .wrap(compressingHandler)
    .onRequest(({ request }) => {
      const pathname = pathnameOf(request);
      requests.set(request, { id: requestIdOf(request), start: performance.now(), pathname });
      assertValidHost(request);
      assertKnownVersion(pathname);
      const origin = request.headers.get("origin");
      if (request.method === "OPTIONS" && origin && isBrowserRoute(pathname)) return preflightResponse(origin);
      // Refused before any body is read: nothing is acknowledged that the storage could not keep.
      if (WRITE_METHODS.has(request.method)) o.storage.assertWritable();
    })
    .onBeforeHandle(({ request, set, params }) => {
      // Elysia passes no params object to routes without any.
      assertServedVersion((params as Record<string, string> | undefined)?.version);
      const info = requests.get(request)!;
      set.headers["x-request-id"] = info.id;
      const origin = request.headers.get("origin");
      if (origin && isBrowserRoute(info.pathname)) {
        set.headers["access-control-allow-origin"] = origin;
        set.headers.vary = "Origin";
      }
    })
    .mapResponse(({ responseValue, set }) => {
      // Elysia writes objects with plain JSON.stringify, off its fast path on the first wide character.
      const type = (responseValue as object | null | undefined)?.constructor;
      if (type !== Object && type !== Array) return;
      const headers = { "content-type": String(set.headers["content-type"] ?? "application/json") };
      return new Response(stringifyOnFastPath(responseValue as object), { headers });
    })
    .onError(({ code, error, request, set }) => {
      const info = requests.get(request) ?? { id: crypto.randomUUID(), start: performance.now(), pathname: pathnameOf(request) };
      const appError = o.storage.classify(error) ?? toAppError(code, error, () => allowedMethods(info.pathname));
      if (appError.status >= 500) {
        o.log.error("request failed", { requestId: info.id, error: (error as Error)?.message, stack: (error as Error)?.stack });
      }
      info.status = appError.status;
      const headers: Record<string, string> = { "x-request-id": info.id };
      const origin = request.headers.get("origin");
      // Browser code may read why its call failed, except when its origin is the reason.
      if (origin && isBrowserRoute(info.pathname) && appError.code !== "origin_not_allowed") {
        headers["access-control-allow-origin"] = origin;
        headers.vary = "Origin";
      } else {
        // Elysia merges headers set earlier in the request into this response.
        delete set.headers["access-control-allow-origin"];
      }
      return renderError(appError, headers, info.id);
    })
    .onAfterResponse(({ request, set, route }) => {
      const info = requests.get(request);
      if (!info) return;
      const status = info.status ?? (typeof set.status === "number" ? set.status : 200);
      const elapsedMs = performance.now() - info.start;
      o.metrics.observeRequest(request.method, route, status, elapsedMs / 1000);
      // A storefront page loads dozens of images and scripts (and the demo's enrichment fetches its own images):
      // successful reads outside the API are debug lines, so the log shows API traffic and every failure.
      const quiet = status < 400 && request.method === "GET" && !route.startsWith("/:version");
      o.log[quiet ? "debug" : "info"]("request", {
        requestId: info.id,
        method: request.method,
        route,
        storeId: request.headers.get("x-service-store-id") ?? undefined,
        status,
        ms: Math.round(elapsedMs * 100) / 100,
      });
    });
}
