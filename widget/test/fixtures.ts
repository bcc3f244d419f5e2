import type { SearchProduct, SearchResponse, SuggestionsResponse, WidgetConfigResponse } from "@storefront-search/contract";

/* Realistic API bodies, in the shapes the server produces (Search product, Facet, Suggestion). */

const img = (id: string, color: string) => ({
  s: `https://cdn.shop.example/${id}-${color}-s.jpg`,
  m: `https://cdn.shop.example/${id}-${color}-m.jpg`,
  l: `https://cdn.shop.example/${id}-${color}-l.jpg`,
});

export function product(n: number, overrides: Partial<SearchProduct> = {}): SearchProduct {
  const id = `kurta-${n}`;
  return {
    id: `sp_${String(n).padStart(16, "0")}`,
    productId: id,
    url: `https://shop.example/products/${id}`,
    name: `Cotton Kurta ${n}`,
    designer: n % 2 ? "Fabindia" : "Marks, Spencer & Co",
    price: { min: 1299, max: 1299 },
    customUserData: n === 1 ? { badges: ["New", "Organic"] } : {},
    customProps: { slug: id, categories: ["Women", "Kurtas"], gender: "Women", inStock: true },
    productPopularity: { type: "STAR", data: { overallRating: 4.26, maxRating: 5, reviewCount: 87 } },
    defaultColorId: "indigo",
    colors: {
      indigo: {
        name: "Indigo",
        swatch: `https://cdn.shop.example/${id}-indigo-swatch.jpg`,
        images: [img(id, "indigo")],
        values: [],
        productName: `Cotton Kurta ${n}`,
        productUrl: `https://shop.example/products/${id}?color=indigo`,
        productId: id,
        price: { min: 1299, max: 1299 },
      },
      rust: {
        name: "Rust",
        images: [img(id, "rust")],
        values: [],
        productName: `Cotton Kurta ${n}`,
        productUrl: `https://shop.example/products/${id}?color=rust`,
        productId: id,
        price: { min: 1299, max: 1299 },
      },
    },
    ...overrides,
  };
}

export const onSale = product(7, {
  price: { min: 1999, max: 1999 },
  promoPrice: { min: 1499, max: 1499 },
  initialPrice: { min: 2499, max: 2499 },
  defaultColorId: "default",
  colors: { default: { name: "", images: [img("kurta-7", "default")], values: [], productName: "Cotton Kurta 7", productId: "kurta-7" } },
});

export function searchResponse(overrides: Partial<SearchResponse> = {}, count = 3, total = 58): SearchResponse {
  return {
    totalProductCount: total,
    products: Array.from({ length: count }, (_, i) => product(i + 1)),
    fallback: false,
    facets: [
      {
        key: "designer",
        name: "Designer",
        values: [
          { key: "Fabindia", name: "Fabindia", count: 30 },
          { key: "Marks, Spencer & Co", name: "Marks, Spencer & Co", count: 28 },
        ],
      },
      {
        key: "color",
        name: "Colour",
        values: ["Indigo", "Rust", "White", "Black", "Green", "Blue", "Pink", "Yellow", "Grey", "Maroon"].map((c, i) => ({
          key: c,
          name: c,
          count: 20 - i,
        })),
      },
      {
        key: "price",
        name: "Price",
        values: [
          { key: "0-1000", name: "0 – 1000", count: 12, lb: 0, ub: 1000 },
          { key: "1000-2000", name: "1000 – 2000", count: 40, lb: 1000, ub: 2000 },
        ],
      },
    ],
    spellSuggestions: [],
    query: "kurta",
    ...overrides,
  };
}

export const suggestionsResponse: SuggestionsResponse = {
  suggestions: [
    { id: "101", label: "kurta", count: 58 },
    { id: "102", label: "kurta set", count: 21 },
  ],
  designers: [{ id: "201", label: "Kurtas & Co", count: 9 }],
  query: "kur",
};

export const widgetConfigResponse: WidgetConfigResponse = {
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
  theme: { "--sfs-color-accent": "#1f1f1f" },
  locale: "en-IN",
  texts: {
    en: {
      results: "{count} results",
      noResults: "No products found for “{query}”",
      didYouMean: "Did you mean",
      fallback: "No exact matches for “{query}”; showing results for “{used}”",
      clearAll: "Clear all",
      showMore: "Show more",
      sortBy: "Sort by",
      filters: "Filters",
      error: "Search is unavailable right now.",
      retry: "Try again",
      previous: "Previous",
      next: "Next",
      price: "Price",
      suggestions: "Suggestions",
      designers: "Brands",
      products: "Products",
    },
  },
  currency: { code: "INR", display: "symbol" },
  preprod: false,
};
