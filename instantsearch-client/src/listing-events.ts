import type { QueryContext } from "./query-contexts.ts";

/*
 * The event a result page the shopper was shown is, counted as the head script counts them: a Search when the
 * query or the filters changed, a SortByChange when only the order did, a PageChange when only the page did, and
 * nothing for a page shown again. Reports count searches, and clicks and conversions against them, from these.
 */

export interface ListingEvent {
  type: "Search" | "SortByChange" | "PageChange";
  data: Record<string, unknown>;
}

/** The listing fields of our events: the query and the page shown (an event's facets are the values chosen, not those excluded). */
export const listingFields = (c: QueryContext) => ({
  query: c.query,
  productIds: c.productIds,
  facets: c.facets.filter((f) => !f.exclude),
  pageSize: c.pageSize,
  sortBy: c.sortBy,
});

const sameFacets = (a: QueryContext, b: QueryContext) =>
  a.facets.length === b.facets.length &&
  a.facets.every((f) => b.facets.some((g) => g.key === f.key && g.value === f.value && !g.exclude === !f.exclude));

export class ListingEvents {
  private readonly seen = new Set<string>();
  private last: QueryContext | undefined;

  /** The event for a listing, the first time its queryID is met; null after, or when nothing changed. */
  eventFor(c: QueryContext): ListingEvent | null {
    if (this.seen.has(c.queryID)) return null;
    this.seen.add(c.queryID);
    const last = this.last;
    this.last = c;
    if (!last || last.query !== c.query || !sameFacets(last, c)) {
      return { type: "Search", data: { ...listingFields(c), totalProducts: c.totalProducts } };
    }
    if (last.sortBy !== c.sortBy) return { type: "SortByChange", data: listingFields(c) };
    if (last.page !== c.page) return { type: "PageChange", data: { ...listingFields(c), page: c.page } };
    return null;
  }
}
