import { Elysia, t } from "elysia";
import { UnauthorizedError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../../http/auth-plugin.ts";
import { parseSimilarityParams } from "./similarity-params.ts";
import type { SimilarityService } from "./similarity-service.ts";

const optional = (description: string) => t.Optional(t.String({ description }));

export function similarityRoutes(deps: AuthDeps & { similarity: SimilarityService }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).get(
    "/similarity",
    async ({ query, caller }) => {
      const params = parseSimilarityParams(query as Record<string, string>);
      // The score parts show how the store's catalog is read: for the store, not for every shopper.
      if (params.explain && caller.keyKind !== "admin") throw new UnauthorizedError("explain=true needs an admin key");
      return deps.similarity.similar(caller.store, params);
    },
    {
      auth: "search",
      // Documented here, checked by parseSimilarityParams so every 400 names its parameter.
      query: t.Object(
        {
          productId: optional("Product whose similar products are wanted (required)"),
          variantId: optional("The variant shown: its colour pulls same-coloured products forward"),
          from: optional("Offset, default 0 (alias: offset)"),
          pageSize: optional("Results per page, 1 to 100, default 30"),
          facets: optional("Selections key:value,key:value, as in search (special values too)"),
          language: optional("Locale of facet names"),
          explain: optional("true (admin key): each result's score and its parts"),
        },
        { additionalProperties: true },
      ),
      detail: { summary: "Products similar to a product", tags: ["Search"] },
    },
  );
}
