/*
 * The store's widget configuration (GET /1.9/widget-config), "managed by the service as agreed with the store".
 * Every member is optional on the wire: defaults fill what is missing, so an older server or a partial answer
 * still gives a working widget.
 */

import type { ExperimentTag } from "./experiment-tag.ts";

export interface SortOption {
  value: string;
  label: string;
}

export interface CurrencyDisplay {
  code: string;
  display?: "symbol" | "code" | "name";
}

/**
 * The widget members a store sets (PATCH /settings `{ widget }`): the service serves them over DEFAULT_CONFIG as
 * GET /widget-config. The server's schema (server/src/modules/widget/widget-settings.ts) is checked to be this type.
 */
export interface WidgetSettings {
  targetId?: string;
  searchPagePath?: string;
  queryParam?: string;
  searchInputSelector?: string;
  sortOptions?: SortOption[];
  pageSize?: number;
  /** CSS custom properties (THEME_KEY_PATTERN) and their values. */
  theme?: Record<string, string>;
  locale?: string;
  /** Texts by locale, by TextKey. */
  texts?: Record<string, Record<string, string>>;
  currency?: CurrencyDisplay;
  preprod?: boolean;
  facetsOpen?: number;
  popularQueries?: string[];
  markPinned?: boolean;
}

/** What GET /1.9/widget-config answers (all members optional). */
export interface WidgetConfigResponse extends Omit<WidgetSettings, "texts" | "currency"> {
  texts?: Record<string, Partial<Texts>>;
  currency?: Partial<CurrencyDisplay>;
  popularCategories?: PopularCategory[];
  /** The running experiment whose variant's widget settings this configuration holds. */
  experiment?: ExperimentTag;
}

/** A category the service offers where a search would end (category.lvl1 key, its last level as name). */
export interface PopularCategory {
  key: string;
  name: string;
}

export const DEFAULT_TEXTS = {
  results: "{count} results",
  resultsFor: "Results for “{query}”",
  skipToResults: "Skip to results",
  noResults: "No products found for “{query}”",
  didYouMean: "Did you mean",
  fallback: "No exact matches for “{query}”; showing results for “{used}”",
  corrected: "Showing results for “{used}”.",
  recovered: "No products match “{query}”. These come closest to it:",
  searchInstead: "Search instead for “{query}”",
  popularProducts: "Popular products",
  categories: "Popular categories",
  recent: "Recent searches",
  clearAll: "Clear all",
  clearFilters: "Clear filters",
  popular: "Popular searches",
  showResults: "Show {count} results",
  filterValues: "Filter {facet}",
  noValues: "No match",
  showMore: "Show more",
  showLess: "Show less",
  sortBy: "Sort by",
  filters: "Filters",
  error: "Search is unavailable right now.",
  retry: "Try again",
  previous: "Previous",
  next: "Next",
  page: "Page {page}",
  pagination: "Pages",
  price: "Price",
  suggestions: "Suggestions",
  designers: "Brands",
  products: "Products",
  searching: "Searching…",
  noSuggestions: "No suggestions for “{query}”",
  close: "Close",
  removeFilter: "Remove filter {value}",
  selectedFilters: "Selected filters",
  originalPrice: "Original price",
  rating: "Rated {rating} out of {max}",
  reviews: "{count} reviews",
  colors: "Colours",
  loading: "Loading results",
  similarProducts: "You may also like",
  loadingSimilar: "Loading similar products",
  completeTheLook: "Complete the look",
  recommendTrending: "Trending now",
  recommendBoughtTogether: "Frequently bought together",
  recommendRecentlyViewed: "Recently viewed",
  recommendForYou: "Recommended for you",
  loadingRecommendations: "Loading recommendations",
  loadingLooks: "Loading looks",
  viewLook: "View Look {n}",
  look: "Look {n}",
  thisItem: "This item",
  addToCart: "Add to cart",
  added: "Added",
  pinned: "Featured",
  redirecting: "Taking you to the page for “{query}”…",
  banners: "Announcements",
};

export type Texts = typeof DEFAULT_TEXTS;
export type TextKey = keyof Texts;

export interface WidgetConfig {
  targetId: string;
  searchPagePath: string;
  queryParam: string;
  searchInputSelector: string;
  sortOptions: SortOption[];
  pageSize: number;
  theme: Record<string, string>;
  locale: string;
  /** The texts of `locale` (falling back to its language, then English, then the built-in defaults). */
  texts: Texts;
  currency: CurrencyDisplay;
  preprod: boolean;
  /** Facet groups open when the results show (the others collapsed; a group with a selected value is open). */
  facetsOpen: number;
  /** Offered when a search finds nothing and in the empty search box (the store's, or what its shoppers search most). */
  popularQueries: string[];
  /** Offered when a search finds nothing: the store's largest categories. */
  popularCategories: PopularCategory[];
  /** Whether products a merchandising rule pinned carry the `pinned` text as a badge. */
  markPinned: boolean;
}

export const DEFAULT_CONFIG: WidgetConfig = {
  targetId: "product-search-results",
  searchPagePath: "/search-results",
  queryParam: "q",
  searchInputSelector: "input[type=search]",
  sortOptions: [
    { value: "", label: "Relevance" },
    { value: "pricea", label: "Price: low to high" },
    { value: "priced", label: "Price: high to low" },
    { value: "new", label: "Newest" },
    { value: "rating", label: "Top rated" },
  ],
  pageSize: 24,
  theme: {},
  locale: "en",
  texts: DEFAULT_TEXTS,
  currency: { code: "INR", display: "symbol" },
  preprod: false,
  facetsOpen: 4,
  popularQueries: [],
  popularCategories: [],
  markPinned: false,
};

/** The theme's keys: CSS custom properties the widget's styles read (the settings schema and the widget check it). */
export const THEME_KEY_PATTERN = "^--sfs-[a-z0-9-]{1,60}$";
