export type {
  AlgoliaHit,
  AlgoliaMultiResponse,
  AlgoliaSearchParams,
  AlgoliaSearchRequest,
  AlgoliaSearchResult,
  HighlightResult,
} from "./algolia-shapes.ts";
export { createSearchClient, SearchRequestError, type SearchClient, type SearchClientOptions } from "./search-client.ts";
export { UnsupportedSearchError } from "./unsupported.ts";
