import { Elysia, t } from "elysia";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { boundedInteger, documentedParam, pageParams, type Raw } from "../../http/query-params.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { assertRuleId, parseRuleBody, RULE_BYTES } from "./rule-schema.ts";
import type { RulesService } from "./rules-service.ts";

const IMPORT_BYTES = 8 * 1024 * 1024;
const LIST_LIMIT = { min: 1, max: 1_000, fallback: 100 };

const ruleParam = t.Object({ version: t.String(), id: t.String({ maxLength: 200 }) });

/**
 * Query rules (merchandising), admin key: CRUD and import of Algolia rule exports. A draft rule's preview is a search,
 * so search serves it (search/rule-preview-routes.ts).
 */
export function rulesRoutes(deps: AuthDeps & { rules: RulesService }) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .get(
      "/rules",
      ({ query, caller }) => {
        const { from } = pageParams(query as Raw);
        const raw = (query as Raw).limit;
        return deps.rules.list(
          caller.store,
          from,
          boundedInteger(raw === undefined || raw === "" ? undefined : Number(raw), "limit", LIST_LIMIT),
        );
      },
      {
        auth: "admin",
        query: t.Object(
          { from: documentedParam("Offset, default 0"), limit: documentedParam("Rules per page, 1 to 1000, default 100") },
          { additionalProperties: true },
        ),
        detail: { summary: "The store's query rules, by id: { rules, total }", tags: ["Merchandising"] },
      },
    )
    .post(
      "/rules/import",
      async ({ request, query, caller }) => {
        if ((query as Raw).format !== "algolia")
          throw new ValidationError("format must be algolia", [{ path: "query.format", problem: "must be algolia" }]);
        return deps.rules.import(caller.store, await readJsonBody(request, { maxBytes: IMPORT_BYTES }));
      },
      {
        auth: "admin",
        parse: "none",
        query: t.Object(
          { format: documentedParam("algolia (an Algolia rules export: an array of rules)") },
          { additionalProperties: true },
        ),
        detail: { summary: "Import an Algolia rules export: { imported, errors: [{ index, id?, message }] }", tags: ["Merchandising"] },
      },
    )
    .get(
      "/rules/:id",
      ({ params, caller }) => {
        assertRuleId(params.id);
        return deps.rules.get(caller.store, params.id);
      },
      { auth: "admin", params: ruleParam, detail: { summary: "One query rule", tags: ["Merchandising"] } },
    )
    .put(
      "/rules/:id",
      async ({ params, request, caller }) => {
        assertRuleId(params.id);
        return deps.rules.put(caller.store, params.id, parseRuleBody(await readJsonBody(request, { maxBytes: RULE_BYTES })));
      },
      {
        auth: "admin",
        parse: "none",
        params: ruleParam,
        detail: { summary: "Create or replace a query rule (conditions, consequence, from/until, enabled)", tags: ["Merchandising"] },
      },
    )
    .delete(
      "/rules/:id",
      ({ params, caller }) => {
        assertRuleId(params.id);
        return deps.rules.delete(caller.store, params.id);
      },
      { auth: "admin", params: ruleParam, detail: { summary: "Delete a query rule", tags: ["Merchandising"] } },
    );
}
