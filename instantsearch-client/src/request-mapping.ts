import { MAX_PAGE_SIZE, type MultiSearchQuery } from "@storefront-search/contract";
import type { AlgoliaSearchParams, AlgoliaSearchRequest } from "./algolia-shapes.ts";
import { addFacetFilters, addNumericFilters } from "./filter-lists.ts";
import { FilterSet } from "./filter-set.ts";
import { facetSearchAttribute, isFacetSearch } from "./facet-search.ts";
import { addFiltersExpression } from "./filters-expression.ts";
import { isShopperId } from "./ids.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * One InstantSearch request as one of our searches (docs/instantsearch.md has the table). The index name says
 * the order: "products" is relevance, "products:pricea" sorts by pricea (any of the API's sortBy values), and
 * the part before the colon is the page's own name for the catalog. An empty query is the whole catalog
 * (`browse`), as an InstantSearch page shows it before anything is typed.
 */

/** Algolia's default page size. */
const DEFAULT_HITS_PER_PAGE = 20;

export function requestedFacets(facets: AlgoliaSearchParams["facets"]): string[] {
  if (facets === undefined) return [];
  return typeof facets === "string" ? [facets] : [...facets];
}

export function sortOf(indexName: string): string | undefined {
  const colon = indexName.indexOf(":");
  const sortBy = colon < 0 ? "" : indexName.slice(colon + 1);
  return sortBy && sortBy !== "relevance" ? sortBy : undefined;
}

/** Page size as we search it: 0 (counts and facets only) to our largest page. */
export function pageSizeOf(params: AlgoliaSearchParams): number {
  return Math.min(Math.max(0, Math.floor(params.hitsPerPage ?? DEFAULT_HITS_PER_PAGE)), MAX_PAGE_SIZE);
}

/**
 * A search for facet values is a count-only search under the same query and filters, not a shopper's search:
 * its values are matched to the typed text by facet-search.ts.
 */
export function toOurSearch(request: AlgoliaSearchRequest): MultiSearchQuery {
  if (isFacetSearch(request)) {
    facetSearchAttribute(request);
    return { ...toOurProductSearch(request), from: 0, pageSize: 0, returnFacets: true, analytics: false };
  }
  if (request.type !== undefined && request.type !== "default") {
    throw new UnsupportedSearchError(`${request.type} requests are not supported (index ${request.indexName})`);
  }
  return toOurProductSearch(request);
}

function toOurProductSearch(request: AlgoliaSearchRequest): MultiSearchQuery {
  const params = request.params ?? {};
  const filters = new FilterSet();
  addFacetFilters(filters, params.facetFilters);
  addNumericFilters(filters, params.numericFilters);
  addFiltersExpression(filters, params.filters);
  const pageSize = pageSizeOf(params);
  const query = (params.query ?? request.query ?? "").trim();
  const facets = filters.toFacetParam();
  const sortBy = sortOf(request.indexName);
  return {
    ...(query ? { query } : { browse: true }),
    from: Math.max(0, Math.floor(params.page ?? 0)) * pageSize,
    pageSize,
    ...(facets ? { facets } : {}),
    ...(requestedFacets(params.facets).length ? { returnFacets: true } : {}),
    ...(sortBy ? { sortBy } : {}),
    ...(params.userToken && isShopperId(params.userToken) ? { userId: params.userToken } : {}),
    ...(params.analytics === false ? { analytics: false } : {}),
  };
}
