import { ValidationError } from "../../errors.ts";
import type { Raw } from "../../http/query-params.ts";
import { parseSearchParams, type SearchParamRules, type SearchParams } from "./search-params.ts";

/*
 * GET /search's parameters sent as a JSON object in a body (a rule preview's search, a multi-search item): read
 * as the query string would be, so both routes check them alike, with every 400 naming the member at `path`.
 */

export function searchParamsFromBody(value: unknown, path: string, rules?: SearchParamRules): SearchParams {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ValidationError(`${path.replace(/^body\./, "")} must be an object of search parameters`, [
      { path, problem: 'must be an object such as { "query": "shoes" }' },
    ]);
  }
  const raw: Raw = {};
  for (const [key, v] of Object.entries(value)) {
    if (!["string", "number", "boolean"].includes(typeof v)) {
      throw new ValidationError(`${path.replace(/^body\./, "")}.${key} must be a string, number or boolean`, [
        { path: `${path}.${key}`, problem: "must be a string, number or boolean" },
      ]);
    }
    raw[key] = String(v);
  }
  try {
    return parseSearchParams(raw, rules);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const details = (error.details ?? []).map((d) => ({ ...d, path: d.path.replace(/^query\./, `${path}.`) }));
    throw new ValidationError(`${path.replace(/^body\./, "")}: ${error.message}`, details);
  }
}
