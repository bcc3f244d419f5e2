import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { CatalogRepository } from "../../db/catalog-repository.ts";
import type { GroupCommit } from "../../db/group-commit.ts";
import type { SearchLogEntry } from "../../db/search-log-repository.ts";
import type { StoreRow } from "../../db/stores-repository.ts";
import { foldCase } from "../../engine/text/normalize.ts";
import { MAX_QUERY_WORDS } from "../../engine/text/query-limits.ts";
import { muchMoreCommon } from "../../engine/text/typo-vocabulary.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, SearchEngine, WordCorrection } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import { numbersOf, toEngineDocument } from "../catalog/engine-document.ts";
import type { ShapedProducts } from "../catalog/shaped-products.ts";
import { explainSearch, type SearchExplanation } from "./search-explain.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { facetPlan, shapeFacets, type Facet } from "./facet-display.ts";
import { toEngineFilters } from "./facet-selection.ts";
import type { SearchParams } from "./search-params.ts";
import { dropOrder, interpretQuery, requestOf, termsText, withPreferences, type QueryTerm } from "./query-understanding.ts";
import type { QueryVocabularies } from "./query-vocabulary.ts";
import { engineSorts } from "./sort-strategies.ts";
import { suggestableQuery } from "../suggestions/suggestable-query.ts";
import type { RerankParts, ResultReranker } from "../ranking/result-reranker.ts";
import { countPins, PinLayout, ruledRequest } from "../rules/rule-application.ts";
import type { PinChecks } from "../rules/pin-checks.ts";
import type { DraftRule, SearchRules } from "../rules/rules-service.ts";
import type { SynonymService } from "../synonyms/synonym-service.ts";

export interface SearchResponse {
  totalProductCount: number;
  /** Each a Search product's JSON, as shaped and stored (shaped-products.ts): the HTTP layer joins them. */
  products: string[];
  fallback: boolean;
  facets: Facet[];
  spellSuggestions: string[];
  query?: string;
  collection?: string;
  /** With explain=true (admin key): how the query was read and why each product is where it is. */
  explain?: SearchExplanation;
  /** From the query rules that fired (modules/rules), each only when a rule gave one. */
  redirect?: string;
  userData?: Record<string, unknown>[];
  /** The products of this page that a rule pinned. */
  pinnedProductIds?: string[];
}

/**
 * Time one search may spend before it stops doing optional work (spell suggestions, fallback attempts) and
 * answers with what it has. A single engine step cannot be interrupted; query-limits.ts keeps each one short.
 */
export const SEARCH_BUDGET_MS = 250;
/** Engine searches one fallback may run: one word dropped, then a binary search over how many (MAX_QUERY_WORDS need 5). */
export const MAX_FALLBACK_SEARCHES = 5;
/** Explain reads fields, not rating scores: any prior does. */
const NO_PRIOR = { mean: 0, weight: 0 };

/**
 * A query as the search log and suggestions keep it: folded, single-spaced, and only the words search matches
 * (MAX_QUERY_WORDS), so a pasted paragraph cannot become a suggestion label.
 */
export function normalizeQuery(query: string): string {
  return foldCase(query).trim().split(/\s+/, MAX_QUERY_WORDS).join(" ");
}

export interface SearchServiceDeps {
  engine: SearchEngine;
  catalog: CatalogRepository;
  searchLog: GroupCommit<SearchLogEntry>;
  now: () => number;
  log: Logger;
  vocabularies: QueryVocabularies;
  shapes: ShapedProducts;
  /** Behaviour ranking and personalisation (absent: the engine's order). */
  reranker?: ResultReranker;
  /** SEARCH_BUDGET_MS unless given. */
  budgetMs?: number;
  /** The store's query rules (absent: none). */
  rules?: SearchRules;
  /** The rules' pin checks, kept while the store is unchanged (absent: each asks the engine). */
  pinChecks?: PinChecks;
  /** The store's synonyms, as alternatives of the query's words (absent: none). */
  synonyms?: SynonymService;
}

export class SearchService {
  constructor(private readonly d: SearchServiceDeps) {}

