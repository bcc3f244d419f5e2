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
export { createSearchClient, SearchRequestError, type SearchClient, type SearchClientOptions } from "./search-client.ts";
export { UnsupportedSearchError } from "./unsupported.ts";
export { createInsightsClient, type InsightsClient, type InsightsClientOptions } from "./insights-client.ts";
