import { MAX_RESULT_WINDOW, type Facet, type SearchProduct, type SearchResponse } from "@storefront-search/contract";
import type { AlgoliaHit, AlgoliaSearchRequest, AlgoliaSearchResult } from "./algolia-shapes.ts";
import { attributeOf, facetKeyOf, PRICE } from "./attributes.ts";
import { QueryWords, type HighlightTags } from "./highlight.ts";
import { renderedFields } from "./rendering-content.ts";
import { pageSizeOf, requestedFacets } from "./request-mapping.ts";

/*
 * One of our search answers in Algolia's result shape. A hit is our Search product with `objectID` (the store's
 * product id, which its pages and events already use), its category path as `categories`, and `_highlightResult`
 * for name, brand and each category level (an array, as Algolia highlights an array attribute). Facets are the
 * requested attributes' values with their counts; price's values are our range buckets ("500-1000"), and its
 * facets_stats span them: min is the lowest price, max the top bucket's upper bound.
 */

/** Algolia's default. */
const DEFAULT_MAX_VALUES_PER_FACET = 100;
const DEFAULT_TAGS: HighlightTags = { pre: "<em>", post: "</em>" };

export interface ResultContext {
  processingTimeMS: number;
  queryID?: string;
}

/** The product's category path: the Search product carries it in customProps (docs/decisions.md). */
function categoriesOf(product: SearchProduct): string[] {
  const categories = product.customProps?.categories;
  return Array.isArray(categories) ? categories.filter((c): c is string => typeof c === "string") : [];
}

function toHit(product: SearchProduct, words: QueryWords, tags: HighlightTags): AlgoliaHit<SearchProduct> {
  const highlights: AlgoliaHit["_highlightResult"] = { name: words.highlight(product.name, tags) };
  if (product.designer !== undefined) highlights.brand = highlights.designer = words.highlight(product.designer, tags);
  const categories = categoriesOf(product);
  if (categories.length === 0) return { ...product, objectID: product.productId, _highlightResult: highlights };
  highlights.categories = categories.map((c) => words.highlight(c, tags));
  return { ...product, objectID: product.productId, categories, _highlightResult: highlights };
}

function facetCounts(facet: Facet, max: number): Record<string, number> {
  return Object.fromEntries(facet.values.slice(0, max).map((v) => [v.key, v.count]));
}

function priceStats(facet: Facet): { min: number; max: number } | null {
  const bounds = facet.values.flatMap((v) => (v.lb === undefined || v.ub === undefined ? [] : [v.lb, v.ub]));
  return bounds.length ? { min: Math.min(...bounds), max: Math.max(...bounds) } : null;
}

/** The request's parameters as Algolia echoes them: a query string, arrays as JSON. */
function paramsText(request: AlgoliaSearchRequest): string {
  const text = new URLSearchParams();
  for (const [name, value] of Object.entries(request.params ?? {})) {
    if (value !== undefined) text.append(name, typeof value === "string" ? value : JSON.stringify(value));
  }
  return text.toString();
}

export function toAlgoliaResult(
  request: AlgoliaSearchRequest,
  answer: SearchResponse,
  context: ResultContext,
): AlgoliaSearchResult<SearchProduct> {
  const params = request.params ?? {};
  const typed = params.query ?? "";
  const words = new QueryWords(typed, answer.query);
  const tags =
    params.highlightPreTag && params.highlightPostTag ? { pre: params.highlightPreTag, post: params.highlightPostTag } : DEFAULT_TAGS;
  const hitsPerPage = pageSizeOf(params);
  const maxValues = params.maxValuesPerFacet ?? DEFAULT_MAX_VALUES_PER_FACET;
  const asked = requestedFacets(params.facets);
  const byKey = new Map((answer.facets ?? []).map((f) => [f.key, f]));
  const facets: AlgoliaSearchResult["facets"] = {};
  const stats: AlgoliaSearchResult["facets_stats"] = {};
  const attributes = asked.includes("*") ? [...byKey.keys()].map(attributeOf) : asked;
  for (const attribute of attributes) {
    const facet = byKey.get(facetKeyOf(attribute));
    if (!facet) continue;
    facets[attribute] = facetCounts(facet, maxValues);
    const priced = attribute === PRICE ? priceStats(facet) : null;
    if (priced) stats[attribute] = priced;
  }
  const nbHits = answer.totalProductCount;
  return {
    hits: answer.products.map((p) => toHit(p, words, tags)),
    nbHits,
    page: Math.max(0, Math.floor(params.page ?? 0)),
    nbPages: hitsPerPage ? Math.min(Math.ceil(nbHits / hitsPerPage), Math.floor(MAX_RESULT_WINDOW / hitsPerPage)) : 0,
    hitsPerPage,
    processingTimeMS: context.processingTimeMS,
    facets,
    facets_stats: stats,
    exhaustiveFacetsCount: true,
    exhaustiveNbHits: true,
    query: typed,
    params: paramsText(request),
    index: request.indexName,
    ...(context.queryID ? { queryID: context.queryID } : {}),
    ...renderedFields(answer),
  };
}
