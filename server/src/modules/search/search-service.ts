import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { GroupCommit } from "../../platform/group-commit.ts";
import type { SearchLogEntry } from "./storage/search-log-repository.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import { normalizeQuery } from "../../text/normalize.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import { numbersOf, toEngineDocument } from "../catalog/engine-document.ts";
import type { ShapedProducts } from "../catalog/shaped-products.ts";
import { explainSearch, type SearchExplanation } from "./search-explain.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { facetPlan, shapeFacets, type Facet, type FacetValue } from "./facet-display.ts";
import { toEngineFilters } from "./facet-selection.ts";
import type { SearchParams } from "./search-params.ts";
import type { QueryFacet, SearchAnswer } from "@storefront-search/contract";
import type { QueryTerm } from "./query-understanding.ts";
import type { QueryVocabularies } from "./query-vocabulary.ts";
import type { ShopperWords } from "./shopper-words.ts";
import type { MeaningService } from "../meaning/meaning-service.ts";
import type { HybridSearch } from "../hybrid/hybrid-search.ts";
import { DEFAULT_READING, hasTimeLeft, UnderstoodQuery } from "./understood-query.ts";
import { vocabularyLocales, VOCABULARY_LOCALES, type VocabularyLocale } from "../enrichment/vocabulary.ts";
import { engineSorts } from "./sort-strategies.ts";
import { suggestableQuery } from "../suggestions/suggestable-query.ts";
import type { RerankParts, ResultReranker } from "../ranking/result-reranker.ts";
import { countPins, PinLayout, ruledRequest } from "../rules/rule-application.ts";
import type { PinChecks } from "../rules/pin-checks.ts";
import type { DraftRule, SearchRules } from "../rules/rules-service.ts";
import type { SynonymService } from "../synonyms/synonym-service.ts";

/** A search's answer before the HTTP layer joins the products' JSON; `SearchAnswer` is the rest of the wire shape. */
export interface SearchResponse extends SearchAnswer {
  /** Each a Search product's JSON, as shaped and stored (shaped-products.ts). */
  products: string[];
  fallback: boolean;
  facets: Facet[];
  spellSuggestions: string[];
  /** With explain=true (admin key): how the query was read and why each product is where it is. */
  explain?: SearchExplanation;
}

/**
 * Time one search may spend before it stops doing optional work (spell suggestions, fallback attempts) and
 * answers with what it has. A single engine step cannot be interrupted; query-limits.ts keeps each one short.
 */
