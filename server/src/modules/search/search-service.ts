import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { CatalogRepo } from "../../db/catalog-repo.ts";
import type { GroupCommit } from "../../db/group-commit.ts";
import type { SearchLogEntry } from "../../db/search-log-repo.ts";
import type { StoreRow } from "../../db/stores-repo.ts";
import { foldCase } from "../../engine/text/normalize.ts";
import { MAX_QUERY_WORDS } from "../../engine/text/query-limits.ts";
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
/**
 * Time one search may spend before it stops doing optional work (spell suggestions, fallback attempts) and
 * answers with what it has. A single engine step cannot be interrupted; query-limits.ts keeps each one short.
 */
export const SEARCH_BUDGET_MS = 250;
/** Engine searches one fallback may run: one word dropped, then a binary search over how many (MAX_QUERY_WORDS need 5). */
export const MAX_FALLBACK_SEARCHES = 5;

/**
 * A query as the search log and suggestions keep it: folded, single-spaced, and only the words search matches
 * (MAX_QUERY_WORDS), so a pasted paragraph cannot become a suggestion label.
 */
export function normalizeQuery(query: string): string {
  return foldCase(query).trim().split(/\s+/, MAX_QUERY_WORDS).join(" ");
}

export interface SearchServiceDeps {
  engine: SearchEngine;
  catalog: CatalogRepo;
  searchLog: GroupCommit<SearchLogEntry>;
  now: () => number;
  log: Logger;
  /** SEARCH_BUDGET_MS unless given. */
  budgetMs?: number;
}

export class SearchService {
  constructor(private readonly d: SearchServiceDeps) {}

  async search(store: StoreRow, p: SearchParams): Promise<SearchResponse> {
    const deadline = performance.now() + (this.d.budgetMs ?? SEARCH_BUDGET_MS);
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
    // Past the deadline: no fallback, no spell suggestions, and the query is not taken as correctly spelled (null).
    const corrections = !p.query ? [] : (await hasTimeLeft(deadline)) ? await this.d.engine.corrections(store.id, p.query) : null;
    if (p.query && corrections && result.total === 0) {
      const found = await this.dropWords(store.id, request, corrections, deadline);
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
      spellSuggestions: corrections && p.spellEnabled ? spellSuggestions(corrections) : [],
      ...(usedQuery ? { query: usedQuery } : {}),
      ...(p.collection ? { collection: p.collection } : {}),
    };
    // Typeahead previews run on every pause in typing ("kur", "kurt"): they are not searches to learn from.
    if (!p.typeahead) this.log(store.id, p, result.total, fallback, corrections);
    return response;
  }

  private log(storeId: string, p: SearchParams, resultCount: number, fallback: boolean, corrections: WordCorrection[] | null): void {
    this.d.searchLog
      .add([
        {
          storeId,
          at: this.d.now(),
          query: p.query ? normalizeQuery(p.query) : null,
          collection: p.collection ?? null,
          resultCount,
          fallback,
          // Unchecked spelling counts as misspelled, so a rushed search never teaches suggestions a typo.
          misspelled: !corrections || corrections.some((c) => !c.known),
          userId: p.userId ?? null,
          sessionId: p.sessionId ?? null,
          preprod: p.preprod,
        },
      ])
      .catch((error: Error) => this.d.log.error("search log write failed", { error: error.message }));
  }

  /**
   * Retries without the least important words: words the store's index does not know go first, then words
   * from the end (shoppers put the main noun early: "jeans blue slim"). The answer keeps the most words that
   * find something. Dropping one word is tried first (the usual case: one stray word), then a binary search
   * over how many to drop, since every word must match and dropping more never finds less: at most
   * MAX_FALLBACK_SEARCHES engine searches, and none once the deadline has passed.
   */
  private async dropWords(
    storeId: string,
    request: EngineSearchRequest,
    corrections: WordCorrection[],
    deadline: number,
  ): Promise<{ result: EngineSearchResult; text: string } | null> {
    const order = corrections.map((c, i) => ({ i, unknown: !c.known && c.candidates.length === 0 }));
    order.sort((a, b) => Number(b.unknown) - Number(a.unknown) || b.i - a.i);
    const without = (dropped: number) => {
      const gone = new Set(order.slice(0, dropped).map((o) => o.i));
      return corrections.filter((_, j) => !gone.has(j)).map((c) => c.word).join(" ");
    };
    let found: { result: EngineSearchResult; text: string } | null = null;
    // Fewest words dropped that find something, between `fewest` and `most` (one word always stays).
    let fewest = 1;
    let most = corrections.length - 1;
    for (let searches = 0; fewest <= most && searches < MAX_FALLBACK_SEARCHES && (await hasTimeLeft(deadline)); searches++) {
      const dropped = searches === 0 ? fewest : (fewest + most) >> 1;
      const text = without(dropped);
      const result = await this.d.engine.search(storeId, { ...request, text });
      if (result.total > 0) {
        found = { result, text };
        most = dropped - 1;
      } else {
        fewest = dropped + 1;
      }
    }
    return found;
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

/**
 * Whether the deadline is still ahead, after letting the event loop serve what arrived meanwhile: the engine's
 * steps are synchronous, and other requests (a health check, a shopper's keystroke) wait only for one step.
 */
async function hasTimeLeft(deadline: number): Promise<boolean> {
  await yieldToEventLoop();
  return performance.now() < deadline;
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
