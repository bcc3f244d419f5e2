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
export { createSearchClient, type SearchClient, type SearchClientOptions } from "./search-client.ts";
export { SearchRequestError } from "./service-request.ts";
export { UnsupportedSearchError } from "./unsupported.ts";
export { createInsightsClient, type InsightsClient, type InsightsClientOptions } from "./insights-client.ts";
export type { RecommendHit, RecommendRequest, RecommendResult } from "./recommendations.ts";
