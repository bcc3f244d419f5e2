import { Elysia, t } from "elysia";
import { UnauthorizedError } from "../../errors.ts";
import { jsonWithFragments } from "../../http/json-with-fragments.ts";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { SORT_BY_VALUES } from "./sort-strategies.ts";
import { parseSearchParams } from "./search-params.ts";
import type { SearchService } from "./search-service.ts";

const optional = (description: string) => t.Optional(t.String({ description }));

export function searchRoutes(deps: AuthDeps & { search: SearchService }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .get("/search", async ({ query, caller }) => {
      const params = parseSearchParams(query as Record<string, string>);
      // The explanation shows the store's vocabulary and its ranking: for the store, not for every shopper.
      if (params.explain && caller.keyKind !== "admin") throw new UnauthorizedError("explain=true needs an admin key");
      const { products, ...rest } = await deps.search.search(caller.store, params);
      return jsonWithFragments("products", products, rest);
    }, {
      auth: "search",
      // Documented here, checked by parseSearchParams so every 400 names its parameter.
      query: t.Object(
        {
          query: optional("Search term; query or collection is required"),
          collection: optional("Collection handle"),
          from: optional("Offset, default 0 (alias: offset)"),
          offset: optional("Alias of from"),
          pageSize: optional("Results per page, 1 to 100, default 30"),
          userId: optional("Anonymous shopper id (also UserId)"),
          sessionId: optional("Anonymous session id (also SessionId)"),
          preprod: optional("true: results computed and logged as pre-production"),
          typeahead: optional("true: a typeahead preview while typing; not logged as a search"),
          returnFacets: optional("true: facets are returned (alias: facetsEnabled)"),
          facetsEnabled: optional("Alias of returnFacets"),
          spellEnabled: optional("false: no spell suggestions (default true)"),
          facets: optional("Selections key:value,key:value; price as price:lb-ub; escape , and \\ with \\"),
          campaignProducts: optional("Comma-separated product ids for sortBy=campaign"),
          sortBy: optional(`One of ${SORT_BY_VALUES.join(", ")}`),
          explain: optional("true (admin key): the query's interpretation, the engine request and each result's score parts"),
          language: optional("Locale of facet names (e.g. de, pt-BR); default the store's locale setting"),
        },
        { additionalProperties: true },
      ),
      detail: { summary: "Search products", tags: ["Search"] },
    });
}
