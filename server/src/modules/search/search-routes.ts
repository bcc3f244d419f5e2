import { Elysia, t } from "elysia";
import { jsonWithFragments } from "../../http/json-with-fragments.ts";
import { assertMayExplain, authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { documentedParam, shopperParamDocs } from "../../http/query-params.ts";
import { SORT_BY_VALUES } from "./sort-strategies.ts";
import { parseSearchParams } from "./search-params.ts";
import type { SearchService } from "./search-service.ts";
import type { ServiceMetrics } from "../metrics/service-metrics.ts";

export function searchRoutes(deps: AuthDeps & { search: SearchService; metrics: Pick<ServiceMetrics, "observeSearch"> }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).get(
    "/search",
    async ({ query, caller }) => {
      const params = parseSearchParams(query as Record<string, string>);
      assertMayExplain(params.explain, caller);
      const started = performance.now();
      const { products, ...rest } = await deps.search
        .search(caller.store, params)
        .finally(() => deps.metrics.observeSearch((performance.now() - started) / 1000));
      return jsonWithFragments("products", products, rest);
    },
    {
      auth: "search",
      // Documented here, checked by parseSearchParams so every 400 names its parameter.
      query: t.Object(
        {
          query: documentedParam("Search term; query or collection is required"),
          collection: documentedParam("Collection handle"),
          from: documentedParam("Offset, default 0 (alias: offset)"),
          offset: documentedParam("Alias of from"),
          pageSize: documentedParam("Results per page, 1 to 100, default 30"),
          ...shopperParamDocs,
          preprod: documentedParam("true: results computed and logged as pre-production"),
          typeahead: documentedParam("true: a typeahead preview while typing; not logged as a search"),
          browse: documentedParam(
            "true with no query and no collection: the whole catalog, most bought first (an empty search box); not logged",
          ),
          returnFacets: documentedParam("true: facets are returned (alias: facetsEnabled)"),
          facetsEnabled: documentedParam("Alias of returnFacets"),
          spellEnabled: documentedParam("false: no spell suggestions (default true)"),
          autocorrect: documentedParam(
            "false: misspelt words are searched as typed instead of replaced by their correction (default true)",
          ),
          facets: documentedParam("Selections key:value,key:value; price as price:lb-ub; escape , and \\ with \\"),
          campaignProducts: documentedParam("Comma-separated product ids for sortBy=campaign"),
          sortBy: documentedParam(`One of ${SORT_BY_VALUES.join(", ")}`),
          explain: documentedParam("true (admin key): the query's interpretation, the engine request and each result's score parts"),
          language: documentedParam("Locale of facet names (e.g. de, pt-BR); default the store's locale setting"),
          analytics: documentedParam("false: answered, but not logged as a shopper's search (default true)"),
        },
        { additionalProperties: true },
      ),
      detail: { summary: "Search products", tags: ["Search"] },
    },
  );
}
