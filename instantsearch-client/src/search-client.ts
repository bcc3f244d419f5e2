import { MAX_MULTI_SEARCH_REQUESTS, type MultiSearchRequest, type MultiSearchResponse } from "@storefront-search/contract";
import type { AlgoliaMultiResponse, AlgoliaSearchRequest, AlgoliaSearchResult } from "./algolia-shapes.ts";
import { isFacetSearch, toFacetSearchResult } from "./facet-search.ts";
import { randomHex } from "./ids.ts";
import { rememberQuery } from "./query-contexts.ts";
import { getRecommendations, type RecommendRequest, type RecommendResult } from "./recommendations.ts";
import { toOurSearch } from "./request-mapping.ts";
import { toAlgoliaResult } from "./response-mapping.ts";
import { serviceRequest, type ServiceOptions } from "./service-request.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * The searchClient an InstantSearch (or Autocomplete) page passes to instantsearch({ searchClient }): every
 * request of one search() call goes to the service in one POST /{v}/multi-search, and the answers come back in
 * Algolia's shape, in order. A search for facet values (`type: "facet"`) travels with them; the Recommend
 * widgets' requests go to the similar products, complete-the-look and browse searches (recommendations.ts).
 */

export type SearchClientOptions = ServiceOptions;

export interface SearchClient {
  /** T: the hits' record type as the page declares it (InstantSearch's own client type asks for this generic). */
  search<T = Record<string, unknown>>(requests: readonly AlgoliaSearchRequest[]): Promise<AlgoliaMultiResponse<T>>;
  /** The Recommend widgets' requests (recommendations.ts says which models and from what). */
  getRecommendations(requests: readonly RecommendRequest[]): Promise<{ results: RecommendResult[] }>;
  /**
   * Where Autocomplete's getAlgoliaResults looks for an Algolia client's application id and key (its development
   * build insists on an id; it hands both to the insights plugin): the store and its search key, public anyway.
   */
  transporter: { headers: Record<string, string> };
}

export function createSearchClient(options: SearchClientOptions): SearchClient {
  return {
    async search<T>(requests: readonly AlgoliaSearchRequest[]): Promise<AlgoliaMultiResponse<T>> {
      if (requests.length === 0) return { results: [] };
      if (requests.length > MAX_MULTI_SEARCH_REQUESTS) {
        throw new UnsupportedSearchError(`at most ${MAX_MULTI_SEARCH_REQUESTS} queries per search, got ${requests.length}`);
      }
      const body: MultiSearchRequest = { requests: requests.map(toOurSearch) };
      const started = performance.now();
      const { results } = await serviceRequest<MultiSearchResponse>(options, "multi-search", {
        method: "POST",
        body: JSON.stringify(body),
      });
      const processingTimeMS = Math.round(performance.now() - started);
      // Hits are Search products: the page's T describes them, as with Algolia's client.
      return {
        results: results.map((answer, i) => {
          const request = requests[i]!;
          if (isFacetSearch(request)) return toFacetSearchResult(request, answer, { processingTimeMS });
          const queryID = request.params?.clickAnalytics ? randomHex(16) : undefined;
          if (queryID) rememberQuery(queryID, body.requests[i]!, answer);
          return toAlgoliaResult(request, answer, {
            processingTimeMS,
            ...(queryID ? { queryID } : {}),
          }) as unknown as AlgoliaSearchResult<T>;
        }),
      };
    },
    getRecommendations: (requests) => getRecommendations(options, requests),
    transporter: { headers: { "x-algolia-application-id": options.storeId, "x-algolia-api-key": options.searchKey } },
  };
}
