import { Elysia } from "elysia";
import { findCaller } from "./api-keys.ts";
import type { KeyKind, StoreRow, StoresRepository } from "./storage/stores-repository.ts";
import { ForbiddenOriginError, TooManyRequestsError, UnauthorizedError } from "../../errors.ts";
import { originAllowed } from "../../http/cors.ts";
import type { RateLimiter } from "../../http/rate-limiter.ts";

export interface AccessPolicy {
  /**
   * Browser keys are limited per store and client address, admin keys per store: requests, and shopper events
   * (charged by the events each request carries, see chargeEvents).
   */
  limits: { browser: RateLimiter; admin: RateLimiter; events: RateLimiter; adminEvents: RateLimiter };
  /** Client address from the last X-Forwarded-For entry (the one our own proxy appended) instead of the socket. */
  trustProxy: boolean;
  /** The one origin whose pages may use an admin key (PUBLIC_URL); null: none. */
  adminOrigin: string | null;
}

export interface AuthDeps {
  stores: StoresRepository;
  now: () => number;
  access: AccessPolicy;
}

export interface Caller {
  store: StoreRow;
  keyKind: KeyKind;
  /** Whose rate limits the request is charged to: the store, and for a browser key the client's address. */
  client: string;
}

/**
 * explain=true shows how the store's catalog, vocabulary and ranking are read: for the store (an admin key), not
 * for every shopper.
 */
export function assertMayExplain(explain: boolean, caller: Caller): void {
  if (explain && caller.keyKind !== "admin") throw new UnauthorizedError("explain=true needs an admin key");
}

const REQUIRED: Record<KeyKind, string> = {
  admin: "an admin key",
  search: "a search key",
  analytics: "an analytics key",
};

function credentials(headers: Record<string, string | undefined>, query: Record<string, unknown>, kind: KeyKind) {
  const fromHeaders = { storeId: headers["x-service-store-id"], key: headers["x-service-api-key"], inQuery: false };
  if (fromHeaders.storeId || fromHeaders.key || kind !== "analytics") return fromHeaders;
  // navigator.sendBeacon cannot set headers: analytics (browser) keys may come in the query string instead.
  const q = (name: string) => (typeof query[name] === "string" ? (query[name] as string) : undefined);
  return { storeId: q("x-service-store-id"), key: q("x-service-api-key"), inQuery: true };
}

function clientAddress(
  request: Request,
  server: { requestIP(r: Request): { address: string } | null } | null,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return server?.requestIP(request)?.address ?? "unknown";
}

/**
 * Resolves and checks the caller of a route: `{ auth: "search" }` lets search keys and admin keys in. It runs
 * before the route reads its body (routes with a body declare `parse: "none"` and read it in the handler), so
 * an unauthorised request never costs the memory or time of its body.
 */
export function authPlugin(deps: AuthDeps) {
  return new Elysia().macro({
    auth(kind: KeyKind) {
      return {
        async resolve({ headers, query, request, server }): Promise<{ caller: Caller }> {
          const { storeId, key, inQuery } = credentials(headers, query as Record<string, unknown>, kind);
          if (!storeId) throw new UnauthorizedError("Missing X-Service-Store-ID header");
          if (!key) throw new UnauthorizedError("Missing X-Service-API-Key header");
          const found = await findCaller(deps.stores, storeId, key, deps.now());
          if (!found) throw new UnauthorizedError("Unknown store or wrong API key");
          const { store, keyKind } = found;
          const origin = request.headers.get("origin");
          if (keyKind === "admin") {
            if (inQuery) throw new UnauthorizedError("Admin keys are never accepted in a URL");
            // Browsers send Origin from pages; the Host header is the client's to set, so it proves nothing.
            if (origin && origin !== deps.access.adminOrigin) {
              throw new UnauthorizedError(
                "Admin keys are for server-side calls only; use a search or analytics key in browsers " +
                  "(only pages at PUBLIC_URL, the service's own staff pages, may send an admin key)",
              );
            }
          } else if (keyKind !== kind) {
            throw new UnauthorizedError(`This route needs ${REQUIRED[kind]}; a ${keyKind} key cannot call it`);
          }
          if (origin && !originAllowed(origin, store.settings.allowedOrigins)) {
            throw new ForbiddenOriginError(`Origin ${origin} is not allowed for this store`);
          }
          const client = keyKind === "admin" ? store.id : `${store.id}\u0000${clientAddress(request, server, deps.access.trustProxy)}`;
          const limited = (keyKind === "admin" ? deps.access.limits.admin : deps.access.limits.browser).take(client);
          if (limited) {
            throw new TooManyRequestsError(
              `Too many requests for this store from this ${keyKind === "admin" ? "key" : "client"}; retry in ${limited} s`,
              limited,
            );
          }
          return { caller: { store, keyKind, client } };
        },
      };
    },
  });
}

/**
 * Charges a request's shopper events to its caller: a client keeping many large batches in flight is held to the
 * events it may send, not only to its requests. Throws the 429 when they do not fit.
 */
export function chargeEvents(access: AccessPolicy, caller: Caller, count: number): void {
  const admin = caller.keyKind === "admin";
  const wait = (admin ? access.limits.adminEvents : access.limits.events).take(caller.client, count);
  if (wait)
    throw new TooManyRequestsError(
      `Too many events for this store from this ${admin ? "key" : "client"} (${count} sent); retry in ${wait} s`,
      wait,
    );
}

/**
 * Charges a call that carries several searches (a multi-search) as that many requests: the authentication took
 * one, this takes the rest, so that batching searches does not multiply what a client may ask for. Throws the 429
 * when they do not fit.
 */
export function chargeSearches(access: AccessPolicy, caller: Caller, searches: number): void {
  const admin = caller.keyKind === "admin";
  const wait = searches > 1 ? (admin ? access.limits.admin : access.limits.browser).take(caller.client, searches - 1) : 0;
  if (wait)
    throw new TooManyRequestsError(
      `Too many requests for this store from this ${admin ? "key" : "client"} (${searches} searches in one call); retry in ${wait} s`,
      wait,
    );
}
