import { liveProductsIn, productIn, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import type { EngineFilter, EngineSearchRequest, SearchEngine } from "../../engine/types.ts";
import { NotFoundError } from "../../errors.ts";
import { paidPrices } from "../catalog/price-range.ts";
import type { Product } from "../catalog/product-schema.ts";
import { toSearchProduct, type SearchProduct } from "../catalog/search-product.ts";
import { shapingFor } from "../catalog/shaped-products.ts";
import { PRICE_FACET } from "../facets/facet-keys.ts";
import { facetPlan, shapeFacets, type Facet, type FacetPlan } from "../facets/facet-display.ts";
import { toEngineFilters } from "../facets/facet-selection.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { inVariant, tagged, type ShopperVariants } from "../settings/shopper-variant.ts";
import type { ExperimentTag } from "@storefront-search/contract";
import type { Contributions, Similar, SimilarityIndex } from "./similarity-index.ts";
import type { ShopperIds } from "../../http/query-params.ts";
import type { SimilarityParams } from "./similarity-params.ts";

/*
 * GET /similarity: the similar set of a product (similarity-index.ts) answered through the engine, so facets,
 * a facet selection and paging work exactly as in search: the set is an ids filter, its order a pinned sort.
 * The model runs here, over the catalog, not in the engine: the same answer on both engines, explainable, and
 * no vectors to keep in a Typesense collection.
 */

export interface SimilarityResponse {
  totalProductCount: number;
  products: { product: SearchProduct }[];
  facets: Facet[];
  sourceProduct: { productId: string; image?: string; name: string };
  /** With explain=true (admin key): each result's score and its parts, and the shopper's taste where it applied. */
  explain?: { productId: string; score: number; contributions: Contributions; personalisation?: PersonalPart }[];
  /** The running experiment whose variant shaped the answer (its settings: facets and their values shown). */
  experiment?: ExperimentTag;
}

/** A shopper's liking of a product, relative to the others compared (ranking's ShopperTaste), and what matched. */
export interface Liking {
  boost: number;
  matched: Record<string, string>;
}

/** What the shopper's taste did to a result: its liking and the places it moved the result (up: positive). */
export interface PersonalPart extends Liking {
  moved: number;
}

/** The shopper's likings of these products; null for a shopper without a taste (their answer is everyone's). */
export type Likings = (storeId: string, shopper: ShopperIds, ids: readonly string[]) => Promise<ReadonlyMap<string, Liking> | null>;

/** How many places the shopper's taste can lift a similar product: a nudge, the model's order still leads. */
export const MAX_TASTE_RISE = 3;

export interface SimilarityServiceDeps {
  catalog: CatalogRepository;
  engine: SearchEngine;
  /** The store's similarity index, current. */
  index: (store: StoreRow) => Promise<SimilarityIndex>;
  /** The shopper's experiment variant, whose settings are the store's for this answer (absent: none). */
  variants?: ShopperVariants;
  /** The shopper's taste (absent: no personalisation). */
  likings?: Likings;
}

export class SimilarityService {
  constructor(private readonly d: SimilarityServiceDeps) {}

  async similar(asked: StoreRow, p: SimilarityParams): Promise<SimilarityResponse> {
    const variant = (await this.d.variants?.(asked, p)) ?? null;
    const store = inVariant(asked, variant);
    const source = await productIn(this.d.catalog, store.id, p.productId);
    if (!source) throw new NotFoundError(`No product "${p.productId}" in this store`);
    const index = await this.d.index(store);
    const settings = effectiveSettings(store.settings);
    const similar = index.similar(p.productId, p.variantId) ?? [];
    const personal =
      this.d.likings && settings.personalisation
        ? await this.d.likings(
            store.id,
            p,
            similar.map((r) => r.id),
          )
        : null;
    const { ranked, parts } = personalised(similar, personal);
    const plan = facetPlan(settings.facets);
    const ids = ranked.map((r) => r.id);
    const selection = toEngineFilters(p.facets);
    const request = similarSetRequest(ids, selection, plan, p);
    const result = ids.length ? await this.d.engine.search(store.id, request) : { total: 0, hits: [], facets: {}, ranges: {} };
    const shaping = shapingFor(store.id, settings);
    const options = { ...shaping.options, withFirstPrice: true };
    const found = await liveProductsIn(
      this.d.catalog,
      store.id,
      result.hits.map((h) => h.id),
    );
    const products: { product: SearchProduct }[] = [];
    for (const hit of result.hits) {
      const product = found.get(hit.id);
      if (product) products.push({ product: toSearchProduct(product, options) });
    }
    const facets = shapeFacets(result, settings.facets, {
      language: p.language ?? settings.locale,
      shownValues: settings.facetShownValues,
    });
    await this.addSpecialValues(store.id, facets, source, p, request, selection);
    const response: SimilarityResponse = {
      totalProductCount: result.total,
      products,
      facets,
      sourceProduct: sourceProductOf(source, p.variantId),
    };
    if (p.explain) {
      const scores = new Map(ranked.map((r) => [r.id, r]));
      response.explain = result.hits.map((h) => ({
        productId: h.id,
        score: scores.get(h.id)!.score,
        contributions: scores.get(h.id)!.contributions,
        ...(parts.has(h.id) ? { personalisation: parts.get(h.id)! } : {}),
      }));
    }
    return tagged(response, variant);
  }

  /**
   * Every facet of a similarity answer has specialValues: the source's own brand ("Same brand") and colour
   * ("Same colour") when similar products share them, and on price, those below the source's ("Lower price").
   * Each is a value the shopper can select like any other; counts follow the facets' disjunctive rule.
   */
  private async addSpecialValues(
    storeId: string,
    facets: Facet[],
    source: Product,
    p: SimilarityParams,
    request: EngineSearchRequest,
    selection: EngineFilter[],
  ) {
    const variation = source.variations?.find((v) => v.id === p.variantId) ?? source.variations?.[0];
    const own: Record<string, { value?: string; name: string }> = {
      designer: { value: source.brand, name: "Same brand" },
      color: { value: variation?.name, name: "Same colour" },
    };
    for (const facet of facets) {
      facet.specialValues = [];
      const mine = own[facet.key];
      const value = mine?.value ? facet.values.find((v) => v.key === mine.value) : undefined;
      if (mine && value) facet.specialValues.push({ key: value.key, name: mine.name, count: value.count });
      if (facet.key === PRICE_FACET) {
        const price = lowestPrice(source);
        if (price === null) continue;
        const others = selection.filter((f) => !(f.kind === "range" && f.field === "price_min"));
        const below = await this.d.engine.search(storeId, {
          ...request,
          filters: [...request.filters.filter((f) => f.kind === "ids"), ...others, { kind: "range", field: "price_min", max: price }],
          facets: [],
          rangeFacets: [],
          offset: 0,
          limit: 0,
        });
        if (below.total > 0) facet.specialValues.push({ key: `0-${price}`, name: "Lower price", count: below.total, lb: 0, ub: price });
      }
    }
  }
}

/**
 * The similar set re-ranked by the shopper's taste: a result rises at most MAX_TASTE_RISE places for how much more
 * they like it than the least liked of the set (so others move down by at most as much).
 */
function personalised(
  similar: Similar[],
  likings: ReadonlyMap<string, Liking> | null,
): { ranked: Similar[]; parts: Map<string, PersonalPart> } {
  const parts = new Map<string, PersonalPart>();
  if (!likings) return { ranked: similar, parts };
  const keyed = similar.map((s, i) => ({ s, i, key: i - MAX_TASTE_RISE * (likings.get(s.id)?.boost ?? 0) }));
  keyed.sort((a, b) => a.key - b.key || a.i - b.i);
  keyed.forEach(({ s, i }, at) => {
    const liking = likings.get(s.id) ?? { boost: 0, matched: {} };
    parts.set(s.id, { ...liking, moved: i - at });
  });
  return { ranked: keyed.map((k) => k.s), parts };
}

/** The engine request that answers a page of a similar set: only its ids, in their order, with the selection and facets. */
export function similarSetRequest(
  ids: string[],
  selection: EngineFilter[],
  plan: FacetPlan,
  page: { from: number; pageSize: number },
): EngineSearchRequest {
  return {
    text: "",
    matching: { typos: false, prefixLast: false },
    filters: [{ kind: "ids", ids }, ...selection],
    facets: plan.terms,
    rangeFacets: plan.ranges,
    sort: [{ kind: "pinned", ids }],
    offset: page.from,
    limit: page.pageSize,
  };
}

/** The source's `price_min` (engine-document.ts): what "Lower price" compares with. */
function lowestPrice(p: Product): number | null {
  const prices = paidPrices(p.skus);
  return prices.length ? Math.min(...prices) : null;
}

/** The source as the carousel's heading shows it: the asked variant's image when it has one. */
function sourceProductOf(p: Product, variantId?: string): SimilarityResponse["sourceProduct"] {
  const media = p.media ?? [];
  const image = (media.find((m) => variantId && m.variationId === variantId) ?? media[0])?.url;
  return { productId: p.id, ...(image ? { image } : {}), name: p.name };
}