  /** A search; with `draft`, as if that rule were saved (a preview: not logged). */
  async search(store: StoreRow, asked: SearchParams, draft?: DraftRule): Promise<SearchResponse> {
    const deadline = performance.now() + (this.d.budgetMs ?? SEARCH_BUDGET_MS);
    const settings = effectiveSettings(store.settings);
    const rules = (await this.d.rules?.effects(store, { query: asked.query, collection: asked.collection, facets: asked.facets }, draft)) ?? null;
    // A rule's word edits change what is searched; the log keeps what the shopper typed.
    const p: SearchParams = rules?.query === undefined ? asked : { ...asked, query: rules.query || undefined };
    const filters = toEngineFilters(p.facets);
    if (p.collection) filters.push({ kind: "terms", key: "collection", values: [p.collection] });
    // On a collection page the collection is the page itself, not a choice to offer.
    const facets = p.returnFacets ? facetPlan(settings.facets, p.collection ? ["collection"] : []) : { terms: [], ranges: [] };
    const asRequested: EngineSearchRequest = {
      text: p.query ?? "",
      matching: { typos: true, prefixLast: true },
      filters,
      facets: facets.terms,
      rangeFacets: facets.ranges,
      sort: engineSorts(p.sortBy, {
        settings,
        now: this.d.now(),
        campaignProducts: p.campaignProducts,
        shopperKey: p.sessionId ?? p.userId ?? "",
      }),
      offset: p.from,
      limit: p.pageSize,
    };
    const relevance = (p.sortBy ?? "relevance") === "relevance";
    const request = rules ? ruledRequest(asRequested, rules, relevance) : asRequested;
    // Pinned products are laid over the engine's (organic) results, which leave them out.
    const pins = rules ? await PinLayout.of(this.d.pinChecks ?? this.d.engine, store.id, request, rules) : null;
    if (pins) request.filters.push({ kind: "excludeIds", ids: pins.ids });
    let page = pins?.organicPage(p.from, p.pageSize) ?? { from: p.from, size: p.pageSize };
    // Behaviour and personalisation re-rank the first results of the relevance order: the engine is asked for
    // the results a page can receive from below, and the page is cut after the re-rank.
    const plan =
      relevance
        ? ((await this.d.reranker?.plan({
            storeId: store.id,
            generation: store.createdAt,
            query: normalizeQuery(p.query ?? ""),
            behaviour: settings.behaviourRanking,
            personalisation: settings.personalisation,
            userId: p.userId ?? null,
            sessionId: p.sessionId ?? null,
          })) ?? null)
        : null;
    let window = plan?.window(page.from, page.size) ?? null;
    const pageRequest = () => {
      request.offset = window === null ? page.from : 0;
      request.limit = window ?? page.size;
    };
    pageRequest();
    // Past the deadline: no fallback, no spell suggestions, and the query is not taken as correctly spelled (null).
    const corrections = !p.query ? [] : (await hasTimeLeft(deadline)) ? await this.d.engine.corrections(store.id, p.query) : null;
    const terms = p.query ? interpretQuery(p.query, await this.d.vocabularies.of(store.id), corrections) : [];
    const synonyms = this.d.synonyms && p.query ? await this.d.synonyms.matcher(store) : null;
    const requestFor = (kept: readonly QueryTerm[]) => {
      const understood = understoodRequest(request, p.query ?? "", terms, kept);
      return synonyms ? synonyms.widen(understood) : understood;
    };
    let kept: readonly QueryTerm[] = terms;
    let result = await this.d.engine.search(store.id, requestFor(terms));
    let usedQuery = p.query;
    let fallback = false;
    if (p.query && corrections && result.total === 0 && terms.length > 1) {
      const found = await fallbackSearch(this.d.engine, store.id, terms, requestFor, deadline);
      if (found) {
        ({ result, kept } = found);
        usedQuery = termsText(kept);
        fallback = true;
      }
    }
    // A pin past the end of the results goes to the end, which can move it onto this page: the page then shows
    // fewer or earlier results, searched again only when the engine's answer does not hold them.
    const settled = pins?.organicPage(p.from, p.pageSize, result.total);
    if (settled) {
      const fetched = window === null ? page : { from: 0, size: window };
      const held = settled.from >= fetched.from && settled.from + settled.size <= fetched.from + fetched.size;
      if (held && window === null) result = { ...result, hits: result.hits.slice(settled.from - page.from, settled.from - page.from + settled.size) };
      page = settled;
      if (!held) {
        window = plan?.window(page.from, page.size) ?? null;
        pageRequest();
        result = await this.d.engine.search(store.id, requestFor(kept));
      }
    }
    let reranking: Map<string, RerankParts> | null = null;
    if (plan && window !== null) {
      const byId = new Map(result.hits.map((h) => [h.id, h]));
      const reranked = await plan.apply(result.hits.map((h) => h.id));
      reranking = reranked.parts;
      result = { ...result, hits: reranked.ids.slice(page.from, page.from + page.size).map((id) => byId.get(id)!) };
    }
    let pinnedOnPage: string[] = [];
    if (pins) {
      const laid = pins.page(p.from, p.pageSize, result.total, result.hits.map((h) => h.id));
      const byId = new Map(result.hits.map((h) => [h.id, h]));
      pinnedOnPage = laid.pinned;
      // Range buckets count the pins by their numbers, read from the catalog only when ranges are asked for.
      const numbers = request.rangeFacets.length ? await this.pinNumbers(store, pins.ids) : [];
      result = countPins({ ...result, total: result.total + pins.count, hits: laid.ids.map((id) => byId.get(id) ?? { id, score: 0 }) }, pins, numbers);
    }
    const response: SearchResponse = {
      totalProductCount: result.total,
      products: await this.d.shapes.page(store.id, settings, result.hits.map((h) => h.id)),
      fallback,
      facets: p.returnFacets ? shapeFacets(result, settings.facets, { language: p.language ?? settings.locale, shownValues: settings.facetShownValues }) : [],
      spellSuggestions: corrections && p.spellEnabled ? spellSuggestions(corrections) : [],
      ...(usedQuery ? { query: usedQuery } : {}),
      ...(p.collection ? { collection: p.collection } : {}),
      ...(rules?.redirect !== undefined ? { redirect: rules.redirect } : {}),
      ...(rules?.userData.length ? { userData: rules.userData } : {}),
      ...(pinnedOnPage.length ? { pinnedProductIds: pinnedOnPage } : {}),
    };
    if (p.explain) {
      const searched = requestFor(kept);
      response.explain = explainSearch({
        terms,
        kept,
        corrections,
        request: searched,
        result,
        documents: await this.documentsOf(store.id, result.hits.map((h) => h.id)),
        firstPosition: p.from + 1,
        reranking,
      });
      if (synonyms) response.explain.synonyms = synonyms.explain(searched.text);
      response.explain.rules = rules?.fired ?? [];
    }
    // Typeahead previews run on every pause in typing ("kur", "kurt"), and an admin's explained search is a
    // look at the ranking: neither is a search to learn from.
    if (!p.typeahead && !p.explain && !draft) this.log(store.id, asked, result, fallback, corrections);
    return response;
  }

