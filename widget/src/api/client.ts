import ky, { HTTPError, type KyInstance } from "ky";
import type { WidgetConfigResponse } from "../config/widget-config.ts";
import type { CtlResponse, SearchRequest, SearchResponse, SimilarityResponse, SuggestionsResponse, TrackingEvent } from "./types.ts";

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
  /** Sends a batch of events; resolves true when the service took it (2xx). Never rejects. */
  track(events: TrackingEvent[], transport: "fetch" | "beacon"): Promise<boolean>;
}

async function toApiError(error: unknown): Promise<unknown> {
  if (!(error instanceof HTTPError)) return error;
  let code = "http_error";
  let message = error.message;
  try {
    const body = (await error.response.clone().json()) as { code?: unknown; message?: unknown };
    if (typeof body.code === "string") code = body.code;
    if (typeof body.message === "string") message = body.message;
  } catch {
    // not JSON: keep the status text
  }
  return new ApiError(error.response.status, code, message);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = `${options.api.replace(/\/+$/, "")}/${API_VERSION}/`;
  const http: KyInstance = ky.create({
    prefixUrl: base,
    headers: { "X-Service-Store-ID": options.storeId, "X-Service-API-Key": options.searchKey },
    timeout: options.timeoutMs ?? 10_000,
    retry: 0,
  });
  const get = async <T>(path: string, searchParams: Record<string, string | number | boolean>, signal?: AbortSignal, retry = 0) => {
    try {
      return await http.get(path, { searchParams, retry, ...(signal ? { signal } : {}) }).json<T>();
    } catch (error) {
      throw await toApiError(error);
    }
  };
  const trackingUrl = options.analyticsKey
    ? `${base}tracking?${new URLSearchParams({ "x-service-store-id": options.storeId, "x-service-api-key": options.analyticsKey })}`
    : null;

  return {
    widgetConfig: (signal) => get<WidgetConfigResponse>("widget-config", {}, signal, 1),

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
      return get<SearchResponse>("search", params, signal);
    },

    suggestions: (query, limit, signal) => get<SuggestionsResponse>("suggestions", { query, limit }, signal),

    similar: ({ productId, variantId, pageSize }, signal) =>
      get<SimilarityResponse>("similarity", { productId, pageSize, ...(variantId ? { variantId } : {}) }, signal),

    ctl: (request, signal) => get<CtlResponse>("ctl", request, signal),

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
        const response = await ky.post(trackingUrl, {
          body,
          headers: { "content-type": "text/plain;charset=UTF-8" },
          keepalive: true,
          retry: 0,
          throwHttpErrors: false,
          timeout: 10_000,
        });
        return response.ok;
      } catch {
        return false;
      }
    },
  };
}
