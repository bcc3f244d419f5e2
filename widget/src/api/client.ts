import type { WidgetConfigResponse } from "@storefront-search/contract";
import type {
  CtlResponse,
  RecommendationPlacement,
  RecommendationsResponse,
  SearchRequest,
  SearchResponse,
  SimilarityResponse,
  SuggestionsResponse,
  TrackingEvent,
} from "@storefront-search/contract";

/*
 * The one client of the service's browser routes. Search routes send the store id and the search key as headers;
 * tracking carries the analytics key in the query string with a text/plain body, which is what sendBeacon can
 * send and what needs no CORS preflight.
 */

export const API_VERSION = "1.9";

export interface ApiClientOptions {
  /** Origin (and optional path prefix) of the service, e.g. "https://search.example". */
  api: string;
  storeId: string;
  searchKey: string;
  analyticsKey?: string;
  /** navigator.sendBeacon, bound; absent where the browser has none. */
  sendBeacon?: (url: string, body: string) => boolean;
  timeoutMs?: number;
  /**
   * The shopper's anonymous ids, sent with the configuration, suggestions, similar products and looks
   * (personalisation, experiment variants).
   */
  shopper?: () => { userId?: string; sessionId?: string };
}

/** An error answer of the service: the widget branches on `code`, never on the message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export interface ApiClient {
  widgetConfig(signal?: AbortSignal): Promise<WidgetConfigResponse>;
  search(request: SearchRequest, signal?: AbortSignal): Promise<SearchResponse>;
  suggestions(query: string, limit: number, signal?: AbortSignal): Promise<SuggestionsResponse>;
  similar(request: { productId: string; variantId?: string; pageSize: number }, signal?: AbortSignal): Promise<SimilarityResponse>;
  /** The looks that complete a product; 404 (ApiError) when the store has no such product. */
  ctl(request: { productId: string; variantId?: string }, signal?: AbortSignal): Promise<CtlResponse>;
  /** A recommendation placement's products (GET /recommendations/{placement}). */
  recommend(
    placement: RecommendationPlacement,
    params: { productId?: string; category?: string; userId?: string; sessionId?: string; pageSize: number },
    signal?: AbortSignal,
  ): Promise<RecommendationsResponse>;
  /** Sends a batch of events; resolves true when the service took it (2xx). Never rejects. */
  track(events: TrackingEvent[], transport: "fetch" | "beacon"): Promise<boolean>;
}

/** Aborts when `signal` does or `ms` passed, whichever comes first (AbortSignal.any is too recent to rely on). */
function deadline(ms: number, signal?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException("timed out", "TimeoutError")), ms);
  const stop = () => {
    clearTimeout(timer);
    controller.abort(signal?.reason);
  };
  if (signal?.aborted) stop();
  else signal?.addEventListener("abort", stop, { once: true });
  return controller.signal;
}

/** A non-2xx answer as an ApiError with the service's `code` (its JSON body), else "http_error". */
async function apiError(response: Response): Promise<ApiError> {
  const body = (await response.json().catch(() => ({}))) as { code?: unknown; message?: unknown };
  return new ApiError(
    response.status,
    typeof body.code === "string" ? body.code : "http_error",
    typeof body.message === "string" ? body.message : `${response.status} ${response.statusText}`,
  );
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = `${options.api.replace(/\/+$/, "")}/${API_VERSION}/`;
  const headers = { "X-Service-Store-ID": options.storeId, "X-Service-API-Key": options.searchKey };
  const timeout = options.timeoutMs ?? 10_000;
  const shopper = () => {
    const ids = options.shopper?.() ?? {};
    return { ...(ids.userId ? { userId: ids.userId } : {}), ...(ids.sessionId ? { sessionId: ids.sessionId } : {}) };
  };
  /** A GET of the browser routes; `retries` more tries after a network failure or a 5xx (never after an abort). */
  const get = async <T>(path: string, params: Record<string, string | number | boolean>, signal?: AbortSignal, retries = 0): Promise<T> => {
    const url = `${base}${path}?${new URLSearchParams(params as Record<string, string>)}`;
    for (;;) {
      let response: Response;
      try {
        response = await fetch(url, { headers, signal: deadline(timeout, signal) });
      } catch (error) {
        if (retries-- > 0 && !signal?.aborted) continue;
        throw error;
      }
      if (response.ok) return (await response.json()) as T;
      if (response.status >= 500 && retries-- > 0) continue;
      throw await apiError(response);
    }
  };
  const trackingUrl = options.analyticsKey
    ? `${base}tracking?${new URLSearchParams({ "x-service-store-id": options.storeId, "x-service-api-key": options.analyticsKey })}`
    : null;

  return {
    widgetConfig: (signal) => get<WidgetConfigResponse>("widget-config", shopper(), signal, 1),

    search(request, signal) {
      const params: Record<string, string | number | boolean> = { query: request.query, pageSize: request.pageSize };
      if (request.from) params.from = request.from;
      if (request.facets) params.facets = request.facets;
      if (request.sortBy) params.sortBy = request.sortBy;
      if (request.returnFacets) params.returnFacets = true;
      if (request.spellEnabled === false) params.spellEnabled = false;
      if (request.typeahead) params.typeahead = true;
      if (request.userId) params.userId = request.userId;
      if (request.sessionId) params.sessionId = request.sessionId;
      if (request.preprod) params.preprod = true;
      if (request.language) params.language = request.language;
      if (request.browse) params.browse = true;
      if (request.autocorrect === false) params.autocorrect = false;
      return get<SearchResponse>("search", params, signal);
    },

    suggestions: (query, limit, signal) => get<SuggestionsResponse>("suggestions", { query, limit, ...shopper() }, signal),

    similar: ({ productId, variantId, pageSize }, signal) =>
      get<SimilarityResponse>("similarity", { productId, pageSize, ...(variantId ? { variantId } : {}), ...shopper() }, signal),

    ctl: (request, signal) => get<CtlResponse>("ctl", { ...request, ...shopper() }, signal),

    recommend(placement, params, signal) {
      const given = Object.entries(params).filter(([, v]) => v !== undefined && v !== "") as [string, string | number][];
      return get<RecommendationsResponse>(`recommendations/${placement}`, Object.fromEntries(given), signal);
    },

    async track(events, transport) {
      if (!trackingUrl || events.length === 0) return false;
      const body = JSON.stringify(events);
      if (transport === "beacon" && options.sendBeacon) {
        try {
          return options.sendBeacon(trackingUrl, body);
        } catch {
          return false;
        }
      }
      try {
        // A plain fetch: no custom headers, so no preflight; keepalive lets it finish while the page unloads.
        const response = await fetch(trackingUrl, {
          method: "POST",
          body,
          headers: { "content-type": "text/plain;charset=UTF-8" },
          keepalive: true,
          signal: deadline(timeout),
        });
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
