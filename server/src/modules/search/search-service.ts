import type { CatalogRepo } from "../../db/catalog-repo.ts";
import type { GroupCommit } from "../../db/group-commit.ts";
import type { SearchLogEntry } from "../../db/search-log-repo.ts";
import type { StoreRow } from "../../db/stores-repo.ts";
import { foldCase } from "../../engine/text/normalize.ts";
import type { EngineSearchRequest, EngineSearchResult, SearchEngine, WordCorrection } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import { toSearchProduct, type SearchProduct } from "../catalog/search-product.ts";
import { effectiveSettings, type EffectiveSettings } from "../settings/settings-schema.ts";
import { FACET_REQUEST, facetName, facetValueName, PRICE_FACET } from "./facet-keys.ts";
import { toEngineFilters } from "./facet-selection.ts";
import type { SearchParams } from "./search-params.ts";
import { engineSorts } from "./sort-strategies.ts";

export interface FacetValue {
  key: string;
  name: string;
  count: number;
  lb?: number;
  ub?: number;
}

export interface Facet {
  key: string;
  name: string;
  values: FacetValue[];
}

export interface SearchResponse {
  totalProductCount: number;
  products: SearchProduct[];
  fallback: boolean;
  facets: Facet[];
  spellSuggestions: string[];
  query?: string;
  collection?: string;
}

/** Most values listed per facet; a shopper narrows long lists by typing, not scrolling. */
const MAX_FACET_VALUES = 200;
const PRICE_BUCKETS = 6;
/** A known word gets a suggestion only when a look-alike is in this many times more products. */
const MUCH_MORE_COMMON = 10;

export function normalizeQuery(query: string): string {
  return foldCase(query).replace(/\s+/g, " ").trim();
}

export interface SearchServiceDeps {
  engine: SearchEngine;
  catalog: CatalogRepo;
  searchLog: GroupCommit<SearchLogEntry>;
  now: () => number;
  log: Logger;
}

export class SearchService {
  constructor(private readonly d: SearchServiceDeps) {}

  async search(store: StoreRow, p: SearchParams): Promise<SearchResponse> {
    const settings = effectiveSettings(store.settings);
    const filters = toEngineFilters(p.facets);
    if (p.collection) filters.push({ kind: "terms", key: "collection", values: [p.collection] });
    const request: EngineSearchRequest = {
      text: p.query ?? "",
      matching: { typos: true, prefixLast: true },
      filters,
      // On a collection page the collection is the page itself, not a choice to offer.
      facets: p.returnFacets ? FACET_REQUEST.filter((k) => !(p.collection && k === "collection")) : [],
      rangeFacets: p.returnFacets ? [{ field: "price_min", maxBuckets: PRICE_BUCKETS }] : [],
      sort: engineSorts(p.sortBy, {
        settings,
        now: this.d.now(),
        campaignProducts: p.campaignProducts,
        shopperKey: p.sessionId ?? p.userId ?? "",
      }),
      offset: p.from,
      limit: p.pageSize,
    };
    let result = await this.d.engine.search(store.id, request);
    let usedQuery = p.query;
    let fallback = false;
    const corrections = p.query ? await this.d.engine.corrections(store.id, p.query) : [];
    if (p.query && result.total === 0) {
      const found = await this.dropWords(store.id, request, corrections);
      if (found) {
        ({ result, text: usedQuery } = found);
        fallback = true;
      }
    }
    const response: SearchResponse = {
      totalProductCount: result.total,
      products: this.hydrate(store.id, settings, result),
      fallback,
      facets: p.returnFacets ? shapeFacets(result) : [],
      spellSuggestions: p.query && p.spellEnabled ? spellSuggestions(corrections) : [],
      ...(usedQuery ? { query: usedQuery } : {}),
      ...(p.collection ? { collection: p.collection } : {}),
    };
    // Typeahead previews run on every pause in typing ("kur", "kurt"): they are not searches to learn from.
    if (!p.typeahead) this.log(store.id, p, result.total, fallback, corrections);
    return response;
  }

