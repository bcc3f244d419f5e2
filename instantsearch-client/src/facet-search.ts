import { MAX_FACET_VALUES, type SearchResponse } from "@storefront-search/contract";
import type { AlgoliaSearchRequest, FacetHit, FacetSearchParams, FacetSearchResult } from "./algolia-shapes.ts";
import { facetKeyOf } from "./attributes.ts";
import { QueryWords } from "./highlight.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * Search for facet values (refinementList's `searchable` box): the values of one attribute that match what the
 * shopper typed, with their counts under the page's query and filters. It is one count-only search (the facets,
 * no products) whose values of the attribute are matched here: a value matches when each typed word is a word
 * of it or begins one ("nik" finds "Nike", "air ma" finds "Nike Air Max"), case and accents folded. The service
 * answers a facet's 200 most frequent values, so a value rarer than those under the current filters is not
 * found; the result then says `exhaustiveFacetsCount: false`.
 */

/** Algolia's defaults and bounds for maxFacetHits. */
const DEFAULT_FACET_HITS = 10;
const MAX_FACET_HITS = 100;

export const isFacetSearch = (request: AlgoliaSearchRequest): boolean => request.type === "facet";

/** The attribute whose values are searched; a request without one is refused before anything is sent. */
export function facetSearchAttribute(request: AlgoliaSearchRequest): string {
  const attribute = request.facet ?? (request.params as FacetSearchParams | undefined)?.facetName;
  if (!attribute) throw new UnsupportedSearchError(`a search for facet values must name its facet (index ${request.indexName})`);
  return attribute;
}

export function toFacetSearchResult(
  request: AlgoliaSearchRequest,
  answer: SearchResponse,
  context: { processingTimeMS: number },
): FacetSearchResult {
  const params = (request.params ?? {}) as FacetSearchParams;
  const typed = (params.facetQuery ?? "").trim();
  const words = new QueryWords(typed, undefined);
  const tags = { pre: params.highlightPreTag ?? "<em>", post: params.highlightPostTag ?? "</em>" };
  const limit = Math.min(Math.max(1, Math.floor(params.maxFacetHits ?? DEFAULT_FACET_HITS)), MAX_FACET_HITS);
  const values = answer.facets?.find((f) => f.key === facetKeyOf(facetSearchAttribute(request)))?.values ?? [];
  const facetHits: FacetHit[] = [];
  for (const v of values) {
    if (facetHits.length === limit) break;
    const highlight = typed ? words.highlight(v.key, tags) : null;
    if (highlight && highlight.matchLevel !== "full") continue;
    facetHits.push({ value: v.key, highlighted: highlight?.value ?? v.key, count: v.count });
  }
  return { facetHits, exhaustiveFacetsCount: values.length < MAX_FACET_VALUES, processingTimeMS: context.processingTimeMS };
}
