import { Elysia } from "elysia";
import { MAX_MULTI_SEARCH_REQUESTS } from "@storefront-search/contract";
import { ValidationError } from "../../errors.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { jsonListWithFragments } from "../../http/json-with-fragments.ts";
import { assertMayExplain, authPlugin, chargeSearches, type AuthDeps } from "../stores/auth-plugin.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";
import { searchParamsFromBody } from "./search-params-body.ts";
import type { SearchService } from "./search-service.ts";

/**
 * A multi-search body's bytes: 50 searches of long queries and many facet selections fit several times over,
 * and a body of search parameters has no reason to be larger.
 */
const MULTI_SEARCH_BYTES = 256 * 1024;

function requestsOf(body: unknown): unknown[] {
  const requests =
    typeof body === "object" && body !== null && !Array.isArray(body) ? (body as { requests?: unknown }).requests : undefined;
  if (!Array.isArray(requests) || requests.length === 0) {
    throw new ValidationError("Body must be { requests: [ <search parameters>, … ] }", [
      { path: "body.requests", problem: `must be an array of 1 to ${MAX_MULTI_SEARCH_REQUESTS} objects of search parameters` },
    ]);
  }
  if (requests.length > MAX_MULTI_SEARCH_REQUESTS) {
    throw new ValidationError(`At most ${MAX_MULTI_SEARCH_REQUESTS} searches per call, got ${requests.length}`, [
      { path: "body.requests", problem: `must hold at most ${MAX_MULTI_SEARCH_REQUESTS} searches` },
    ]);
  }
  return requests;
}

/** POST /multi-search (search key): GET /search's searches in one round trip, answered in order. */
export function multiSearchRoutes(deps: AuthDeps & { search: SearchService; metrics: Pick<ServiceMetrics, "observeSearch"> }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).post(
    "/multi-search",
    async ({ request, caller }) => {
      const requests = requestsOf(await readJsonBody(request, { maxBytes: MULTI_SEARCH_BYTES }));
      // Every item is checked before any runs: a bad one costs no searches.
      const params = requests.map((item, i) => searchParamsFromBody(item, `body.requests[${i}]`, { minPageSize: 0 }));
      for (const p of params) assertMayExplain(p.explain, caller);
      chargeSearches(deps.access, caller, params.length);
      const answers = await Promise.all(
        params.map(async (p) => {
          const started = performance.now();
          const { products, ...rest } = await deps.search
            .search(caller.store, p)
            .finally(() => deps.metrics.observeSearch((performance.now() - started) / 1000));
          return { fragments: products, rest };
        }),
      );
      return jsonListWithFragments("results", "products", answers);
    },
    {
      auth: "search",
      parse: "none",
      detail: {
        summary: "Several searches in one round trip (a search UI's queries for one state), answered in order",
        description:
          `Body: { "requests": [ GET /search's parameters as an object, … ] }, 1 to ${MAX_MULTI_SEARCH_REQUESTS} of them, at most ${MULTI_SEARCH_BYTES / 1024} KiB. ` +
          'Answer: { "results": [ GET /search\'s answer, … ] } in the same order. An item may also take pageSize 0 (the count and ' +
          "the facets, no products) and analytics false; neither is logged as a shopper's search. A 400 names the item: body.requests[2].pageSize.",
        tags: ["Search"],
      },
    },
  );
}
