import type { RecommendationFallback, RecommendationPlacement, RecommendationsResponse } from "@storefront-search/contract";
import { productIn, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import type { EngineFilter, EngineSearchRequest, EngineSort, SearchEngine } from "../../engine/types.ts";
import { NotFoundError } from "../../errors.ts";
import type { Product } from "../catalog/product-schema.ts";
import { toSearchProduct } from "../catalog/search-product.ts";
import { shapingFor } from "../catalog/shaped-products.ts";
import { dayOf } from "../analytics/event-facts.ts";
import { PRODUCTS_PER_SHOPPER } from "../analytics/storage/recommendation-signals-repository.ts";
import { factsOf } from "../catalog/taste-facts.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { boughtTogether, MIN_TOGETHER } from "./bought-together.ts";
import { type Affinity, TasteMatch } from "./for-you.ts";
import type { Page, ProductParams, ShopperParams, TrendingParams } from "./recommendations-params.ts";
import type { RecommendationsRepository } from "./storage/recommendations-repository.ts";
import { trendingProducts } from "./trending.ts";

/*
 * GET /recommendations/{placement}: each model ranks product ids (trending.ts, bought-together.ts, for-you.ts,
 * a shopper's views), and the engine answers the page of them it holds, in that order, as /similarity does. A
 * model with nothing to say yet hands over to its fallback, named in the answer (recommendations.md).
 */

const DAY_MS = 86_400_000;
/** Trending compares today and yesterday with the seven days before. */
const RECENT_DAYS = 2;
const EARLIER_DAYS = 7;
/** Products with recent interest that trending scores at most. */
const TRENDING_CANDIDATES = 2_000;
/**
 * How long a store's trending products are reused: they move over hours, and summing nine days of interest for
 * every home page a shopper opens would cost more than the page.
 */
const TRENDING_TTL_MS = 60_000;
/** For you: the strongest brands and categories searched for candidates, and candidates per search. */
const TASTE_QUERIES_PER_FACET = 2;
const CANDIDATES_PER_QUERY = 100;

/** The shoppers' affinities, as ranking learns them (its BehaviourRepository answers this). */
export interface ShopperTaste {
  affinitiesOf(storeId: string, shoppers: readonly string[]): Promise<Affinity[]>;
}

/** Complete the look for a product: its looks' pieces (the looks module's LookService answers this). */
export interface LookPieces {
  looks(store: StoreRow, p: { productId: string; explain: boolean }): Promise<{ ctlProducts: { productId: string }[][] }>;
}

export interface RecommendationsServiceDeps {
  catalog: CatalogRepository;
  engine: SearchEngine;
  repo: RecommendationsRepository;
  taste: ShopperTaste;
  looks: LookPieces;
  now: () => number;
}

export class RecommendationsService {
  private readonly trendingByStore = new Map<string, { at: number; ids: Promise<string[]> }>();

  constructor(private readonly d: RecommendationsServiceDeps) {}

  async trending(store: StoreRow, p: TrendingParams): Promise<RecommendationsResponse> {
    return this.trendingAs("trending", store, p);
  }

  async boughtTogether(store: StoreRow, p: ProductParams): Promise<RecommendationsResponse> {
    if (!(await productIn(this.d.catalog, store.id, p.productId))) throw new NotFoundError(`No product "${p.productId}" in this store`);
    const [partners, orders] = await Promise.all([
      this.d.repo.partners(store.id, p.productId, MIN_TOGETHER),
      this.d.repo.orderCounts(store.id, p.productId),
    ]);
    const model = await this.page(
      store,
      boughtTogether(partners, orders).map((b) => b.productId),
      [],
      p,
    );
    if (model.total) return answer("bought-together", null, model.products);
    const { ctlProducts } = await this.d.looks.looks(store, { productId: p.productId, explain: false });
    const pieces = [...new Set(ctlProducts.flat().map((piece) => piece.productId))];
    return answer("bought-together", "complete-the-look", (await this.page(store, pieces, [], p)).products);
  }

  /** The shopper's viewed products, last viewed first; none on day one (the placement then stays hidden). */
  async recentlyViewed(store: StoreRow, p: ShopperParams): Promise<RecommendationsResponse> {
    const viewed = await this.d.repo.viewed(store.id, p.shoppers[0]!, PRODUCTS_PER_SHOPPER);
    return answer("recently-viewed", null, (await this.page(store, viewed, [], p)).products);
  }

  async forYou(store: StoreRow, p: ShopperParams): Promise<RecommendationsResponse> {
    const taste = new TasteMatch(await this.d.taste.affinitiesOf(store.id, p.shoppers));
    if (taste.empty) return this.trendingAs("for-you", store, p);
    const bought = new Set(await this.d.repo.bought(store.id, p.shoppers[0]!));
    const candidates = await this.candidatesFor(store.id, taste);
    const docs = await this.d.catalog.liveDocs(store.id, candidates);
    const ranked = candidates
      .filter((id) => !bought.has(id) && docs.has(id))
      .map((id, order) => ({ id, order, score: taste.score(factsOf(JSON.parse(docs.get(id)!) as Product)) }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score || a.order - b.order);
    const model = await this.page(
      store,
      ranked.map((c) => c.id),
      [],
      p,
    );
    return model.total ? answer("for-you", null, model.products) : this.trendingAs("for-you", store, p);
  }

  private async trendingAs(model: RecommendationPlacement, store: StoreRow, p: TrendingParams): Promise<RecommendationsResponse> {
    const filters = categoryFilter(p.category);
    const fallback: RecommendationFallback | null = model === "trending" ? null : "trending";
    const trending = await this.page(store, await this.trendingIds(store.id), filters, p);
    if (trending.total) return answer(model, fallback, trending.products);
    return answer(model, fallback ?? "popular", (await this.popular(store, filters, p)).products);
  }

  /** The store's trending products, best first: reused for TRENDING_TTL_MS (a failed read is not kept). */
  private trendingIds(storeId: string): Promise<string[]> {
    const now = this.d.now();
    const cached = this.trendingByStore.get(storeId);
    if (cached && now - cached.at < TRENDING_TTL_MS) return cached.ids;
    const recentDay = dayOf(now - (RECENT_DAYS - 1) * DAY_MS);
    const fromDay = dayOf(now - (RECENT_DAYS + EARLIER_DAYS - 1) * DAY_MS);
    const ids = Promise.all([
      this.d.repo.interestTotals(storeId, recentDay, fromDay),
      this.d.repo.recentInterest(storeId, recentDay, fromDay, TRENDING_CANDIDATES),
    ]).then(([totals, interest]) => trendingProducts(interest, totals).map((t) => t.productId));
    this.trendingByStore.set(storeId, { at: now, ids });
    ids.catch(() => this.trendingByStore.delete(storeId));
    return ids;
  }

  /** Day one: the catalog most bought first, then best rated, then newest. */
  private async popular(store: StoreRow, filters: EngineFilter[], p: Page): Promise<ProductPage> {
    const sort: EngineSort[] = [
      { kind: "number", field: "purchases", order: "desc" },
      { kind: "number", field: "rating_wilson", order: "desc" },
      { kind: "number", field: "arrival_ts", order: "desc" },
    ];
    return this.shape(store, listRequest(filters, sort, p));
  }

  /** Products of the shopper's strongest brands and categories, as the engine finds them by name. */
  private async candidatesFor(storeId: string, taste: TasteMatch): Promise<string[]> {
    const queries = ["brand", "category"].flatMap((facet) => taste.top(facet, TASTE_QUERIES_PER_FACET));
    const found = await Promise.all(
      queries.map((text) =>
        this.d.engine.search(storeId, listRequest([], [{ kind: "relevance" }], { from: 0, pageSize: CANDIDATES_PER_QUERY }, text)),
      ),
    );
    return [...new Set(found.flatMap((r) => r.hits.map((h) => h.id)))];
  }

  /** The page of `ids` the engine holds (within `filters`), in the order of `ids`, and how many it holds in all. */
  private async page(store: StoreRow, ids: string[], filters: EngineFilter[], p: Page): Promise<ProductPage> {
    return ids.length
      ? this.shape(store, listRequest([{ kind: "ids", ids }, ...filters], [{ kind: "pinned", ids }], p))
      : { total: 0, products: [] };
  }

  private async shape(store: StoreRow, request: EngineSearchRequest): Promise<ProductPage> {
    const result = await this.d.engine.search(store.id, request);
    const shaping = shapingFor(store.id, effectiveSettings(store.settings));
    const products: RecommendationsResponse["products"] = [];
    for (const hit of result.hits) {
      const product = await productIn(this.d.catalog, store.id, hit.id);
      if (product) products.push({ product: toSearchProduct(product, { ...shaping.options, withFirstPrice: true }) });
    }
    return { total: result.total, products };
  }
}

/** A page of a model's products; `total`: how many the model has (0: it has nothing to say, its fallback answers). */
interface ProductPage {
  total: number;
  products: RecommendationsResponse["products"];
}

const answer = (
  model: RecommendationPlacement,
  fallback: RecommendationFallback | null,
  products: RecommendationsResponse["products"],
): RecommendationsResponse => ({ model, fallback, products });

/** A page of products, without facets: words match as typed (a brand's or category's name). */
const listRequest = (filters: EngineFilter[], sort: EngineSort[], page: Page, text = ""): EngineSearchRequest => ({
  text,
  matching: { typos: false, prefixLast: false },
  filters,
  facets: [],
  rangeFacets: [],
  sort,
  offset: page.from,
  limit: page.pageSize,
});

/** A category path's facet: category.lvl<depth> holds the path down to that depth (engine-document.ts). */
const categoryFilter = (category: string | undefined): EngineFilter[] =>
  category ? [{ kind: "terms", key: `category.lvl${category.split(" > ").length - 1}`, values: [category] }] : [];
