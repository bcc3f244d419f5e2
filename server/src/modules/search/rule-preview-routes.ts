import { Elysia } from "elysia";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { jsonWithFragments } from "../../http/json-with-fragments.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { assertRuleId, parseRuleBody, RULE_BYTES } from "../rules/rule-schema.ts";
import { searchParamsFromBody } from "./search-params-body.ts";
import type { SearchService } from "./search-service.ts";

/** POST /rules/preview (admin key): a search as if a draft rule were live. Search serves it, as it runs the rules. */
export function rulePreviewRoutes(deps: AuthDeps & { search: SearchService }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).post(
    "/rules/preview",
    async ({ request, caller }) => {
      const body = await readJsonBody(request, { maxBytes: RULE_BYTES });
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw new ValidationError("Body must be { rule, search }", [{ path: "body", problem: "must be an object { id?, rule, search }" }]);
      }
      const { id = "draft", rule, search } = body as Record<string, unknown>;
      if (typeof id !== "string") throw new ValidationError("id must be a string", [{ path: "body.id", problem: "must be a string" }]);
      assertRuleId(id, "body.id");
      const draft = { id, body: parseRuleBody(rule, "body.rule") };
      const { products, ...rest } = await deps.search.search(caller.store, searchParamsFromBody(search, "body.search"), draft);
      return jsonWithFragments("products", products, rest);
    },
    {
      auth: "admin",
      parse: "none",
      detail: {
        summary: "The search response as if a draft rule were live (nothing is saved)",
        description:
          'Body: { "id"?: rule id it replaces, "rule": a rule, "search": GET /search parameters, e.g. { "query": "shoes", "explain": true } }.',
        tags: ["Merchandising"],
      },
    },
  );
}
