import type { ExperimentTag, SearchResponse } from "@storefront-search/contract";
import type { SearchState } from "../state/search-state.ts";

/*
 * The data of each analytics event the widget sends, with exactly the field set the specification lists for its
 * type. Products are named by the store's own ids (`productId`), as in the store's AddToCart and order events.
 */

export interface LocaleFields {
  region: string;
  language: string;
  currency: string;
}

export interface SiteViewData extends LocaleFields {
  location: string;
  referrer: string;
  userAgent: string;
}

/** Which experiment and variant shaped the answer an event is about: the answer's own `experiment`, sent back. */
export interface ExperimentFields {
  experimentId?: string;
  variant?: string;
}

export interface ListingData extends LocaleFields, ExperimentFields {
  query: string;
  productIds: string[];
  facets: { key: string; value: string }[];
  pageSize: number;
  sortBy: string;
}

export type SearchData = ListingData & { totalProducts: number };
export type PageChangeData = ListingData & { page: number };
export type SortByChangeData = ListingData;
export type ProductClickData = PageChangeData & { clickProductId: string; interleavedFrom?: "A" | "B" };

/** The answer's experiment as event fields; none when no experiment shaped it. */
export const experimentFields = (experiment: ExperimentTag | undefined): ExperimentFields =>
  experiment ? { experimentId: experiment.id, variant: experiment.variant } : {};

export function siteViewData(page: { location: string; referrer: string; userAgent: string }, locale: LocaleFields): SiteViewData {
  return {
    location: page.location,
    referrer: page.referrer,
    userAgent: page.userAgent,
    region: locale.region,
    language: locale.language,
    currency: locale.currency,
  };
}

export function listingData(state: SearchState, result: SearchResponse, pageSize: number, locale: LocaleFields): ListingData {
  return {
    query: state.query,
    productIds: result.products.map((p) => p.productId),
    facets: state.facets.map((f) => ({ key: f.key, value: f.value })),
    pageSize,
    sortBy: state.sort || "relevance",
    region: locale.region,
    language: locale.language,
    currency: locale.currency,
    ...experimentFields(result.experiment),
  };
}

export const searchData = (listing: ListingData, result: SearchResponse): SearchData => ({
  ...listing,
  totalProducts: result.totalProductCount,
});
export const pageChangeData = (listing: ListingData, page: number): PageChangeData => ({ ...listing, page });
/** A click; on an interleaved list, with the ranking that placed the product, which the click credits. */
export function productClickData(listing: ListingData, page: number, clickProductId: string, experiment?: ExperimentTag): ProductClickData {
  const team = experiment?.interleavedFrom?.[clickProductId];
  return { ...listing, page, clickProductId, ...(team ? { interleavedFrom: team } : {}) };
}

/** region: the region of the browser's language ("en-IN" → "IN"), else of the store's locale. */
export function localeFields(browserLanguage: string, pageLanguage: string, storeLocale: string, currency: string): LocaleFields {
  const regionOf = (tag: string) => /^[a-z]{2,3}[-_]([a-z]{2}|\d{3})\b/i.exec(tag)?.[1]?.toUpperCase() ?? "";
  return {
    region: regionOf(browserLanguage) || regionOf(storeLocale),
    language: pageLanguage || browserLanguage || storeLocale,
    currency,
  };
}

/** Which event a completed search is: a new search, another page of it, or another order of it. */
export function listingEventType(previous: SearchState | null, current: SearchState): "Search" | "PageChange" | "SortByChange" | null {
  if (!previous || previous.query !== current.query || !previous.exact !== !current.exact) return "Search";
  const sameFacets =
    previous.facets.length === current.facets.length &&
    previous.facets.every((f) => current.facets.some((g) => g.key === f.key && g.value === f.value));
  if (!sameFacets) return "Search";
  if (previous.sort !== current.sort) return "SortByChange";
  if (previous.page !== current.page) return "PageChange";
  return null;
}
