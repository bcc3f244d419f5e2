/*
 * The parts of Algolia's search request and response that InstantSearch and Autocomplete send and read: written
 * here from Algolia's documented parameters, so that the client needs none of Algolia's packages.
 */

/** A filter list: its strings are AND, a nested array's strings are OR (deeper nesting is refused). */
export type FilterList = string | readonly FilterList[];

export interface AlgoliaSearchParams {
  query?: string;
  page?: number;
  hitsPerPage?: number;
  facets?: string | readonly string[];
  maxValuesPerFacet?: number;
  facetFilters?: FilterList;
  numericFilters?: FilterList;
  filters?: string;
  highlightPreTag?: string;
  highlightPostTag?: string;
  ruleContexts?: readonly string[];
  clickAnalytics?: boolean;
  userToken?: string;
  analytics?: boolean;
  /** Other parameters (attributesToRetrieve, tagFilters, …) are accepted and have no effect (docs/instantsearch.md). */
  [other: string]: unknown;
}

export interface AlgoliaSearchRequest {
  indexName: string;
  params?: AlgoliaSearchParams;
  /** "facet" is a search for facet values: not supported yet. */
  type?: string;
}

export interface HighlightResult {
  value: string;
  matchLevel: "none" | "partial" | "full";
  matchedWords: string[];
  fullyHighlighted?: boolean;
}

/** A hit: the record's fields (T: a Search product, as the page declares it) with Algolia's. */
export type AlgoliaHit<T = Record<string, unknown>> = T & {
  objectID: string;
  _highlightResult: Record<string, HighlightResult>;
};

export interface AlgoliaSearchResult<T = Record<string, unknown>> {
  hits: AlgoliaHit<T>[];
  nbHits: number;
  page: number;
  nbPages: number;
  hitsPerPage: number;
  processingTimeMS: number;
  facets: Record<string, Record<string, number>>;
  facets_stats: Record<string, { min: number; max: number }>;
  exhaustiveFacetsCount: boolean;
  exhaustiveNbHits: boolean;
  query: string;
  params: string;
  index: string;
  queryID?: string;
}

export interface AlgoliaMultiResponse<T = Record<string, unknown>> {
  results: AlgoliaSearchResult<T>[];
}
