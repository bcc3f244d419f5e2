import { SEARCH_BUDGET_MS } from "../../config.ts";
import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { SearchLogSink } from "../search-log/typing-coalescer.ts";
import type { StoreRow } from "../stores/storage/stores-repository.ts";
import { normalizeQuery } from "../../text/normalize.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { Product } from "../catalog/product-schema.ts";
import { numbersOf, toEngineDocument } from "../catalog/engine-document.ts";
import type { ShapedProducts } from "../catalog/shaped-products.ts";
import { explainSearch, type SearchExplanation } from "./search-explain.ts";
import { effectiveSettings } from "../settings/settings-schema.ts";
import { inVariant } from "../settings/shopper-variant.ts";
import { facetPlan, shapeFacets, type Facet, type FacetValue } from "../facets/facet-display.ts";
import { toEngineFilters } from "../facets/facet-selection.ts";
import { isShopperSearch, type SearchParams } from "./search-params.ts";
import { INTERLEAVED_VARIANT, type QueryFacet, type SearchAnswer } from "@storefront-search/contract";
import type { QueryTerm } from "./query-understanding.ts";
import type { QueryVocabularies } from "./query-vocabulary.ts";
import type { ShopperWords } from "./shopper-words.ts";
import type { MeaningService } from "../meaning/meaning-service.ts";
import type { HybridSearch } from "../hybrid/hybrid-search.ts";
import { DEFAULT_READING, hasTimeLeft, UnderstoodQuery } from "./understood-query.ts";
import { vocabularyLocales, VOCABULARY_LOCALES, type VocabularyLocale } from "../enrichment/vocabulary.ts";
import { engineSorts } from "./sort-strategies.ts";
import { suggestableQuery } from "../search-log/suggestable-query.ts";
import type { RerankParts, ResultReranker } from "../ranking/result-reranker.ts";
import { countPins, PinLayout, ruledRequest } from "../rules/rule-application.ts";
import type { PinChecks } from "../rules/pin-checks.ts";
import type { DraftRule, SearchRules } from "../rules/rules-service.ts";
import type { SynonymService } from "../synonyms/synonym-service.ts";
import type { RunningExperiments, ShopperExperiment, VariantPlan } from "../experiments/running-experiments.ts";
import { draftCoin, teamDraft } from "../experiments/interleaving.ts";

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

/** Results an interleaved list drafts from both rankings at most: the first pages a shopper sees. */
const INTERLEAVED_DEPTH = 100;
/** Explain reads fields, not rating scores: any prior does. */
const NO_PRIOR = { mean: 0, weight: 0 };

export interface SearchServiceDeps {
  engine: SearchEngine;
  catalog: CatalogRepository;
  searchLog: SearchLogSink;
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
  /** The store's running experiments: the shopper's variant changes settings, rules and synonyms (absent: none). */
  experiments?: Pick<RunningExperiments, "of">;
}

type RuleEffects = NonNullable<Awaited<ReturnType<SearchRules["effects"]>>>;
type RerankPlan = NonNullable<Awaited<ReturnType<ResultReranker["plan"]>>>;
type SynonymMatcher = Awaited<ReturnType<SynonymService["matcher"]>>;
type PinnedLayout = NonNullable<Awaited<ReturnType<typeof PinLayout.of>>>;

export class SearchService {
  constructor(private readonly d: SearchServiceDeps) {}

  /**
   * A search; with `draft`, as if that rule were saved (a preview: not logged). It goes through its stages in
   * order, each reading what the ones before it left (SearchRun).
   */
  async search(store: StoreRow, asked: SearchParams, draft?: DraftRule): Promise<SearchResponse> {
    // A rule's preview shows the store's own behaviour with the draft, whoever the shopper named.
    const experiment = draft ? null : ((await this.d.experiments?.of(store, asked)) ?? null);
    if (experiment?.mode === "interleaving") return this.interleaved(store, asked, experiment);
    const run = await this.run(store, asked, draft, experiment?.plan);
    const response = await run.shape();
    this.logged(run, asked, draft);
    return experiment?.variant ? { ...response, experiment: { id: experiment.id, variant: experiment.variant } } : response;
  }

  private async run(store: StoreRow, asked: SearchParams, draft?: DraftRule, plan?: VariantPlan): Promise<SearchRun> {
    const run = new SearchRun(this.d, inVariant(store, plan), asked, draft, plan?.withheld);
    await run.applyRules();
    await run.planRerank();
    await run.understand();
    await run.runEngine();
    await run.rerank();
    await run.layPins();
    return run;
  }

