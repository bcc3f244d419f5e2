import type { SearchRequest, SearchResponse } from "@storefront-search/contract";

/*
 * The results page's first search, sent together with the configuration rather than after it: on a cold page
 * the two round trips one after the other were most of the time to the first product card. It is asked as the
 * configuration this browser saw last (else the defaults) would ask it; the results page takes the answer only
 * when the configuration that arrives asks the very same request, and it is aborted otherwise.
 */

export type SearchFn = (request: SearchRequest, signal?: AbortSignal) => Promise<SearchResponse>;

/** `search`, whose first call is answered by `early` (already under way) when it asks `request`. */
export function withEarlySearch(search: SearchFn, request: SearchRequest): SearchFn {
  const abort = new AbortController();
  let early: Promise<SearchResponse> | null = search(request, abort.signal);
  early.catch(() => {}); // a failure shows when (and if) the results page takes it
  const asked = JSON.stringify(request);
  return (next, signal) => {
    const taken = early;
    early = null;
    if (taken && JSON.stringify(next) === asked) return taken;
    abort.abort();
    return search(next, signal);
  };
}

/** The members of the configuration the first search depends on: remembered per store for the next page. */
export const FIRST_SEARCH_KEYS = ["searchPagePath", "queryParam", "pageSize", "preprod"] as const;
