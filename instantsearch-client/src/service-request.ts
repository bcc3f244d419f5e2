/*
 * One request to the service with the store's search key, as every part of the search client makes it: a
 * refusal or an unreachable service is a SearchRequestError carrying the status and the service's message.
 */

export interface ServiceOptions {
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

async function failure(response: Response): Promise<SearchRequestError> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const message = typeof body?.message === "string" ? body.message : `the service answered ${response.status}`;
  return new SearchRequestError(message, response.status);
}

/** `path` under the API version ("multi-search", "similarity?productId=…"); the answer's JSON. */
export async function serviceRequest<T>(options: ServiceOptions, path: string, init: { method?: string; body?: string } = {}): Promise<T> {
  const url = `${options.host.replace(/\/+$/, "")}/${options.apiVersion ?? "1.9"}/${path}`;
  const send = options.fetch ?? ((input, request) => fetch(input, request));
  const response = await send(url, {
    method: init.method ?? "GET",
    headers: {
      "x-service-store-id": options.storeId,
      "x-service-api-key": options.searchKey,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: init.body }),
  }).catch((error: Error) => {
    throw new SearchRequestError(`the search service could not be reached: ${error.message}`, 0);
  });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
}