  /** How many products searching `text` finds, read as search reads it (no filters, no fallback): a suggestion's count. */
  async count(storeId: string, text: string): Promise<number> {
    const request: EngineSearchRequest = { text, matching: { typos: true, prefixLast: true }, filters: [], facets: [], rangeFacets: [], sort: [], offset: 0, limit: 0 };
    return (await this.d.engine.search(storeId, await understoodQuery(this.d.engine, this.d.vocabularies, storeId, request))).total;
  }

  private log(storeId: string, p: SearchParams, result: EngineSearchResult, fallback: boolean, corrections: WordCorrection[] | null): void {
    const query = p.query ? normalizeQuery(p.query) : null;
    // Unchecked spelling counts as misspelled, so a rushed search never teaches suggestions a typo.
    const misspelled = !corrections || corrections.some((c) => !c.known);
    this.d.searchLog
      .add([
        {
          storeId,
          at: this.d.now(),
          query,
          collection: p.collection ?? null,
          resultCount: result.total,
          fallback,
          filtered: p.facets.length > 0 || p.collection !== undefined,
          teaches: query !== null && !p.preprod && !fallback && !misspelled && suggestableQuery(query),
          userId: p.userId ?? null,
          sessionId: p.sessionId ?? null,
          preprod: p.preprod,
          // Our answer as a shopper would have seen it first: what the preprod report compares with the store's.
          ...(p.preprod && p.from === 0 && p.facets.length === 0 && !p.collection
            ? { shadowAnswer: { total: result.total, productIds: result.hits.slice(0, 30).map((h) => h.id) } }
            : {}),
        },
      ])
      .catch((error: Error) => this.d.log.error("search log write failed", { error: error.message }));
  }

  /** Products' engine documents as the catalog has them now: what explain reads a product's fields from. */
  private async documentsOf(storeId: string, ids: readonly string[]): Promise<Map<string, EngineDocument>> {
    const live = await this.d.catalog.liveDocs(storeId, ids);
    const docs = new Map<string, EngineDocument>();
    for (const id of ids) {
      const doc = live.get(id);
      if (doc) docs.set(id, toEngineDocument(JSON.parse(doc) as Product, 0, { ratingPrior: NO_PRIOR, purchases: 0 }));
    }
    return docs;
  }

  /** The numbers (price_min…) of the pinned products the catalog still has, as it has them now. */
  private async pinNumbers(store: StoreRow, ids: readonly string[]): Promise<Record<string, number>[]> {
    const out: Record<string, number>[] = [];
    for (const id of ids) {
      const read = async () => {
        const doc = await this.liveDoc(store.id, id);
        return doc ? numbersOf(JSON.parse(doc) as Product, { ratingPrior: NO_PRIOR, purchases: 0 }) : null;
      };
      const numbers = this.d.pinChecks ? await this.d.pinChecks.numbers(store, id, read) : await read();
      if (numbers) out.push(numbers);
    }
    return out;
  }

