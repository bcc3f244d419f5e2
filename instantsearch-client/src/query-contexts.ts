import { parseFacetParam, type FacetSelection, type MultiSearchQuery, type SearchResponse } from "@storefront-search/contract";

/*
 * What a queryID stands for. Our answers carry no queryID: the search client makes one per result asked with
 * clickAnalytics and remembers here the listing it names (the query, the page of products shown, its filters
 * and order), so that the insights client can turn InstantSearch's "clicked object 3 at position 27 of query
 * Q" into our ProductClick, which says the query and the page shown. Both clients live in the one page, so this
 * is one map per page, holding the most recent queryIDs only.
 */

export interface QueryContext {
  queryID: string;
  query: string;
  /** The store's product ids of the page shown, in order. */
  productIds: string[];
  /** 1-based, as our events count pages. */
  page: number;
  pageSize: number;
  facets: FacetSelection[];
  sortBy: string;
  totalProducts: number;
}

/** A shopper clicks on one of the last few result pages; older ids are forgotten. */
const REMEMBERED = 200;
const contexts = new Map<string, QueryContext>();

export function rememberQuery(queryID: string, search: MultiSearchQuery, answer: SearchResponse): void {
  const pageSize = search.pageSize ?? 0;
  contexts.set(queryID, {
    queryID,
    query: search.query ?? "",
    productIds: answer.products.map((p) => p.productId),
    page: pageSize ? Math.floor((search.from ?? 0) / pageSize) + 1 : 1,
    pageSize,
    facets: parseFacetParam(search.facets),
    sortBy: search.sortBy ?? "relevance",
    totalProducts: answer.totalProductCount,
  });
  if (contexts.size > REMEMBERED) contexts.delete(contexts.keys().next().value!);
}

export const queryContext = (queryID: string | undefined): QueryContext | undefined =>
  queryID === undefined ? undefined : contexts.get(queryID);

/** The latest listing that showed all of these products (a view event names products, not its query). */
export function contextShowing(productIds: readonly string[]): QueryContext | undefined {
  const latestFirst = [...contexts.values()].reverse();
  return latestFirst.find((c) => productIds.every((id) => c.productIds.includes(id)));
}
