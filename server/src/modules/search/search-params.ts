import { ValidationError } from "../../errors.ts";
import { boundedInteger } from "../../http/query-params.ts";
import { LOCALE_PATTERN } from "@storefront-search/contract";
import { parseFacetSelections, type FacetSelection } from "../facets/facet-selection.ts";
import { SORT_BY_VALUES, type SortBy } from "./sort-strategies.ts";

/* GET /search parameters, checked in one place so every 400 names its parameter. */

export const MAX_PAGE_SIZE = 100;
/** Deepest result reachable by paging; beyond it shoppers refine instead (and engines slow down). */
export const MAX_RESULT_WINDOW = 10_000;
/**
 * Characters of `query` as sent. Folding can make far more of them (one character can become 18 letters), so
 * what a search costs is bounded after folding, by text/query-limits.ts; this only bounds the request.
 */
const MAX_QUERY_CHARS = 512;
const ANONYMOUS_ID = /^[A-Za-z0-9_-]{1,128}$/;
const LOCALE = new RegExp(LOCALE_PATTERN);

export interface SearchParams {
  query?: string;
  collection?: string;
  from: number;
  pageSize: number;
  userId?: string;
  sessionId?: string;
  preprod: boolean;
  /** A typeahead preview of products while the shopper types: not a search, not logged. */
  typeahead: boolean;
  /** No query and no collection: the catalog itself, its popular products first (an empty search box). Not logged. */
  browse: boolean;
  returnFacets: boolean;
  spellEnabled: boolean;
  /** False: misspelt words are searched as typed ("search instead for jeens"), not replaced by their correction. */
  autocorrect: boolean;
  facets: FacetSelection[];
  campaignProducts: string[];
  sortBy?: SortBy;
  /** Locale of facet names; the store's locale otherwise. */
  language?: string;
  /** Answer how the query was read and each result's score parts (admin key only: checked by the route). */
  explain: boolean;
}

export type Raw = Record<string, string | undefined>;

export const bad = (name: string, problem: string) => new ValidationError(`${name} ${problem}`, [{ path: `query.${name}`, problem }]);

export function text(raw: Raw, name: string, max: number): string | undefined {
  const value = raw[name];
  if (value === undefined || value.trim() === "") return undefined;
  if (value.length > max) throw bad(name, `must be at most ${max} characters`);
  if (/[\u0000-\u001f\u007f]/.test(value)) throw bad(name, "must not contain control characters");
  return value.trim();
}

export function flag(raw: Raw, names: string[], fallback: boolean): boolean {
  for (const name of names) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    if (["true", "1", "yes"].includes(value.toLowerCase())) return true;
    if (["false", "0", "no"].includes(value.toLowerCase())) return false;
    throw bad(name, `must be true or false, got "${value.slice(0, 20)}"`);
  }
  return fallback;
}

function integer(raw: Raw, names: string[], range: { min: number; max: number; fallback: number }): number {
  for (const name of names) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    if (!/^-?\d+$/.test(value)) throw bad(name, `must be a whole number, got "${value.slice(0, 20)}"`);
    return boundedInteger(Number(value), name, range);
  }
  return range.fallback;
}

/** `from` (alias `offset`) and `pageSize`, within the page size and the result window. */
export function pageParams(raw: Raw): { from: number; pageSize: number } {
  const from = integer(raw, ["from", "offset"], { min: 0, max: MAX_RESULT_WINDOW, fallback: 0 });
  const pageSize = integer(raw, ["pageSize"], { min: 1, max: MAX_PAGE_SIZE, fallback: 30 });
  if (from + pageSize > MAX_RESULT_WINDOW) throw bad("from", `plus pageSize must be at most ${MAX_RESULT_WINDOW}`);
  return { from, pageSize };
}

/** A locale for facet names, when given. */
export function languageParam(raw: Raw): string | undefined {
  const language = text(raw, "language", 35);
  if (language !== undefined && !LOCALE.test(language)) throw bad("language", 'must be a locale such as "en" or "de-CH"');
  return language;
}

function anonymousId(raw: Raw, names: string[]): string | undefined {
  for (const name of names) {
    const value = raw[name];
    if (value === undefined || value === "") continue;
    if (!ANONYMOUS_ID.test(value)) throw bad(name, "must be 1 to 128 letters, digits, '-' or '_'");
    return value;
  }
  return undefined;
}

export function parseSearchParams(raw: Raw): SearchParams {
  const query = text(raw, "query", MAX_QUERY_CHARS);
  const collection = text(raw, "collection", 256);
  const browse = flag(raw, ["browse"], false);
  if (!query && !collection && !browse) {
    throw new ValidationError("Give a query or a collection", [
      { path: "query.query", problem: "query or collection is required (or browse=true)" },
    ]);
  }
  const { from, pageSize } = pageParams(raw);
  const sortBy = raw.sortBy || undefined;
  if (sortBy !== undefined && !(SORT_BY_VALUES as readonly string[]).includes(sortBy)) {
    throw bad("sortBy", `must be one of ${SORT_BY_VALUES.join(", ")}`);
  }
  const campaignProducts = (text(raw, "campaignProducts", 10_000) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (campaignProducts.length > 100) throw bad("campaignProducts", "at most 100 product ids");
  if (sortBy === "campaign" && campaignProducts.length === 0) throw bad("campaignProducts", "is required with sortBy=campaign");
  const language = languageParam(raw);
  return {
    query,
    collection,
    from,
    pageSize,
    userId: anonymousId(raw, ["userId", "UserId"]),
    sessionId: anonymousId(raw, ["sessionId", "SessionId"]),
    preprod: flag(raw, ["preprod"], false),
    typeahead: flag(raw, ["typeahead"], false),
    browse: !query && !collection && browse,
    returnFacets: flag(raw, ["returnFacets", "facetsEnabled"], false),
    spellEnabled: flag(raw, ["spellEnabled"], true),
    autocorrect: flag(raw, ["autocorrect"], true),
    facets: parseFacetSelections(raw.facets),
    campaignProducts,
    sortBy: sortBy as SortBy | undefined,
    language,
    explain: flag(raw, ["explain"], false),
  };
}
