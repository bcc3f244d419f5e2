import { ValidationError } from "../../errors.ts";
import { bad, flag, languageParam, pageParams, shopperParams, text, type Raw, type ShopperIds } from "../../http/query-params.ts";
import { parseFacetSelections, type FacetSelection } from "../facets/facet-selection.ts";
import { SORT_BY_VALUES, type SortBy } from "./sort-strategies.ts";

/* GET /search parameters, checked in one place so every 400 names its parameter. */

/**
 * Characters of `query` as sent. Folding can make far more of them (one character can become 18 letters), so
 * what a search costs is bounded after folding, by text/query-limits.ts; this only bounds the request.
 */
const MAX_QUERY_CHARS = 512;

export interface SearchParams extends ShopperIds {
  query?: string;
  collection?: string;
  from: number;
  pageSize: number;
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
  /** False: answered, but not a shopper's search to log (a UI's own bookkeeping query). */
  analytics: boolean;
}

/**
 * Where the parameters come from. GET /search answers products; a multi-search item may also ask for the count
 * and the facets alone (`pageSize` 0), as a search UI does beside its results to count a refined facet's values.
 */
export interface SearchParamRules {
  minPageSize: 0 | 1;
}

const GET_SEARCH: SearchParamRules = { minPageSize: 1 };

/** A search a shopper made, to log: not a typeahead preview, an empty search box, an admin's explained look or a count alone. */
export function isShopperSearch(p: SearchParams): boolean {
  return p.analytics && p.pageSize > 0 && !p.typeahead && !p.browse && !p.explain;
}

export function parseSearchParams(raw: Raw, rules: SearchParamRules = GET_SEARCH): SearchParams {
  const query = text(raw, "query", MAX_QUERY_CHARS);
  const collection = text(raw, "collection", 256);
  const browse = flag(raw, ["browse"], false);
  if (!query && !collection && !browse) {
    throw new ValidationError("Give a query or a collection", [
      { path: "query.query", problem: "query or collection is required (or browse=true)" },
    ]);
  }
  const { from, pageSize } = pageParams(raw, rules.minPageSize);
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
    ...shopperParams(raw),
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
    analytics: flag(raw, ["analytics"], true),
  };
}