  private logged(run: SearchRun, asked: SearchParams, draft?: DraftRule): void {
    // Typeahead previews run on every pause in typing ("kur", "kurt"), an admin's explained search is a look at
    // the ranking, and a UI's facet counts are not a shopper's query: none is a search to learn from.
    if (isShopperSearch(asked) && !draft) run.log();
  }

  /**
   * Team-draft interleaving: both variants' rankings searched to the end of the asked page and drafted into one
   * list, each product naming the ranking that placed it. Past INTERLEAVED_DEPTH the first ranking's page alone is
   * shown, unattributed: shoppers rarely page that deep, and drafting it would search both rankings that deep.
   * Facets and the total are the first ranking's.
   */
  private async interleaved(
    store: StoreRow,
    asked: SearchParams,
    e: Extract<ShopperExperiment, { mode: "interleaving" }>,
  ): Promise<SearchResponse> {
    const depth = asked.from + asked.pageSize;
    if (depth > INTERLEAVED_DEPTH || asked.pageSize === 0) {
      const run = await this.run(store, asked, undefined, e.plans[0]);
      this.logged(run, asked);
      return { ...(await run.shape()), experiment: { id: e.id, variant: INTERLEAVED_VARIANT } };
    }
    const whole = { ...asked, from: 0, pageSize: depth };
    const [a, b] = await Promise.all([this.run(store, whole, undefined, e.plans[0]), this.run(store, whole, undefined, e.plans[1])]);
    const [shapedA, shapedB] = await Promise.all([a.shape(), b.shape()]);
    const json = new Map<string, string>();
    b.ids().forEach((id, i) => json.set(id, shapedB.products[i]!));
    a.ids().forEach((id, i) => json.set(id, shapedA.products[i]!));
    const page = teamDraft(a.ids(), b.ids(), draftCoin(e.id, e.shopper, asked.query ?? asked.collection ?? ""), depth).slice(asked.from);
    this.logged(a, asked);
    return {
      ...shapedA,
      products: page.map((p) => json.get(p.id)!),
      experiment: { id: e.id, variant: INTERLEAVED_VARIANT, interleavedFrom: Object.fromEntries(page.map((p) => [p.id, p.team])) },
    };
  }

  /** How many products searching `text` finds, read as search reads it (no filters; none when it needs words dropped): a suggestion's count. */
  async count(storeId: string, text: string): Promise<number> {
    const request: EngineSearchRequest = {
      text,
      matching: DEFAULT_MATCHING,
      filters: [],
      facets: [],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 0,
    };
    const understood = await UnderstoodQuery.read(this.d.engine, this.d.vocabularies, storeId, text, DEFAULT_READING);
    const ran = await understood.run(this.d.engine, storeId, request, async () => true);
    return ran.kept.length < understood.terms.length ? 0 : ran.result.total;
  }
}

/**
 * One search, stage by stage: the store's query rules (word edits, filters, boosts, pins), the re-rank's plan (how
 * many results behaviour and personalisation may reorder), reading the query (spelling, implied facets, synonyms),
 * the engine (with dropped words and recovery when nothing matches), the re-rank, the pins laid over the page, the
 * answer's shape, and the search log.
 */
class SearchRun {
  private readonly deadline: number;
  private readonly settings: ReturnType<typeof effectiveSettings>;
  /** What the search is after the rules: the shopper's params with a rule's word edits. */
  private p: SearchParams;
  private rules: RuleEffects | null = null;
  private relevance = true;
  private request!: EngineSearchRequest;
  private pins: PinnedLayout | null = null;
  /** The page of organic (unpinned) results to show. */
  private page: { from: number; size: number };
  private plan: RerankPlan | null = null;
  /** How many of the first results the engine is asked for so that the re-rank can fill the page; null: just the page. */
  private window: number | null = null;
  private synonyms: SynonymMatcher | null = null;
  private understood: UnderstoodQuery | null = null;
  private kept: readonly QueryTerm[] = [];
  private fallback = false;
  private recovered = false;
  private queryFacets: QueryFacet[] = [];
  private result!: EngineSearchResult;
  private reranking: Map<string, RerankParts> | null = null;
  private pinnedOnPage: string[] = [];

  constructor(
    private readonly d: SearchServiceDeps,
    private readonly store: StoreRow,
    private readonly asked: SearchParams,
    private readonly draft?: DraftRule,
    /** What the shopper's experiment variant holds back (none: the store's rules and sets all apply). */
    private readonly withheld?: VariantPlan["withheld"],
  ) {
    this.deadline = performance.now() + (d.budgetMs ?? SEARCH_BUDGET_MS);
    this.settings = effectiveSettings(store.settings);
    this.p = asked;
    this.page = { from: asked.from, size: asked.pageSize };
  }

