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
  /** The query beside the params, as Algolia's clients also take it (Autocomplete's getAlgoliaResults sends it so). */
  query?: string;
  /** "facet": a search for the values of `facet` (or of `params.facetName`) that match `params.facetQuery`. */
  type?: string;
  facet?: string;
}

/** A search for facet values: a `type: "facet"` request, or what searchForFacetValues() is given. */
export interface FacetSearchParams extends AlgoliaSearchParams {
  facetName?: string;
  facetQuery?: string;
  maxFacetHits?: number;
}

export interface FacetHit {
  value: string;
  highlighted: string;
  count: number;
}

export interface FacetSearchResult {
  facetHits: FacetHit[];
  exhaustiveFacetsCount: boolean;
  processingTimeMS: number;
}

/** Algolia's banner (InstantSearch's hits widget shows the first one). */
export interface RenderingBanner {
  image: { urls: { url: string }[]; title?: string };
  link?: { url: string; target?: "_blank" | "_self" };
}

export interface RenderingContent {
  /** The facets in the store's order: dynamicWidgets shows its widgets in it. */
  facetOrdering?: { facets: { order: string[] } };
  redirect?: { url: string };
  widgets?: { banners: RenderingBanner[] };
}

/**
 * What our answers say beyond Algolia's fields, for a page's own widgets (results.storefrontSearch in a
 * connector's render): the words searched when they are not the words typed, and what else to offer.
 */
export interface StorefrontSearchInfo {
  /** Corrections to offer ("did you mean …"). */
  spellSuggestions?: string[];
  /** Nothing matched the whole query: `searchedQuery` is the part of it that found these products. */
  fallback?: boolean;
  /** The words the service searched, when they differ from the query typed (a correction or a fallback). */
  searchedQuery?: string;
  /** The words as typed when misspelt ones were replaced by their correction ("search instead for"). */
  typedQuery?: string;
  /** Nothing matched: the products are the nearest to what the query means in the store. */
  recovered?: boolean;
}

export interface HighlightResult {
  value: string;
  matchLevel: "none" | "partial" | "full";
  matchedWords: string[];
  fullyHighlighted?: boolean;
}

/** What a hit's attributes highlight: Algolia's shape, an array of them for an array attribute. */
export interface HitHighlights {
  name: HighlightResult;
  brand?: HighlightResult;
  designer?: HighlightResult;
  /** One per level of the product's category path (its `categories`). */
  categories?: HighlightResult[];
}

/** A hit: the record's fields (T: a Search product, as the page declares it) with Algolia's. */
export type AlgoliaHit<T = Record<string, unknown>> = T & {
  objectID: string;
  /** The product's category path, levels in order ("Men", "Clothing", "Shirts"), when it has one. */
  categories?: string[];
  _highlightResult: HitHighlights;
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
  /** Custom data of the merchandising rules that fired, in rule order (banners among them). */
  userData?: Record<string, unknown>[];
  renderingContent?: RenderingContent;
  storefrontSearch?: StorefrontSearchInfo;
}

/** In the order of the requests: a search for facet values (`type: "facet"`) is answered with facet hits. */
export interface AlgoliaMultiResponse<T = Record<string, unknown>> {
  results: (AlgoliaSearchResult<T> | FacetSearchResult)[];
}
