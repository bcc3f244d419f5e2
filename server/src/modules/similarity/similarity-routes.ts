import { Elysia, t } from "elysia";
import { assertMayExplain, authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { documentedParam, shopperParamDocs } from "../../http/query-params.ts";
import { parseSimilarityParams } from "./similarity-params.ts";
import type { SimilarityService } from "./similarity-service.ts";

export function similarityRoutes(deps: AuthDeps & { similarity: SimilarityService }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).get(
    "/similarity",
    async ({ query, caller }) => {
      const params = parseSimilarityParams(query as Record<string, string>);
      assertMayExplain(params.explain, caller);
      return deps.similarity.similar(caller.store, params);
    },
    {
      auth: "search",
      // Documented here, checked by parseSimilarityParams so every 400 names its parameter.
      query: t.Object(
        {
          productId: documentedParam("Product whose similar products are wanted (required)"),
          variantId: documentedParam("The variant shown: its colour pulls same-coloured products forward"),
          from: documentedParam("Offset, default 0 (alias: offset)"),
          pageSize: documentedParam("Results per page, 1 to 100, default 30"),
          facets: documentedParam("Selections key:value,key:value, as in search (special values too)"),
          language: documentedParam("Locale of facet names"),
          explain: documentedParam("true (admin key): each result's score and its parts"),
          ...shopperParamDocs,
        },
        { additionalProperties: true },
      ),
      detail: { summary: "Products similar to a product", tags: ["Search"] },
    },
  );
}