  /** A product's document as the catalog has it; null when it is deleted or not committed yet (the engine is written first). */
  private async liveDoc(storeId: string, id: string): Promise<string | null> {
    const entry = await this.d.catalog.get(storeId, id);
    return entry?.doc && !entry.deleted ? entry.doc : null;
  }
}

/** `base`'s text read as search reads it when time is not short (its spelling checked), and the request for any of its terms. */
async function understanding(engine: SearchEngine, vocabularies: QueryVocabularies, storeId: string, base: EngineSearchRequest) {
  const terms = interpretQuery(base.text, await vocabularies.of(storeId), await engine.corrections(storeId, base.text));
  return { terms, requestFor: (kept: readonly QueryTerm[]) => understoodRequest(base, base.text, terms, kept) };
}

/** `base` as search sends it when no term is dropped and time is not short: what a suggestion's count asks the engine. */
export async function understoodQuery(
  engine: SearchEngine,
  vocabularies: QueryVocabularies,
  storeId: string,
  base: EngineSearchRequest,
): Promise<EngineSearchRequest> {
  const { terms, requestFor } = await understanding(engine, vocabularies, storeId, base);
  return requestFor(terms);
}

/**
 * The engine's searches for `base` as search makes them when time is not short: the understood query, then, when
 * it finds nothing, the fallback's (fallbackSearch). What the search bench's engine-only figure asks the engine.
 */
export async function understoodSearch(
  engine: SearchEngine,
  vocabularies: QueryVocabularies,
  storeId: string,
  base: EngineSearchRequest,
): Promise<EngineSearchResult> {
  const { terms, requestFor } = await understanding(engine, vocabularies, storeId, base);
  const result = await engine.search(storeId, requestFor(terms));
  if (!base.text || result.total > 0 || terms.length < 2) return result;
  return (await fallbackSearch(engine, storeId, terms, requestFor, Infinity))?.result ?? result;
}

/**
 * Retries without the least informative terms (dropOrder: unknown and plain words first, the product type
 * last). The answer keeps the most terms that find something. Dropping one term is tried first (the usual case:
 * one stray word), then a binary search over how many to drop, since dropping more never finds less: at most
 * MAX_FALLBACK_SEARCHES engine searches, and none once the deadline has passed. (Tries that only count, with the
 * full search once at the end, measured no faster: a broad try's matching costs about what its facets do.)
 */
export async function fallbackSearch(
  engine: SearchEngine,
  storeId: string,
  terms: readonly QueryTerm[],
  requestFor: (kept: readonly QueryTerm[]) => EngineSearchRequest,
  deadline: number,
): Promise<{ result: EngineSearchResult; kept: readonly QueryTerm[] } | null> {
  const order = dropOrder(terms);
  const without = (dropped: number) => {
    const gone = new Set(order.slice(0, dropped));
    return terms.filter((_, j) => !gone.has(j));
  };
  let found: { result: EngineSearchResult; kept: readonly QueryTerm[] } | null = null;
  // Fewest terms dropped that find something, between `fewest` and `most` (one term always stays).
  let fewest = 1;
  let most = terms.length - 1;
  for (let searches = 0; fewest <= most && searches < MAX_FALLBACK_SEARCHES && (await hasTimeLeft(deadline)); searches++) {
    const dropped = searches === 0 ? fewest : (fewest + most) >> 1;
    const kept = without(dropped);
    const result = await engine.search(storeId, requestFor(kept));
    if (result.total > 0) {
      found = { result, kept };
      most = dropped - 1;
    } else {
      fewest = dropped + 1;
    }
  }
  return found;
}

/** `base` with the query's kept terms: their text, filters, and preferences before relevance. */
function understoodRequest(base: EngineSearchRequest, query: string, terms: readonly QueryTerm[], kept: readonly QueryTerm[]): EngineSearchRequest {
  const understood = requestOf(kept);
  // Nothing understood: the query goes as typed (an id such as "SKU-7781-A" matches only whole).
  const plain = kept === terms && terms.every((t) => t.role === "word");
  return {
    ...base,
    text: plain ? query : understood.text,
    filters: [...base.filters, ...understood.filters],
    sort: withPreferences(base.sort, understood.prefer),
  };
}

/**
 * Whether the deadline is still ahead, after letting the event loop serve what arrived meanwhile: the engine's
 * steps are synchronous, and other requests (a health check, a shopper's keystroke) wait only for one step.
 */
async function hasTimeLeft(deadline: number): Promise<boolean> {
  await yieldToEventLoop();
  return performance.now() < deadline;
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
    if (!c.known || muchMoreCommon(top.docs, c.docs)) return top.word;
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