export const SEARCH_BUDGET_MS = 250;
/** Explain reads fields, not rating scores: any prior does. */
const NO_PRIOR = { mean: 0, weight: 0 };

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
  /** The words the store's shoppers search with, which spelling prefers (absent: the catalog's counts alone). */
  shopperWords?: ShopperWords;
  /** What the store's words mean, learned from its own evidence: recovers a search that finds nothing (absent: none). */
  meaning?: Pick<MeaningService, "model">;
  /** Hybrid search's vectors (modules/hybrid): closeness in meaning among the first results, and recovery (absent: off). */
  hybrid?: Pick<HybridSearch, "neighbours" | "closeness">;
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
      matching: DEFAULT_MATCHING,
      filters,
      facets: facets.terms,
      rangeFacets: facets.ranges,
      sort: p.browse && !p.sortBy ? POPULAR_FIRST : engineSorts(p.sortBy, {
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
            // Not while typing: each keystroke would ask the embeddings endpoint.
            ...(this.d.hybrid && p.query && !p.typeahead ? { semantic: closenessTo(this.d.hybrid, store.id, p.query) } : {}),
          })) ?? null)
        : null;
    let window = plan?.window(page.from, page.size) ?? null;
    const pageRequest = () => {
      request.offset = window === null ? page.from : 0;
      request.limit = window ?? page.size;
    };
    pageRequest();
    const synonyms = this.d.synonyms && p.query ? await this.d.synonyms.matcher(store) : null;
    // Past the deadline: no fallback, no spelling correction, and the query is not taken as correctly spelled.
    const understood = p.query
      ? await UnderstoodQuery.read(
          this.d.engine,
          this.d.vocabularies,
          store.id,
          p.query,
          {
            locales: shopperLocales(p.language, settings.locales),
            autocorrect: p.autocorrect,
            typing: p.typeahead,
            synonyms,
            selectedKeys: new Set(p.facets.map((f) => f.key)),
            ...(this.d.shopperWords ? { shopperUses: await this.d.shopperWords.of(store.id) } : {}),
          },
          await hasTimeLeft(deadline),
        )
      : null;
    const requestFor = (kept: readonly QueryTerm[]) => (understood ? understood.requestFor(request, kept) : request);
    // Nothing found: the products nearest what the query means in this store, said as such. Before words are
    // dropped when a word the catalog cannot match is one the store's evidence knows ("liu jo": not "jo" alone);
    // after, when dropping found nothing either. Not while typing (the next keystroke may match), nor under a
    // rule's pins (the page is the rule's).
    const recovery =
      understood && !p.typeahead && !pins
        ? {
            recover: () => this.recover(store.id, understood.query, request),
            beforeDropping: understood.terms.some((t) => t.unknown) && !!this.d.meaning?.model(store.id)?.knows(understood.query),
          }
        : undefined;
    const ran = understood ? await understood.run(this.d.engine, store.id, request, () => hasTimeLeft(deadline), recovery) : null;
    let result = ran?.result ?? (await this.d.engine.search(store.id, request));
    const kept = ran?.kept ?? [];
    const fallback = ran?.fallback ?? false;
    const recovered = ran?.recovered ?? false;
    const usedQuery = understood && (fallback || understood.corrected) ? understood.searchedText(kept) : p.query;
    const queryFacets: QueryFacet[] = kept.flatMap((t) => (t.implied && t.filters.length ? [{ key: t.implied.key, values: t.implied.values, words: t.typed }] : []));
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
      facets: p.returnFacets ? markSelected(shapeFacets(result, settings.facets, { language: p.language ?? settings.locale, shownValues: settings.facetShownValues }), queryFacets) : [],
      spellSuggestions: understood && p.spellEnabled && !fallback ? understood.spellSuggestions() : [],
      ...(usedQuery ? { query: usedQuery } : {}),
      ...(understood?.corrected && !fallback ? { typedQuery: understood.typedText } : {}),
      ...(queryFacets.length ? { queryFacets } : {}),
      ...(recovered ? { recovered: true } : {}),
      ...(p.collection ? { collection: p.collection } : {}),
      ...(rules?.redirect !== undefined ? { redirect: rules.redirect } : {}),
      ...(rules?.userData.length ? { userData: rules.userData } : {}),
      ...(pinnedOnPage.length ? { pinnedProductIds: pinnedOnPage } : {}),
    };
    if (p.explain) {
      const searched = requestFor(kept);
      response.explain = explainSearch({
        terms: understood?.terms ?? [],
        kept,
        corrections: understood?.corrections ?? null,
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
    if (!p.typeahead && !p.browse && !p.explain && !draft) this.log(store.id, asked, result, fallback, understood);
    return response;
  }

  /**
   * The products nearest the query's meaning, at most RECOVERED of them, searched as a set with the request's
   * filters and facets, nearest first under relevance: by hybrid search's vectors when the store has them (a model
   * the operator chose knows the language at large), else by the meaning learned from the store's own evidence
   * (modules/meaning; each at least MIN_CLOSENESS close). Null when neither knows the query or nothing is close.
   */
  private async recover(storeId: string, query: string, request: EngineSearchRequest): Promise<EngineSearchResult | null> {
    // The vectors failing (their store unreachable) leaves the learned meaning to answer.
    const embedded = (await this.d.hybrid?.neighbours(storeId, query, RECOVERED).catch(() => [])) ?? [];
    const ids = embedded.length ? embedded : this.learnedNeighbours(storeId, query);
    if (!ids.length) return null;
    const relevance = request.sort.some((s) => s.kind === "relevance");
    const found = await this.d.engine.search(storeId, {
      ...request,
      text: "",
      matching: DEFAULT_MATCHING,
      filters: [...request.filters, { kind: "ids", ids }],
      sort: relevance ? [{ kind: "pinned", ids }, ...request.sort] : request.sort,
    });
    return found.total ? found : null;
  }

  private learnedNeighbours(storeId: string, query: string): string[] {
    const model = this.d.meaning?.model(storeId);
    const vector = model?.queryVector(query);
    return model && vector ? model.nearestProducts(vector, RECOVERED, MIN_CLOSENESS).map((n) => n.item) : [];
  }

  /** How many products searching `text` finds, read as search reads it (no filters; none when it needs words dropped): a suggestion's count. */
  async count(storeId: string, text: string): Promise<number> {
    const request: EngineSearchRequest = { text, matching: DEFAULT_MATCHING, filters: [], facets: [], rangeFacets: [], sort: [], offset: 0, limit: 0 };
    const understood = await UnderstoodQuery.read(this.d.engine, this.d.vocabularies, storeId, text, DEFAULT_READING);
    const ran = await understood.run(this.d.engine, storeId, request, async () => true);
    return ran.kept.length < understood.terms.length ? 0 : ran.result.total;
  }

  private log(storeId: string, p: SearchParams, result: EngineSearchResult, fallback: boolean, understood: UnderstoodQuery | null): void {
    const query = p.query ? normalizeQuery(p.query) : null;
    // Unchecked spelling counts as misspelled, so a rushed search never teaches suggestions a typo.
    const misspelled = !understood?.corrections || understood.corrections.some((c) => !c.known);
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

/** How close each result is to the query's meaning, for the re-rank: nothing known when the vectors fail. */
function closenessTo(hybrid: Pick<HybridSearch, "closeness">, storeId: string, query: string) {
  return (ids: readonly string[]) => hybrid.closeness(storeId, query, ids).catch(() => new Map<string, number>());
}

/** Products a recovered search holds at most, and how close each must be (cosine of the learned vectors). */
const RECOVERED = 100;
const MIN_CLOSENESS = 0.4;

/** Browsing without a query: the most bought first, then the best rated. */
const POPULAR_FIRST: EngineSearchRequest["sort"] = [
  { kind: "number", field: "purchases", order: "desc" },
  { kind: "number", field: "rating_wilson", order: "desc" },
];

/** Until a query is read (understood-query.ts sets its own): a collection page matches no text anyway. */
const DEFAULT_MATCHING = { typos: false, prefixLast: false };

/** The vocabulary locales a shopper may type in: the language they search in (when the vocabulary has it), then the store's. */
function shopperLocales(language: string | undefined, storeLocales: readonly string[]): VocabularyLocale[] {
  const own = vocabularyLocales(storeLocales)[0]!;
  const asked = language?.toLowerCase().split("-")[0];
  const theirs = (VOCABULARY_LOCALES as readonly string[]).includes(asked ?? "") ? (asked as VocabularyLocale) : own;
  return theirs === own ? [own] : [theirs, own];
}

/** The facets with the values the query's words selected marked as selected. */
function markSelected(facets: Facet[], selected: readonly QueryFacet[]): Facet[] {
  if (selected.length === 0) return facets;
  return facets.map((f) => {
    const values = selected.filter((q) => q.key === f.key).flatMap((q) => q.values);
    return values.length ? { ...f, values: (f.values as FacetValue[]).map((v): FacetValue => (values.includes(v.key) ? { ...v, selected: true } : v)) } : f;
  });
}
