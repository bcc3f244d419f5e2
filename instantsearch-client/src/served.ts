/*
 * What the service serves as one ES module for pages without a build step (vite.config.ts): the search client,
 * within its 6 KB gzipped budget. The insights client is in the package (index.ts) for pages built with a
 * bundler; a page without a build step sends shopper events with the head script for now.
 */
export type {
  AlgoliaHit,
  AlgoliaMultiResponse,
  AlgoliaSearchParams,
  AlgoliaSearchRequest,
  AlgoliaSearchResult,
  FacetHit,
  FacetSearchParams,
  FacetSearchResult,
  HighlightResult,
  RenderingContent,
  StorefrontSearchInfo,
} from "./algolia-shapes.ts";
export type { RecommendHit, RecommendRequest, RecommendResult } from "./recommendations.ts";
export { createSearchClient, type SearchClient, type SearchClientOptions } from "./search-client.ts";
export { SearchRequestError } from "./service-request.ts";
export { UnsupportedSearchError } from "./unsupported.ts";