  /** The engine request for the search as asked, with the store's rules applied, and the pins they lay. */
  async applyRules(): Promise<void> {
    const { d, store, asked, settings } = this;
    const rules = (this.rules =
      (await d.rules?.effects(
        store,
        { query: asked.query, collection: asked.collection, facets: asked.facets, withheld: this.withheld?.rules },
        this.draft,
      )) ?? null);
    // A rule's word edits change what is searched; the log keeps what the shopper typed.
    const p = (this.p = rules?.query === undefined ? asked : { ...asked, query: rules.query || undefined });
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
      sort:
        p.browse && !p.sortBy
          ? POPULAR_FIRST
          : engineSorts(p.sortBy, {
              settings,
              now: d.now(),
              campaignProducts: p.campaignProducts,
              shopperKey: p.sessionId ?? p.userId ?? "",
            }),
      offset: p.from,
      limit: p.pageSize,
    };
    this.relevance = (p.sortBy ?? "relevance") === "relevance";
    this.request = rules ? ruledRequest(asRequested, rules, this.relevance) : asRequested;
    // Pinned products are laid over the engine's (organic) results, which leave them out.
    this.pins = rules ? await PinLayout.of(d.pinChecks ?? d.engine, store.id, this.request, rules) : null;
    if (this.pins) this.request.filters.push({ kind: "excludeIds", ids: this.pins.ids });
    this.page = this.pins?.organicPage(p.from, p.pageSize) ?? { from: p.from, size: p.pageSize };
  }

  /**
   * Behaviour and personalisation re-rank the first results of the relevance order: the engine is asked for the
   * results a page can receive from below, and the page is cut after the re-rank.
   */
  async planRerank(): Promise<void> {
    const { d, store, p, settings } = this;
    this.plan = this.relevance
      ? ((await d.reranker?.plan({
          storeId: store.id,
          generation: store.createdAt,
          query: normalizeQuery(p.query ?? ""),
          behaviour: settings.behaviourRanking,
          personalisation: settings.personalisation,
          userId: p.userId ?? null,
          sessionId: p.sessionId ?? null,
          // Not while typing: each keystroke would ask the embeddings endpoint.
          ...(d.hybrid && p.query && !p.typeahead ? { semantic: closenessTo(d.hybrid, store.id, p.query) } : {}),
        })) ?? null)
      : null;
    this.window = this.plan?.window(this.page.from, this.page.size) ?? null;
    this.pageRequest();
  }

  /** How the query reads in this store: its words, their spelling, the facets they imply, their synonyms. */
  async understand(): Promise<void> {
    const { d, store, p, settings } = this;
    const matcher = d.synonyms && p.query ? await d.synonyms.matcher(store) : null;
    this.synonyms = matcher && this.withheld ? matcher.without(this.withheld.synonymSets) : matcher;
    // Past the deadline: no fallback, no spelling correction, and the query is not taken as correctly spelled.
    this.understood = p.query
      ? await UnderstoodQuery.read(
          d.engine,
          d.vocabularies,
          store.id,
          p.query,
          {
            locales: shopperLocales(p.language, settings.locales),
            autocorrect: p.autocorrect,
            typing: p.typeahead,
            synonyms: this.synonyms,
            // Excluding a value chooses none: what the words imply on that key still holds.
            selectedKeys: new Set(p.facets.filter((f) => !f.exclude).map((f) => f.key)),
            ...(d.shopperWords ? { shopperUses: await d.shopperWords.of(store.id) } : {}),
          },
          await hasTimeLeft(this.deadline),
        )
      : null;
  }

  /** The engine's results: with words dropped when all of them find nothing, or recovered by meaning. */
  async runEngine(): Promise<void> {
    const { d, store, p, understood } = this;
    // Nothing found: the products nearest what the query means in this store, said as such. Before words are
    // dropped when a word the catalog cannot match is one the store's evidence knows ("liu jo": not "jo" alone);
    // after, when dropping found nothing either. Not while typing (the next keystroke may match), nor under a
    // rule's pins (the page is the rule's).
    const recovery =
      understood && !p.typeahead && !this.pins
        ? {
            recover: () => this.recover(understood.query),
            beforeDropping: understood.terms.some((t) => t.unknown) && !!d.meaning?.model(store.id)?.knows(understood.query),
          }
        : undefined;
    const ran = understood ? await understood.run(d.engine, store.id, this.request, () => hasTimeLeft(this.deadline), recovery) : null;
    this.result = ran?.result ?? (await d.engine.search(store.id, this.request));
    this.kept = ran?.kept ?? [];
    this.fallback = ran?.fallback ?? false;
    this.recovered = ran?.recovered ?? false;
    this.queryFacets = this.kept.flatMap((t) =>
      t.implied && t.filters.length ? [{ key: t.implied.key, values: t.implied.values, words: t.typed }] : [],
    );
    // A pin past the end of the results goes to the end, which can move it onto this page: the page then shows
    // fewer or earlier results, searched again only when the engine's answer does not hold them.
    const settled = this.pins?.organicPage(p.from, p.pageSize, this.result.total);
    if (settled) {
      const page = this.page;
      const fetched = this.window === null ? page : { from: 0, size: this.window };
      const held = settled.from >= fetched.from && settled.from + settled.size <= fetched.from + fetched.size;
      if (held && this.window === null)
        this.result = { ...this.result, hits: this.result.hits.slice(settled.from - page.from, settled.from - page.from + settled.size) };
      this.page = settled;
      if (!held) {
        this.window = this.plan?.window(settled.from, settled.size) ?? null;
        this.pageRequest();
        this.result = await d.engine.search(store.id, this.searched());
      }
    }
  }

  /** Behaviour and personalisation reorder the window, and the page is cut from it. */
  async rerank(): Promise<void> {
    if (!this.plan || this.window === null) return;
    const byId = new Map(this.result.hits.map((h) => [h.id, h]));
    const reranked = await this.plan.apply(this.result.hits.map((h) => h.id));
    this.reranking = reranked.parts;
    this.result = { ...this.result, hits: reranked.ids.slice(this.page.from, this.page.from + this.page.size).map((id) => byId.get(id)!) };
  }

  /** A rule's pinned products laid over the page, and counted in the total and the facets. */
  async layPins(): Promise<void> {
    const { pins, p } = this;
    if (!pins) return;
    const laid = pins.page(
      p.from,
      p.pageSize,
      this.result.total,
      this.result.hits.map((h) => h.id),
    );
    const byId = new Map(this.result.hits.map((h) => [h.id, h]));
    this.pinnedOnPage = laid.pinned;
    // Range buckets count the pins by their numbers, read from the catalog only when ranges are asked for.
    const numbers = this.request.rangeFacets.length ? await this.pinNumbers(pins.ids) : [];
    this.result = countPins(
      { ...this.result, total: this.result.total + pins.count, hits: laid.ids.map((id) => byId.get(id) ?? { id, score: 0 }) },
      pins,
      numbers,
    );
  }

  /** The answer: the page's products as stored, the facets, what the query was read as, and explain when asked. */
  async shape(): Promise<SearchResponse> {
    const { d, store, p, settings, understood, fallback, kept, result, rules, queryFacets } = this;
    const usedQuery = understood && (fallback || understood.corrected) ? understood.searchedText(kept) : p.query;
    const response: SearchResponse = {
      totalProductCount: result.total,
      products: await d.shapes.page(
        store.id,
        settings,
        result.hits.map((h) => h.id),
      ),
      fallback,
      facets: p.returnFacets
        ? markSelected(
            shapeFacets(result, settings.facets, { language: p.language ?? settings.locale, shownValues: settings.facetShownValues }),
            queryFacets,
          )
        : [],
      spellSuggestions: understood && p.spellEnabled && !fallback ? understood.spellSuggestions() : [],
      ...(usedQuery ? { query: usedQuery } : {}),
      ...(understood?.corrected && !fallback ? { typedQuery: understood.typedText } : {}),
      ...(queryFacets.length ? { queryFacets } : {}),
      ...(this.recovered ? { recovered: true } : {}),
      ...(p.collection ? { collection: p.collection } : {}),
      ...(rules?.redirect !== undefined ? { redirect: rules.redirect } : {}),
      ...(rules?.userData.length ? { userData: rules.userData } : {}),
      ...(this.pinnedOnPage.length ? { pinnedProductIds: this.pinnedOnPage } : {}),
    };
    if (p.explain) {
      const searched = this.searched();
      response.explain = explainSearch({
        terms: understood?.terms ?? [],
        kept,
        corrections: understood?.corrections ?? null,
        request: searched,
        result,
        documents: await this.documentsOf(result.hits.map((h) => h.id)),
        firstPosition: p.from + 1,
        reranking: this.reranking,
      });
      if (this.synonyms) response.explain.synonyms = this.synonyms.explain(searched.text);
      response.explain.rules = rules?.fired ?? [];
    }
    return response;
  }

  /** The search as the shopper asked it (their words, not a rule's edits), for suggestions and reports. */
  log(): void {
    const { d, store, asked: p, result, fallback, understood } = this;
    const query = p.query ? normalizeQuery(p.query) : null;
    // Unchecked spelling counts as misspelled, so a rushed search never teaches suggestions a typo.
    const misspelled = !understood?.corrections || understood.corrections.some((c) => !c.known);
    d.searchLog
      .add([
        {
          storeId: store.id,
          at: d.now(),
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
      .catch((error: Error) => d.log.error("search log write failed", { error: error.message }));
  }

  /** The answer's products' ids, in its order. */
  ids(): string[] {
    return this.result.hits.map((h) => h.id);
  }

  private pageRequest(): void {
    this.request.offset = this.window === null ? this.page.from : 0;
    this.request.limit = this.window ?? this.page.size;
  }

  /** The request as the engine ran it: with the words the understanding kept. */
  private searched(): EngineSearchRequest {
    return this.understood ? this.understood.requestFor(this.request, this.kept) : this.request;
  }

  /**
   * The products nearest the query's meaning, at most RECOVERED of them, searched as a set with the request's
   * filters and facets, nearest first under relevance: by hybrid search's vectors when the store has them (a model
   * the operator chose knows the language at large), else by the meaning learned from the store's own evidence
   * (modules/meaning; each at least MIN_CLOSENESS close). Null when neither knows the query or nothing is close.
   */
  private async recover(query: string): Promise<EngineSearchResult | null> {
    const { d, store, request } = this;
    // The vectors failing (their store unreachable) leaves the learned meaning to answer.
    const embedded = (await d.hybrid?.neighbours(store.id, query, RECOVERED).catch(() => [])) ?? [];
    const ids = embedded.length ? embedded : this.learnedNeighbours(query);
    if (!ids.length) return null;
    const relevance = request.sort.some((s) => s.kind === "relevance");
    const found = await d.engine.search(store.id, {
      ...request,
      text: "",
      matching: DEFAULT_MATCHING,
      filters: [...request.filters, { kind: "ids", ids }],
      sort: relevance ? [{ kind: "pinned", ids }, ...request.sort] : request.sort,
    });
    return found.total ? found : null;
  }

  private learnedNeighbours(query: string): string[] {
    const model = this.d.meaning?.model(this.store.id);
    const vector = model?.queryVector(query);
    return model && vector ? model.nearestProducts(vector, RECOVERED, MIN_CLOSENESS).map((n) => n.item) : [];
  }

  /** Products' engine documents as the catalog has them now: what explain reads a product's fields from. */
  private async documentsOf(ids: readonly string[]): Promise<Map<string, EngineDocument>> {
    const live = await this.d.catalog.liveDocs(this.store.id, ids);
    const docs = new Map<string, EngineDocument>();
    for (const id of ids) {
      const doc = live.get(id);
      if (doc) docs.set(id, toEngineDocument(JSON.parse(doc) as Product, 0, { ratingPrior: NO_PRIOR, purchases: 0 }));
    }
    return docs;
  }

  /** The numbers (price_min…) of the pinned products the catalog still has, as it has them now. */
  private async pinNumbers(ids: readonly string[]): Promise<Record<string, number>[]> {
    const { d, store } = this;
    const out: Record<string, number>[] = [];
    for (const id of ids) {
      const read = async () => {
        const doc = await this.liveDoc(id);
        return doc ? numbersOf(JSON.parse(doc) as Product, { ratingPrior: NO_PRIOR, purchases: 0 }) : null;
      };
      const numbers = d.pinChecks ? await d.pinChecks.numbers(store, id, read) : await read();
      if (numbers) out.push(numbers);
    }
    return out;
  }

  /** A product's document as the catalog has it; null when it is deleted or not committed yet (the engine is written first). */
  private async liveDoc(id: string): Promise<string | null> {
    const entry = await this.d.catalog.get(this.store.id, id);
    return entry?.doc && !entry.deleted ? entry.doc : null;
  }
}

/** The store as a variant's shoppers see it: its settings with the variant's over them. */
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
    return values.length
      ? { ...f, values: (f.values as FacetValue[]).map((v): FacetValue => (values.includes(v.key) ? { ...v, selected: true } : v)) }
      : f;
  });
}
