import { Type } from "@sinclair/typebox";
import type { ExperimentTag, ImportedQuery, QueryLogImport, SuggestionsResponse } from "@storefront-search/contract";
import { Elysia, t } from "elysia";
import { ValidationError } from "../../errors.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBody } from "../../http/json-body.ts";
import { boundedInteger, shopperParamDocs, shopperParams, type Raw, type ShopperIds } from "../../http/query-params.ts";
import { schemaFor, schemaProblems } from "../../schema-check.ts";
import type { SuggestionsService } from "./suggestions-service.ts";

const ImportedQueries = schemaFor<ImportedQuery[]>()(
  Type.Array(
    Type.Object(
      {
        query: Type.String({ minLength: 1, maxLength: 512 }),
        searches: Type.Integer({ minimum: 1, maximum: 1e9 }),
        /** What the query's searches led to under the previous provider ("Men > Clothing"): evidence of its meaning. */
        categories: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 20 })),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 10_000 },
  ),
);

export function suggestionsRoutes(
  deps: AuthDeps & {
    suggestions: SuggestionsService;
    /** A query rule's redirect the typed text triggers, for typeahead to follow; `withheld` rules are not in force. */
    redirectFor?: (store: StoreRow, query: string, withheld?: ReadonlySet<string>) => Promise<string | null>;
    /**
     * The shopper's variant of the A/B experiment covering the typed text (modules/experiments): the rules it holds
     * back do not redirect (absent: no experiments).
     */
    variants?: (
      store: StoreRow,
      request: ShopperIds & { query: string },
    ) => Promise<{ tag: ExperimentTag | null; withheldRules: ReadonlySet<string> } | null>;
  },
) {
  return new Elysia({ prefix: "/:version" })
    .use(authPlugin(deps))
    .get(
      "/suggestions",
      async ({ query, caller }) => {
        const text = query.query ?? "";
        if (text.length > 100)
          throw new ValidationError("query is too long", [{ path: "query.query", problem: "must be at most 100 characters" }]);
        const raw = query.limit?.trim();
        const limit = boundedInteger(raw ? Number(raw) : undefined, "limit", { min: 1, max: 20, fallback: 8 });
        const shopper = shopperParams(query as Raw);
        const answer: SuggestionsResponse = await deps.suggestions.suggest(caller.store.id, text, limit);
        if (!text.trim()) return answer;
        const variant = (await deps.variants?.(caller.store, { ...shopper, query: text })) ?? null;
        const redirect = await deps.redirectFor?.(caller.store, text, variant?.withheldRules);
        return { ...answer, ...(redirect ? { redirect } : {}), ...(variant?.tag ? { experiment: variant.tag } : {}) };
      },
      {
        auth: "search",
        query: t.Object({
          query: t.Optional(t.String({ description: "What the shopper typed so far" })),
          limit: t.Optional(t.String({ description: "Suggestions and designers each, 1 to 20, default 8" })),
          preprod: t.Optional(t.String({ description: "Accepted as for search; suggestions do not change" })),
          ...shopperParamDocs,
        }),
        detail: { summary: "Query suggestions (typeahead)", tags: ["Search"] },
      },
    )
    .post(
      "/query-log",
      async ({ request, caller }) => {
        const body = await readJsonBody(request, { maxBytes: 4 * 1024 * 1024 });
        const problems = schemaProblems(ImportedQueries, body, "body");
        if (problems.length) throw new ValidationError(`Invalid query log: ${problems[0]!.path} ${problems[0]!.problem}`, problems);
        const queries = body as ImportedQuery[];
        const { withResults, skipped } = await deps.suggestions.importQueries(caller.store.id, queries);
        return { imported: queries.length - skipped, withResults, skipped } satisfies QueryLogImport;
      },
      {
        auth: "admin",
        // Read by the handler, after the key is checked.
        parse: "none",
        detail: {
          summary:
            "Import past queries [{ query, searches, categories? }] (e.g. from a previous search provider) to seed suggestions and what queries mean",
          description:
            "Answers { imported, withResults, skipped }: queries that can never be suggested (a repeated word, an email, link or number of 5+ digits, more than 6 words) are skipped.",
          tags: ["Search"],
        },
      },
    );
}
