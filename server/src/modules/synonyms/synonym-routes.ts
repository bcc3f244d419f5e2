import { Elysia, t } from "elysia";
import { ValidationError } from "../../errors.ts";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { readJsonBody, readJsonBytes } from "../../http/json-body.ts";
import { countTopLevelItems, parseJsonText } from "../../json-text.ts";
import { textOf } from "../../utf8-text.ts";
import { documentedParam } from "../../http/query-params.ts";
import { parseFormat } from "./synonym-formats.ts";
import { MAX_SYNONYM_SETS, parseSynonymBody } from "./synonym-schema.ts";
import type { SynonymService } from "./synonym-service.ts";

/** Largest page of GET /synonyms. */
const MAX_PAGE = 1000;
/** A whole store's sets in the largest export: 5,000 sets of 20 phrases of 100 characters, with JSON around them. */
const MAX_IMPORT_BYTES = 16 * 1024 * 1024;

function whole(query: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new ValidationError(`query.${name} must be a whole number from ${min} to ${max}`, [
      { path: `query.${name}`, problem: `must be a whole number from ${min} to ${max}` },
    ]);
  return n;
}

/** The store's synonym sets: admin key. */
export function synonymRoutes(deps: AuthDeps & { synonyms: SynonymService }) {
  const idParam = t.Object({ version: t.String(), id: t.String({ maxLength: 256 }) });
  const tags = ["Merchandising"];
  const formatQuery = t.Object({ format: documentedParam("native (default), algolia or typesense") }, { additionalProperties: true });
  return new Elysia().use(authPlugin(deps)).group("/:version", (app) =>
    app
      .get(
        "/synonyms",
        ({ query, caller }) => {
          const q = query as Record<string, string | undefined>;
          return deps.synonyms.list(caller.store.id, whole(q, "from", 0, 0, MAX_SYNONYM_SETS), whole(q, "limit", 100, 1, MAX_PAGE));
        },
        {
          auth: "admin",
          query: t.Object(
            {
              from: documentedParam("First set to return (by id), default 0"),
              limit: documentedParam(`Sets per page, 1 to ${MAX_PAGE}, default 100`),
            },
            { additionalProperties: true },
          ),
          detail: { summary: "The store's synonym sets, by id", tags },
        },
      )
      .get(
        "/synonyms/export",
        ({ query, caller }) => deps.synonyms.export(caller.store.id, parseFormat((query as Record<string, string | undefined>).format)),
        {
          auth: "admin",
          query: formatQuery,
          detail: { summary: "All synonym sets as an export: ours, Algolia's or Typesense's", tags },
        },
      )
      .post(
        "/synonyms/import",
        async ({ query, request, caller }) => {
          const format = parseFormat((query as Record<string, string | undefined>).format);
          const text = textOf(await readJsonBytes(request, { maxBytes: MAX_IMPORT_BYTES }));
          // Refused before it is parsed: the parse of an export many times too large held every request up.
          if ((countTopLevelItems(text, MAX_SYNONYM_SETS + 1) ?? 0) > MAX_SYNONYM_SETS) {
            throw new ValidationError(
              `The export holds more than ${MAX_SYNONYM_SETS} synonym sets; a store holds at most ${MAX_SYNONYM_SETS}`,
              [{ path: "body", problem: `must hold at most ${MAX_SYNONYM_SETS} synonym sets` }],
            );
          }
          return deps.synonyms.import(caller.store.id, parseJsonText(text), format);
        },
        {
          auth: "admin",
          parse: "none",
          query: formatQuery,
          detail: {
            summary: "Import synonym sets from an export (ours, Algolia's or Typesense's)",
            description:
              "Sets of the same id are replaced. Items that cannot be imported are reported with their index: { imported, errors: [{ index, id?, message }], errorCount } (the first 100 errors, and how many there were). An export of more than 5,000 sets, or one whose items have another format's shape than `format` names, is refused whole with a 400.",
            tags,
          },
        },
      )
      .get("/synonyms/:id", ({ params, caller }) => deps.synonyms.get(caller.store.id, params.id), {
        auth: "admin",
        params: idParam,
        detail: { summary: "One synonym set", tags },
      })
      .put(
        "/synonyms/:id",
        async ({ params, request, caller }) =>
          deps.synonyms.put(caller.store.id, params.id, parseSynonymBody(await readJsonBody(request, { maxBytes: 64 * 1024 }))),
        {
          auth: "admin",
          parse: "none",
          params: idParam,
          detail: {
            summary: "Create or replace a synonym set",
            description:
              'Multi-way: { "synonyms": ["jumper", "sweater"] } (2 to 20 words or phrases). One-way: { "input": "tee", "synonyms": ["t-shirt"] } (typing input also finds the synonyms). Phrases up to 100 characters; at most 5,000 sets per store.',
            tags,
          },
        },
      )
      .delete("/synonyms/:id", ({ params, caller }) => deps.synonyms.delete(caller.store.id, params.id), {
        auth: "admin",
        params: idParam,
        detail: { summary: "Delete a synonym set", tags },
      }),
  );
}
