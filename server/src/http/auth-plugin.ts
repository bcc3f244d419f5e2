import { Elysia } from "elysia";
import { matchApiKey } from "../auth/api-keys.ts";
import type { KeyKind, StoreRow, StoresRepo } from "../db/stores-repo.ts";
import { ForbiddenOriginError, UnauthorizedError } from "../errors.ts";
import { originAllowed } from "./cors.ts";

export interface AuthDeps {
  stores: StoresRepo;
  now: () => number;
}

export interface Caller {
  store: StoreRow;
  keyKind: KeyKind;
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

/** Resolves and checks the caller of a route: `{ auth: "search" }` lets search keys and admin keys in. */
export function authPlugin(deps: AuthDeps) {
  return new Elysia().macro({
    auth(kind: KeyKind) {
      return {
        resolve({ headers, query, request }): { caller: Caller } {
          const { storeId, key, inQuery } = credentials(headers, query as Record<string, unknown>, kind);
          if (!storeId) throw new UnauthorizedError("Missing X-Service-Store-ID header");
          if (!key) throw new UnauthorizedError("Missing X-Service-API-Key header");
          const store = deps.stores.get(storeId);
          // Unknown store and wrong key answer alike, so store ids cannot be probed.
          const keyKind = store ? matchApiKey(key, deps.stores.activeKeys(store.id, deps.now())) : null;
          if (!store || !keyKind) throw new UnauthorizedError("Unknown store or wrong API key");
          if (keyKind === "admin") {
            if (inQuery) throw new UnauthorizedError("Admin keys are never accepted in a URL");
            const origin = request.headers.get("origin");
            if (origin && origin !== new URL(request.url).origin) {
              throw new UnauthorizedError("Admin keys are for server-side calls only; use a search or analytics key in browsers");
            }
          } else if (keyKind !== kind) {
            throw new UnauthorizedError(`This route needs ${REQUIRED[kind]}; a ${keyKind} key cannot call it`);
          }
          const origin = request.headers.get("origin");
          if (origin && !originAllowed(origin, store.settings.allowedOrigins)) {
            throw new ForbiddenOriginError(`Origin ${origin} is not allowed for this store`);
          }
          return { caller: { store, keyKind } };
        },
      };
    },
  });
}
