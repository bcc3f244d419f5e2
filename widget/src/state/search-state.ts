import { formatFacetParam, parseFacetParam, type FacetSelection } from "@storefront-search/contract";

/*
 * URL ⇄ search state. The results page keeps its whole state in its address (the store's query parameter, e.g.
 * `q`, plus `facets`, `sort` and `page`), so back/forward, reload and shared links restore it. Other parameters of
 * the store's page (utm_…, its own) are kept as they are.
 */

export interface SearchState {
  query: string;
  facets: FacetSelection[];
  /** A sortBy value of the API; "" is relevance. */
  sort: string;
  /** 1-based. */
  page: number;
  /** The query's words as typed, not corrected (the shopper chose "search instead for"). */
  exact?: boolean;
}

export const EMPTY_STATE: SearchState = { query: "", facets: [], sort: "", page: 1 };

export function readSearchState(href: string, queryParam: string): SearchState {
  const params = new URL(href).searchParams;
  const page = Number(params.get("page"));
  return {
    query: (params.get(queryParam) ?? "").trim(),
    facets: parseFacetParam(params.get("facets")),
    sort: params.get("sort") ?? "",
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    ...(params.get("exact") === "1" ? { exact: true } : {}),
  };
}

/** The address of `state` on the page at `href`; defaults are left out so addresses stay short. */
export function writeSearchState(href: string, state: SearchState, queryParam: string): string {
  const url = new URL(href);
  const params = url.searchParams;
  const set = (name: string, value: string) => (value ? params.set(name, value) : params.delete(name));
  set(queryParam, state.query);
  set("facets", formatFacetParam(state.facets));
  set("sort", state.sort);
  set("page", state.page > 1 ? String(state.page) : "");
  set("exact", state.exact ? "1" : "");
  url.search = params.toString();
  return url.href;
}

export function sameSelections(a: readonly FacetSelection[], b: readonly FacetSelection[]): boolean {
  return a.length === b.length && a.every((s) => b.some((t) => t.key === s.key && t.value === s.value && !t.exclude === !s.exclude));
}

export function sameState(a: SearchState, b: SearchState): boolean {
  return a.query === b.query && a.sort === b.sort && a.page === b.page && !a.exact === !b.exact && sameSelections(a.facets, b.facets);
}

/** The address of the results page for a new query: `{path}?{param}={query}` on the current origin. */
export function searchPageHref(origin: string, path: string, queryParam: string, query: string): string {
  const url = new URL(path, origin);
  url.searchParams.set(queryParam, query.trim());
  return url.href;
}
