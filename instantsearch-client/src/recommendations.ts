import {
  MAX_PAGE_SIZE,
  type MultiSearchResponse,
  type RecommendationsResponse,
  type SearchProduct,
  type SimilarityResponse,
} from "@storefront-search/contract";
import type { AlgoliaSearchParams } from "./algolia-shapes.ts";
import { facetKeyOf } from "./attributes.ts";
import { toOurSearch } from "./request-mapping.ts";
import { SearchRequestError, serviceRequest, type ServiceOptions } from "./service-request.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * getRecommendations for InstantSearch's Recommend widgets, from what the service has:
 * - related-products and looking-similar: similar products (GET /similarity), the page's queryParameters'
 *   filters applied as its facets;
 * - bought-together: the service's bought-together model (GET /recommendations/bought-together: co-purchases by
 *   lift; complete the look's pieces for a product without orders);
 * - trending-items: the service's trending model (GET /recommendations/trending), in the category a
 *   categories.lvlN facetName:facetValue names; with a facet of another attribute or the queryParameters'
 *   filters, which that model does not take, the catalog most bought first (search's browse) within them.
 * Each request is one round trip, all in parallel. A product the service does not know has no
 * recommendations (empty hits), as with Algolia. Hits are Search products with `objectID` and a `_score`
 * from their rank (100 for the first): the service answers an order, not scores.
 */

export interface RecommendRequest {
  indexName: string;
  model: string;
  objectID?: string;
  threshold?: number;
  maxRecommendations?: number;
  queryParameters?: AlgoliaSearchParams;
  facetName?: string;
  facetValue?: string;
  fallbackParameters?: AlgoliaSearchParams;
}

export type RecommendHit = SearchProduct & { objectID: string; _score: number };

export interface RecommendResult {
  hits: RecommendHit[];
  nbHits: number;
  processingTimeMS: number;
  index: string;
}

/** What Algolia's Recommend answers at most, when maxRecommendations is not given. */
const DEFAULT_RECOMMENDATIONS = 30;
const MODELS = ["related-products", "looking-similar", "bought-together", "trending-items"];

const sizeOf = (r: RecommendRequest) => Math.min(Math.max(1, Math.floor(r.maxRecommendations ?? DEFAULT_RECOMMENDATIONS)), MAX_PAGE_SIZE);

/** The facets parameter that the page's filters for a request make. */
function facetsOf(r: RecommendRequest, extra: string[] = []): string | undefined {
  const params: AlgoliaSearchParams = { ...r.queryParameters, facetFilters: [...filterList(r.queryParameters?.facetFilters), ...extra] };
  return toOurSearch({ indexName: r.indexName, params }).facets;
}

const filterList = (list: AlgoliaSearchParams["facetFilters"]) => (list === undefined ? [] : typeof list === "string" ? [list] : list);

function productOf(r: RecommendRequest): string {
  if (!r.objectID) throw new UnsupportedSearchError(`${r.model} recommendations need an objectID (index ${r.indexName})`);
  return encodeURIComponent(r.objectID);
}

async function productsFor(options: ServiceOptions, r: RecommendRequest): Promise<SearchProduct[]> {
  const size = sizeOf(r);
  if (r.model === "related-products" || r.model === "looking-similar") {
    const facets = facetsOf(r);
    const path = `similarity?productId=${productOf(r)}&pageSize=${size}${facets ? `&facets=${encodeURIComponent(facets)}` : ""}`;
    return (await serviceRequest<SimilarityResponse>(options, path)).products.map((p) => p.product);
  }
  if (r.model === "bought-together") return recommended(options, `bought-together?productId=${productOf(r)}&pageSize=${size}`);
  const facet = r.facetName && r.facetValue !== undefined ? [`${r.facetName}:${r.facetValue}`] : [];
  const category =
    facet.length && facetKeyOf(r.facetName!).startsWith("category.lvl") ? `&category=${encodeURIComponent(r.facetValue!)}` : "";
  if ((category || !facet.length) && !facetsOf(r)) return recommended(options, `trending?pageSize=${size}${category}`);
  const browse = { browse: true, pageSize: size, analytics: false, facets: facetsOf(r, facet) };
  const { results } = await serviceRequest<MultiSearchResponse>(options, "multi-search", {
    method: "POST",
    body: JSON.stringify({ requests: [browse] }),
  });
  return results[0]!.products;
}

async function recommended(options: ServiceOptions, path: string): Promise<SearchProduct[]> {
  return (await serviceRequest<RecommendationsResponse>(options, `recommendations/${path}`)).products.map((p) => p.product);
}

async function recommend(options: ServiceOptions, r: RecommendRequest): Promise<RecommendResult> {
  const started = performance.now();
  const products = await productsFor(options, r).catch((error: unknown) => {
    if (error instanceof SearchRequestError && error.status === 404) return [];
    throw error;
  });
  const hits = products.map((p, i) => ({ ...p, objectID: p.productId, _score: Math.round(100 * (1 - i / products.length)) }));
  return { hits, nbHits: hits.length, processingTimeMS: Math.round(performance.now() - started), index: r.indexName };
}

export async function getRecommendations(
  options: ServiceOptions,
  requests: readonly RecommendRequest[],
): Promise<{ results: RecommendResult[] }> {
  for (const r of requests) {
    if (!MODELS.includes(r.model)) throw new UnsupportedSearchError(`the ${r.model} model is not supported (index ${r.indexName})`);
    if (r.model !== "trending-items") productOf(r);
  }
  return { results: await Promise.all(requests.map((r) => recommend(options, r))) };
}
