/*
 * POST /{v}/multi-search (search key): several searches in one round trip, as a search UI sends them for one
 * change of its state (InstantSearch asks for the hits and, beside them, the counts of each refined facet).
 */

import type { SearchResponse } from "./search.ts";

/** Most searches one call may carry: more is a 400, not a slower answer. */
export const MAX_MULTI_SEARCH_REQUESTS = 50;

/**
 * One search: GET /search's parameters as an object (a value may be a string, a number or a boolean), with two
 * that only a multi-search item takes: `pageSize: 0` (the count and the facets, no products) and `analytics`.
 * Neither a `pageSize: 0` item nor one with `analytics: false` is logged as a shopper's search.
 */
export interface MultiSearchQuery {
  query?: string;
  collection?: string;
  browse?: boolean;
  from?: number;
  /** 0 to 100; 0 answers the count and the facets only. */
  pageSize?: number;
  /** The API's facets parameter (facet-param.ts). */
  facets?: string;
  returnFacets?: boolean;
  sortBy?: string;
  campaignProducts?: string;
  spellEnabled?: boolean;
  autocorrect?: boolean;
  userId?: string;
  sessionId?: string;
  preprod?: boolean;
  typeahead?: boolean;
  language?: string;
  /** false: answered, but not logged as a shopper's search (default true). */
  analytics?: boolean;
}

export interface MultiSearchRequest {
  requests: MultiSearchQuery[];
}

/** The answers in the order of the requests, each what GET /search answers for the same parameters. */
export interface MultiSearchResponse {
  results: SearchResponse[];
}
