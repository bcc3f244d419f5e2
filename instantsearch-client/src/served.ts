/*
 * The search client as the service serves it, one ES module for pages without a build step (vite.config.ts),
 * within its 6 KB gzipped budget. The insights client is served as a module of its own (insights.ts).
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
