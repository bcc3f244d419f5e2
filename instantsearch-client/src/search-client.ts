import { MAX_MULTI_SEARCH_REQUESTS, type MultiSearchRequest, type MultiSearchResponse } from "@storefront-search/contract";
import type { AlgoliaMultiResponse, AlgoliaSearchRequest, AlgoliaSearchResult } from "./algolia-shapes.ts";
import { isFacetSearch, toFacetSearchResult } from "./facet-search.ts";
import { rememberQuery } from "./query-contexts.ts";
import { toOurSearch } from "./request-mapping.ts";
import { toAlgoliaResult } from "./response-mapping.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * The searchClient an InstantSearch (or Autocomplete) page passes to instantsearch({ searchClient }): every
 * request of one search() call goes to the service in one POST /{v}/multi-search, and the answers come back in
 * Algolia's shape, in order.
 */

export interface SearchClientOptions {
  /** The service's origin, e.g. "https://search.example.com". */
  host: string;
  storeId: string;
  /** The store's search key (pk_search_…): never an admin key in a browser. */
  searchKey: string;
  /** API version of the paths; the latest by default. */
  apiVersion?: string;
  /** For tests and server-side rendering; the page's fetch by default. */
  fetch?: typeof fetch;
}

/** The service refused the searches or could not be reached; `status` is the HTTP status (0: no answer). */
export class SearchRequestError extends Error {
  override readonly name = "SearchRequestError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface SearchClient {
  /** T: the hits' record type as the page declares it (InstantSearch's own client type asks for this generic). */
  search<T = Record<string, unknown>>(requests: readonly AlgoliaSearchRequest[]): Promise<AlgoliaMultiResponse<T>>;
}

const newQueryId = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");

async function failure(response: Response): Promise<SearchRequestError> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const message = typeof body?.message === "string" ? body.message : `the service answered ${response.status}`;
  return new SearchRequestError(message, response.status);
}

export function createSearchClient(options: SearchClientOptions): SearchClient {
  const url = `${options.host.replace(/\/+$/, "")}/${options.apiVersion ?? "1.9"}/multi-search`;
  const send = options.fetch ?? ((input, init) => fetch(input, init));
  return {
    async search<T>(requests: readonly AlgoliaSearchRequest[]): Promise<AlgoliaMultiResponse<T>> {
      if (requests.length === 0) return { results: [] };
      if (requests.length > MAX_MULTI_SEARCH_REQUESTS) {
        throw new UnsupportedSearchError(`at most ${MAX_MULTI_SEARCH_REQUESTS} queries per search, got ${requests.length}`);
      }
      const body: MultiSearchRequest = { requests: requests.map(toOurSearch) };
      const started = performance.now();
      const response = await send(url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-store-id": options.storeId, "x-service-api-key": options.searchKey },
        body: JSON.stringify(body),
      }).catch((error: Error) => {
        throw new SearchRequestError(`the search service could not be reached: ${error.message}`, 0);
      });
      if (!response.ok) throw await failure(response);
      const { results } = (await response.json()) as MultiSearchResponse;
      const processingTimeMS = Math.round(performance.now() - started);
      // Hits are Search products: the page's T describes them, as with Algolia's client.
      return {
        results: results.map((answer, i) => {
          const request = requests[i]!;
          if (isFacetSearch(request)) return toFacetSearchResult(request, answer, { processingTimeMS });
          const queryID = request.params?.clickAnalytics ? newQueryId() : undefined;
          if (queryID) rememberQuery(queryID, body.requests[i]!, answer);
          return toAlgoliaResult(request, answer, {
            processingTimeMS,
            ...(queryID ? { queryID } : {}),
          }) as unknown as AlgoliaSearchResult<T>;
        }),
      };
    },
  };
}
