import { Elysia, t } from "elysia";
import { assertMayExplain, authPlugin, type AuthDeps, type Caller } from "../stores/auth-plugin.ts";
import { documentedParam, shopperParamDocs } from "../../http/query-params.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { parseLookParams, parsePinnedLooks } from "./look-params.ts";
import type { LookService } from "./look-service.ts";

const lookQuery = t.Object(
  {
    productId: documentedParam("Product whose looks are wanted (required)"),
    variantId: documentedParam("The variant shown: the looks go with its colour"),
    explain: documentedParam("true (admin key): per piece, the slot it fills and why it was chosen"),
    ...shopperParamDocs,
  },
  { additionalProperties: true },
);

/**
 * GET /ctl (the spec's sample path, without a version) and GET /{version}/ctl: a search key, like every
 * shopper-facing read. The store's pinned looks: admin key.
 */
export function lookRoutes(deps: AuthDeps & { looks: LookService }) {
  const looks = ({ query, caller }: { query: Record<string, unknown>; caller: Caller }) => {
    const params = parseLookParams(query as Record<string, string>);
    assertMayExplain(params.explain, caller);
    return deps.looks.looks(caller.store, params);
  };
  const looksOptions = {
    auth: "search" as const,
    query: lookQuery,
    detail: { summary: "Complete the look: up to 9 looks (arrays of Search products) that go with a product", tags: ["Search"] },
  };
  const productParam = t.Object({ version: t.String(), productId: t.String({ maxLength: 256 }) });
  return new Elysia()
    .use(authPlugin(deps))
    .get("/ctl", looks, looksOptions)
    .group("/:version", (app) =>
      app
        .get("/ctl", looks, looksOptions)
        .get("/ctl/pinned/:productId", ({ params, caller }) => deps.looks.getPinned(caller.store, params.productId), {
          auth: "admin",
          params: productParam,
          detail: { summary: "The looks the store pinned for a product", tags: ["Search"] },
        })
        .put(
          "/ctl/pinned/:productId",
          async ({ params, request, caller }) =>
            deps.looks.putPinned(caller.store, params.productId, parsePinnedLooks(await readJsonBody(request, { maxBytes: 64 * 1024 }))),
          {
            auth: "admin",
            parse: "none",
            params: productParam,
            detail: {
              summary: "Pin curated looks for a product: shown before the composed ones",
              description: 'Body: { "looks": [["productId", …], …] }, 1 to 9 looks of 1 to 8 products of this store.',
              tags: ["Search"],
            },
          },
        )
        .delete(
          "/ctl/pinned/:productId",
          async ({ params, caller, set }) => {
            await deps.looks.deletePinned(caller.store, params.productId);
            set.status = 204;
          },
          { auth: "admin", params: productParam, detail: { summary: "Remove a product's pinned looks", tags: ["Search"] } },
        ),
    );
}