  private log(storeId: string, p: SearchParams, resultCount: number, fallback: boolean, corrections: WordCorrection[]): void {
    this.d.searchLog
      .add([
        {
          storeId,
          at: this.d.now(),
          query: p.query ? normalizeQuery(p.query) : null,
          collection: p.collection ?? null,
          resultCount,
          fallback,
          misspelled: corrections.some((c) => !c.known),
          userId: p.userId ?? null,
          sessionId: p.sessionId ?? null,
          preprod: p.preprod,
        },
      ])
      .catch((error: Error) => this.d.log.error("search log write failed", { error: error.message }));
  }

  /**
   * Retries without the least important words until something is found: words the store's index does not
   * know go first, then words from the end (shoppers put the main noun early: "jeans blue slim").
   */
  private async dropWords(
    storeId: string,
    request: EngineSearchRequest,
    corrections: WordCorrection[],
  ): Promise<{ result: EngineSearchResult; text: string } | null> {
    const order = corrections.map((c, i) => ({ i, unknown: !c.known && c.candidates.length === 0 }));
    order.sort((a, b) => Number(b.unknown) - Number(a.unknown) || b.i - a.i);
    const kept = new Set(corrections.map((_, i) => i));
    for (const { i } of order.slice(0, -1)) {
      kept.delete(i);
      const text = corrections.filter((_, j) => kept.has(j)).map((c) => c.word).join(" ");
      const result = await this.d.engine.search(storeId, { ...request, text });
      if (result.total > 0) return { result, text };
    }
    return null;
  }

  private hydrate(storeId: string, settings: EffectiveSettings, result: EngineSearchResult): SearchProduct[] {
    const products: SearchProduct[] = [];
    for (const hit of result.hits) {
      // The engine is written just before the catalog commits; a hit the catalog does not have yet is skipped.
      const entry = this.d.catalog.get(storeId, hit.id);
      if (!entry?.doc || entry.deleted) continue;
      products.push(
        toSearchProduct(JSON.parse(entry.doc) as Product, {
          storeId,
          currencyConversion: settings.currencyConversion,
          imageSizes: settings.imageSizes,
        }),
      );
    }
    return products;
  }
}

function shapeFacets(result: EngineSearchResult): Facet[] {
  const rank = (key: string) => {
    const i = FACET_REQUEST.findIndex((k) => (k.endsWith("*") ? key.startsWith(k.slice(0, -1)) : k === key));
    return i < 0 ? FACET_REQUEST.length : i;
  };
  const keys = Object.keys(result.facets).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1));
  const facets: Facet[] = keys.map((key) => ({
    key,
    name: facetName(key),
    values: result.facets[key]!.slice(0, MAX_FACET_VALUES).map((v) => ({ key: v.value, name: facetValueName(key, v.value), count: v.count })),
  }));
  const price = result.ranges.price_min;
  if (price?.length) {
    facets.push({
      key: PRICE_FACET,
      name: facetName(PRICE_FACET),
      values: price.map((r) => ({ key: `${r.lb}-${r.ub}`, name: `${r.lb} – ${r.ub}`, count: r.count, lb: r.lb, ub: r.ub })),
    });
  }
  return facets;
}

/**
 * Corrected queries: unknown words replaced by their best look-alike, and known words replaced when a
 * look-alike is in many more products ("shirt" for "short" is not suggested; "jeans" for "jean" is not
 * needed). The first suggestion corrects every word; the others offer second choices one word at a time.
 */
function spellSuggestions(corrections: WordCorrection[]): string[] {
  const best = corrections.map((c) => {
    const top = c.candidates[0];
    if (!top) return null;
    if (!c.known || top.docs >= Math.max(5, c.docs * MUCH_MORE_COMMON)) return top.word;
    return null;
  });
  if (best.every((b) => b === null)) return [];
  const words = corrections.map((c) => c.word);
  const out = new Set<string>([best.map((b, i) => b ?? words[i]).join(" ")]);
  corrections.forEach((c, i) => {
    const second = c.candidates[1];
    if (best[i] && second) out.add(words.map((w, j) => (j === i ? second.word : (best[j] ?? w))).join(" "));
  });
  return [...out].slice(0, 3);
}
