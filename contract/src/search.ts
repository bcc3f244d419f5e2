/*
 * The answers of the search, similarity and complete-the-look endpoints, as the service specification names them
 * ("Search product", "Facet"), and the search request the widget sends. Members the widget does not use are typed
 * loosely or left out; everything is optional that the server may omit.
 */

import type { ExperimentTag } from "./experiment-tag.ts";

/** Most products one search answers. */
export const MAX_PAGE_SIZE = 100;
/** Deepest result reachable by paging (`from + pageSize`); beyond it shoppers refine instead (and engines slow down). */
export const MAX_RESULT_WINDOW = 10_000;
/** Most values one facet of an answer lists, by count; a shopper narrows long lists by typing, not scrolling. */
export const MAX_FACET_VALUES = 200;

export interface PriceRange {
  min: number;
  max: number;
  first?: number;
}

export interface ImageSizes {
  s?: string;
  m?: string;
  l?: string;
}

export interface CurrencyConversion {
  price?: PriceRange;
  promoPrice?: PriceRange;
  initialPrice?: PriceRange;
  currency: string;
}

export interface PricedItem {
  price?: PriceRange;
  promoPrice?: PriceRange;
  initialPrice?: PriceRange;
  ccv?: CurrencyConversion;
}

export interface ColorVariation extends PricedItem {
  name?: string;
  swatch?: string;
  images?: ImageSizes[];
  values?: { hex: string; ratio: number }[];
  productName?: string;
  productUrl?: string;
  productId?: string;
}

export type ProductPopularity =
  | { type: "STAR"; data: { overallRating?: number; maxRating?: number; reviewCount?: number } }
  | { type: "LIKES"; data: { favLikeCount?: number } }
  | { type: "THUMBS"; data: { thumbsUpCount?: number; thumbsDownCount?: number } };

export interface SearchProduct extends PricedItem {
  /** The service's id (opaque). */
  id: string;
  /** The store's own product id: what analytics events carry. */
  productId: string;
  url?: string;
  name: string;
  designer?: string;
  customUserData?: Record<string, string[]>;
  customProps?: Record<string, unknown>;
  productPopularity?: ProductPopularity;
  defaultColorId?: string;
  colors?: Record<string, ColorVariation>;
}

export interface FacetValue {
  key: string;
  name?: string;
  count: number;
  /** Range facets (price) carry bounds. */
  lb?: number;
  ub?: number;
  /** Selected by the query's own words ("men's watch" selects Men): shown checked, taken back by searching without them. */
  selected?: boolean;
}

export interface Facet {
  key: string;
  name?: string;
  values: FacetValue[];
  /** Values to show before "show more" (the store's facet settings). */
  shownValues?: number;
  /**
   * Similarity only: values that relate to the product the similar ones are for ("Same brand", "Same colour",
   * "Lower price"), each selectable like a value of this facet (`key`, with `lb`/`ub` on price).
   */
  specialValues?: FacetValue[];
}

/**
 * The members of a search answer that the server builds and the widget reads alike. Products and facets are
 * typed per side: the server holds each product as its stored JSON until the HTTP layer joins them.
 */
export interface SearchAnswer {
  totalProductCount: number;
  fallback?: boolean;
  spellSuggestions?: string[];
  /** The search term used: differs from the submitted one when `fallback` is true. */
  query?: string;
  collection?: string;
  /** A merchandising rule sends the shopper to this page instead (absolute, or a path on the store). */
  redirect?: string;
  /** Custom data of the rules that fired, in rule order; `type: "banner"` entries are shown over the results. */
  userData?: Record<string, unknown>[];
  /** Products on this page that a rule pinned. */
  pinnedProductIds?: string[];
  /** When misspelt words were replaced by their correction (`query`): the words as typed ("search instead for"). */
  typedQuery?: string;
  /** Facet selections the query's words made ("men's": gender Men or Unisex), taken back by searching without `words`. */
  queryFacets?: QueryFacet[];
  /** Nothing matched: the products shown are the nearest to what the query means in the store. */
  recovered?: boolean;
  /** The running experiment this answer was shaped by, and the shopper's variant: the widget sends it back with its events. */
  experiment?: ExperimentTag;
}

/** GET /search as the widget reads it. */
export interface SearchResponse extends SearchAnswer {
  products: SearchProduct[];
  facets?: Facet[];
}

/** A facet selection a query's words made (the search answer's `queryFacets`). */
export interface QueryFacet {
  key: string;
  values: string[];
  /** The words that made it, as typed: searching without them takes it back. */
  words: string;
}

/** A `userData` entry the results page shows. */
export interface Banner {
  type: "banner";
  title: string;
  text?: string;
  image?: string;
  link?: string;
}

export interface SimilarityResponse {
  totalProductCount: number;
  /** Each Search product carries price.first. */
  products: { product: SearchProduct }[];
  facets: Facet[];
  sourceProduct: { productId: string; image?: string; name: string };
  /** The running experiment whose variant shaped the answer. */
  experiment?: ExperimentTag;
}

/** A product of GET /ctl: a Search product with the slot it fills in a look. */
export interface CtlProduct extends SearchProduct {
  gender?: string;
  /** The slot it fills in the look ("bottom", "shoes", "bag", …); for the source product its own kind. */
  internalCategory?: string;
}

export interface CtlResponse {
  /** Up to 9 looks, best first; each is the products that complete the source (the source is not in them). */
  ctlProducts: CtlProduct[][];
  sourceProduct: CtlProduct;
  /** The running experiment whose variant shaped the answer. */
  experiment?: ExperimentTag;
}

/** GET and PUT /ctl/pinned/{productId} (admin): the looks a store curated for a product, shown before the composed ones. */
export interface PinnedLooks {
  productId: string;
  /** 1 to 9 looks of 1 to 8 product ids. */
  looks: string[][];
}

export interface SearchRequest {
  query: string;
  /** The API's facets parameter (see facet-param.ts). */
  facets?: string;
  sortBy?: string;
  from?: number;
  pageSize: number;
  returnFacets?: boolean;
  /** false skips spell suggestions (the typeahead shows none). */
  spellEnabled?: boolean;
  /** A typeahead preview while the shopper types: the server does not log it as a search. */
  typeahead?: boolean;
  userId?: string;
  sessionId?: string;
  preprod?: boolean;
  /** Locale of facet names (LOCALE_PATTERN, locale.ts). */
  language?: string;
  /** No query: the catalog, most bought first (an empty search box). */
  browse?: boolean;
  /** false: misspelt words are searched as typed ("search instead for"). */
  autocorrect?: boolean;
}
