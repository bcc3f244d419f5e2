import { Elysia, t } from "elysia";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { boundedInteger, documentedParam } from "../../http/query-params.ts";
import { jsonWithFragments } from "../../http/json-with-fragments.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { pageParams, type Raw } from "../search/search-params.ts";
import { parseSearchParams } from "../search/search-params.ts";
import type { SearchService } from "../search/search-service.ts";
import { assertRuleId, parseRuleBody } from "./rule-schema.ts";
import type { RulesService } from "./rules-service.ts";

const RULE_BYTES = 64 * 1024;
const IMPORT_BYTES = 8 * 1024 * 1024;
const LIST_LIMIT = { min: 1, max: 1_000, fallback: 100 };

const ruleParam = t.Object({ version: t.String(), id: t.String({ maxLength: 200 }) });

/** A preview's `search` object as GET /search's query parameters; its 400s name body.search.<parameter>. */
function previewSearch(value: unknown) {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError("search must be an object of search parameters", [
      { path: "body.search", problem: 'must be an object such as { "query": "shoes" }' },
    ]);
  }
  const raw: Raw = {};
  for (const [key, v] of Object.entries(value)) {
    if (!["string", "number", "boolean"].includes(typeof v)) {
      throw new ValidationError(`search.${key} must be a string, number or boolean`, [
        { path: `body.search.${key}`, problem: "must be a string, number or boolean" },
      ]);
    }
    raw[key] = String(v);
  }
  try {
    return parseSearchParams(raw);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const details = (error.details ?? []).map((d) => ({ ...d, path: d.path.replace(/^query\./, "body.search.") }));
    throw new ValidationError(error.message, details);
  }
}

/** Query rules (merchandising), admin key: CRUD, a preview of a draft rule, and import of Algolia rule exports. */
export function rulesRoutes(deps: AuthDeps & { rules: RulesService; search: SearchService }) {
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
      "/rules/preview",
      async ({ request, caller }) => {
        const body = await readJsonBody(request, { maxBytes: RULE_BYTES });
        if (typeof body !== "object" || body === null || Array.isArray(body)) {
          throw new ValidationError("Body must be { rule, search }", [
            { path: "body", problem: "must be an object { id?, rule, search }" },
          ]);
        }
        const { id = "draft", rule, search } = body as Record<string, unknown>;
        if (typeof id !== "string") throw new ValidationError("id must be a string", [{ path: "body.id", problem: "must be a string" }]);
        assertRuleId(id, "body.id");
        const draft = { id, body: parseRuleBody(rule, "body.rule") };
        const { products, ...rest } = await deps.search.search(caller.store, previewSearch(search), draft);
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
