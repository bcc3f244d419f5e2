import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { FacetSelection } from "@storefront-search/contract";
import { readSearchState, sameState, writeSearchState, type SearchState } from "../state/search-state.ts";

/*
 * Keeps a host's search state in the page address: reads it on connect, writes every change with
 * history.pushState, and follows back/forward (popstate). Changes made elsewhere on the page (the typeahead,
 * StorefrontSearch.search) announce themselves with an `sfs-locationchange` event on the window.
 */

export const LOCATION_CHANGE = "sfs-locationchange";

/** The parts of `window` the controller uses. */
export interface UrlEnv {
  location: { href: string };
  history: Pick<History, "pushState">;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  dispatchEvent(event: Event): boolean;
}

/** Writes `state` into the address as a new history entry and tells every controller on the page. */
export function pushSearchState(env: UrlEnv, state: SearchState, queryParam: string): void {
  const href = writeSearchState(env.location.href, state, queryParam);
  if (href !== env.location.href) env.history.pushState(null, "", href);
  env.dispatchEvent(new Event(LOCATION_CHANGE));
}

export interface UrlStateOptions {
  env: UrlEnv;
  queryParam: string;
  /** Called with the new state after every change, including the first read on connect. */
  onChange?: (state: SearchState) => void;
}

export class UrlStateController implements ReactiveController {
  state: SearchState;
  private readonly sync = () => this.read();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: UrlStateOptions,
  ) {
    this.state = readSearchState(options.env.location.href, options.queryParam);
    host.addController(this);
  }

  hostConnected(): void {
    this.options.env.addEventListener("popstate", this.sync);
    this.options.env.addEventListener(LOCATION_CHANGE, this.sync);
    this.state = readSearchState(this.options.env.location.href, this.options.queryParam);
    this.options.onChange?.(this.state);
  }

  hostDisconnected(): void {
    this.options.env.removeEventListener("popstate", this.sync);
    this.options.env.removeEventListener(LOCATION_CHANGE, this.sync);
  }

  /** A new query starts over: no facets, first page (the order stays); `exact` searches its words uncorrected. */
  setQuery(query: string, exact = false, facets: FacetSelection[] = []): void {
    this.update({ query: query.trim(), facets, sort: this.state.sort, page: 1, ...(exact ? { exact } : {}) });
  }

  toggleFacet(key: string, value: string, selected: boolean): void {
    const others = this.state.facets.filter((f) => !(f.key === key && f.value === value));
    this.setFacets(selected ? [...others, { key, value }] : others);
  }

  setFacets(facets: FacetSelection[]): void {
    this.update({ ...this.state, facets, page: 1 });
  }

  setSort(sort: string): void {
    this.update({ ...this.state, sort, page: 1 });
  }

  setPage(page: number): void {
    this.update({ ...this.state, page: Math.max(1, Math.floor(page)) });
  }

  private update(next: SearchState): void {
    if (sameState(next, this.state)) return;
    this.state = next;
    pushSearchState(this.options.env, next, this.options.queryParam); // our own event finds nothing new
    this.host.requestUpdate();
    this.options.onChange?.(next);
  }

  private read(): void {
    const next = readSearchState(this.options.env.location.href, this.options.queryParam);
    if (sameState(next, this.state)) return;
    this.state = next;
    this.host.requestUpdate();
    this.options.onChange?.(next);
  }
}
