import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { documentedParam } from "../../http/query-params.ts";
import { parseProductParams, parseShopperParams, parseTrendingParams } from "./recommendations-params.ts";
import type { RecommendationsService } from "./recommendations-service.ts";

const PAGE = {
  from: documentedParam("Offset, default 0 (alias: offset)"),
  pageSize: documentedParam("Results per page, 1 to 100, default 30"),
};
const SHOPPER = {
  userId: documentedParam("The shopper's user id (userId or sessionId is required; userId is used first)"),
  sessionId: documentedParam("The shopper's session id"),
  ...PAGE,
};
const loose = <T extends Record<string, ReturnType<typeof documentedParam>>>(params: T) => t.Object(params, { additionalProperties: true });
const detail = (summary: string) => ({ summary, tags: ["Search"] });

/* The recommendation placements' endpoints (search key): recommendations.md describes each model and its fallback. */
export function recommendationsRoutes(deps: AuthDeps & { recommendations: RecommendationsService }) {
  const r = deps.recommendations;
  return new Elysia({ prefix: "/:version/recommendations" })
    .use(authPlugin(deps))
    .get("/trending", ({ query, caller }) => r.trending(caller.store, parseTrendingParams(query as Record<string, string>)), {
      auth: "search",
      query: loose({ category: documentedParam('A category path as the category facets give it ("Apparel > Topwear")'), ...PAGE }),
      detail: detail("Products whose shopper interest rises (overall or in a category); the catalog's most bought on day one"),
    })
    .get("/bought-together", ({ query, caller }) => r.boughtTogether(caller.store, parseProductParams(query as Record<string, string>)), {
      auth: "search",
      query: loose({ productId: documentedParam("The product (required)"), ...PAGE }),
      detail: detail("Products bought in the same orders as a product, by lift; its complete-the-look pieces before it has orders"),
    })
    .get("/recently-viewed", ({ query, caller }) => r.recentlyViewed(caller.store, parseShopperParams(query as Record<string, string>)), {
      auth: "search",
      query: loose(SHOPPER),
      detail: detail("A shopper's last viewed products, newest first"),
    })
    .get("/for-you", ({ query, caller }) => r.forYou(caller.store, parseShopperParams(query as Record<string, string>)), {
      auth: "search",
      query: loose(SHOPPER),
      detail: detail("Products matching a shopper's affinities, without what they bought; trending for a new shopper"),
    });
}
