import type { ReactiveController, ReactiveControllerHost } from "lit";
import { listingData, listingEventType, pageChangeData, productClickData, searchData, type LocaleFields } from "../analytics/event-data.ts";
import { LOCALE_PATTERN, MAX_RESULT_WINDOW, type SearchRequest, type SearchResponse, formatFacetParam } from "@storefront-search/contract";
import type { SearchState } from "../state/search-state.ts";
import { Debouncer } from "./debouncer.ts";
import { browserScheduler, type Scheduler } from "./scheduler.ts";

const LOCALE = new RegExp(LOCALE_PATTERN);

/*
 * Fetches the results of a search state: debounced (a burst of facet clicks is one request), the previous request
 * aborted when a new one starts, and a stale answer never shown. After each answer it reports the analytics event
 * the change stands for (Search, PageChange or SortByChange), so every front end sends them the same way.
 */

export type SearchStatus = "idle" | "pending" | "complete" | "error";

export interface SearchControllerOptions {
  search(request: SearchRequest, signal: AbortSignal): Promise<SearchResponse>;
  track?(type: string, data: object): void;
  pageSize: number;
  locale: LocaleFields;
  /** The shopper's anonymous ids, sent for personalisation. */
  ids?: () => { userId?: string; sessionId?: string };
  preprod?: boolean;
  debounceMs?: number;
  scheduler?: Scheduler;
}

/** The API request for `state`: one page of it, with facets, and the shopper's ids and language. */
export function searchRequest(
  state: SearchState,
  options: Pick<SearchControllerOptions, "pageSize" | "locale" | "ids" | "preprod">,
): SearchRequest {
  const size = options.pageSize;
  const ids = options.ids?.() ?? {};
  // A page's lang may be written "en_US"; one the API would refuse is left out (facet names then follow the store).
  const language = options.locale.language.replace(/_/g, "-");
  return {
    query: state.query,
    pageSize: size,
    from: Math.min((state.page - 1) * size, MAX_RESULT_WINDOW - size),
    returnFacets: true,
    ...(state.facets.length ? { facets: formatFacetParam(state.facets) } : {}),
    ...(state.sort ? { sortBy: state.sort } : {}),
    ...(ids.userId ? { userId: ids.userId } : {}),
    ...(ids.sessionId ? { sessionId: ids.sessionId } : {}),
    ...(options.preprod ? { preprod: true } : {}),
    ...(LOCALE.test(language) ? { language } : {}),
    ...(state.query ? {} : { browse: true }),
    ...(state.exact ? { autocorrect: false } : {}),
  };
}

export class SearchController implements ReactiveController {
  status: SearchStatus = "idle";
  /** The state of the last request (shown, loading or failed). */
  state: SearchState | null = null;
  /** The last answer, kept while the next one loads. */
  result: SearchResponse | null = null;
  /** The state `result` answers. */
  resultState: SearchState | null = null;
  error: unknown = null;

  private readonly debouncer: Debouncer;
  private inFlight: AbortController | null = null;
  private tracked: SearchState | null = null;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: SearchControllerOptions,
  ) {
    this.debouncer = new Debouncer(options.scheduler ?? browserScheduler, options.debounceMs ?? 0);
    host.addController(this);
  }

  hostConnected(): void {}

  hostDisconnected(): void {
    this.debouncer.cancel();
    this.inFlight?.abort();
    this.inFlight = null;
  }

  /**
   * Asks for the results of `state`; without a query, the store's popular products (an empty search box is no dead
   * end), except in pre-production mode, where nothing a shopper sees is the service's.
   */
  request(state: SearchState): void {
    this.state = state;
    if (!state.query && this.options.preprod) {
      this.debouncer.cancel();
      this.inFlight?.abort();
      this.inFlight = null;
      this.status = "idle";
      this.result = null;
      this.resultState = null;
      this.host.requestUpdate();
      return;
    }
    this.status = "pending";
    this.host.requestUpdate();
    this.debouncer.schedule(() => void this.run(state));
  }

  retry(): void {
    if (this.state) this.request(this.state);
  }

  get lastPage(): number {
    if (!this.result) return 1;
    const size = this.options.pageSize;
    return Math.max(1, Math.min(Math.ceil(this.result.totalProductCount / size), Math.floor(MAX_RESULT_WINDOW / size)));
  }

  /** Reports a click on a product of the shown results (ProductClick: the PageChange fields plus the product). */
  trackProductClick(productId: string): void {
    if (!this.result || !this.resultState || !this.options.track) return;
    const listing = listingData(this.resultState, this.result, this.options.pageSize, this.options.locale);
    this.options.track("ProductClick", productClickData(listing, this.resultState.page, productId, this.result.experiment));
  }

  private async run(state: SearchState): Promise<void> {
    this.inFlight?.abort();
    const controller = new AbortController();
    this.inFlight = controller;
    const request = searchRequest(state, this.options);
    try {
      const result = await this.options.search(request, controller.signal);
      if (this.inFlight !== controller) return; // a newer request owns the page
      this.inFlight = null;
      this.result = result;
      this.resultState = state;
      this.error = null;
      this.status = "complete";
      this.report(state, result);
    } catch (error) {
      if (this.inFlight !== controller) return; // aborted or superseded: not an error the shopper should see
      this.inFlight = null;
      this.error = error;
      this.status = "error";
    }
    this.host.requestUpdate();
  }

  private report(state: SearchState, result: SearchResponse): void {
    // Browsing the popular products is no search a shopper made.
    if (!state.query) return;
    const type = listingEventType(this.tracked, state);
    this.tracked = state;
    if (!type || !this.options.track) return;
    const listing = listingData(state, result, this.options.pageSize, this.options.locale);
    if (type === "Search") this.options.track(type, searchData(listing, result));
    else if (type === "PageChange") this.options.track(type, pageChangeData(listing, state.page));
    else this.options.track(type, listing);
  }
}
