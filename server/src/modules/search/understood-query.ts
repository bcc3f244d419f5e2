import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { EngineSearchRequest, EngineSearchResult, SearchEngine, TextAlternative, WordCorrection } from "../../engine/types.ts";
import type { VocabularyLocale } from "../enrichment/vocabulary.ts";
import type { SynonymMatcher } from "../synonyms/synonym-matcher.ts";
import { cheapBand, readPricePhrases } from "./price-phrases.ts";
import {
  completesRather,
  dropOrder,
  interpretQuery,
  meaningfulWords,
  requestOf,
  termsText,
  typeAsPreference,
  typedText,
  withPreferences,
  withPriceBound,
  type QueryTerm,
  type UnderstandingContext,
} from "./query-understanding.ts";
import type { QueryVocabularies } from "./query-vocabulary.ts";

/*
 * A query as search reads and runs it: the engine's spelling report and the store's vocabulary make the terms
 * (query-understanding.ts), the terms make the engine request, and when that finds too little the fallbacks run:
 * a product type that finds fewer than MIN_TYPE_RESULTS products ranks first instead of narrowing, and a query
 * that finds nothing drops its least informative terms (fallbackSearch). The search service, suggestion counts and
 * the search bench all read a query through here, so they agree on what it finds.
 *
 * Matching is precise by default: no typo matching in the engine (a misspelt word is replaced by its one best
 * correction, which the answer says), and a word completes as a prefix only while the shopper is typing (the
 * typeahead) or when it is the query's last word, unknown to the catalog, and the start of some word it has.
 */

/** Engine searches one fallback may run: one word dropped, then a binary search over how many (MAX_QUERY_WORDS need 5). */
export const MAX_FALLBACK_SEARCHES = 5;
/** Fewer products of the named type than this and the type ranks first instead of narrowing. */
export const MIN_TYPE_RESULTS = 3;
/** Price ranges "cheap" is worked out from. */
const CHEAP_BUCKETS = 20;

export interface ReadingOptions {
  /** Locales whose words the shopper may type: their language and the store's own. */
  locales: readonly VocabularyLocale[];
  /** False: misspelt words are searched as typed. */
  autocorrect: boolean;
  /** The shopper is still typing the last word (typeahead): it always completes as a prefix. */
  typing: boolean;
  synonyms: SynonymMatcher | null;
  /** Facet keys the shopper selected: a selection the query's words imply on the same key steps aside for theirs. */
  selectedKeys: ReadonlySet<string>;
  shopperUses?: (word: string) => number;
}

/** How a search that finds nothing is answered by the query's meaning (SearchService.recover). */
export interface Recovery {
  recover(): Promise<EngineSearchResult | null>;
  /** Try it before dropping words, not only after (a word the catalog cannot match is one the evidence knows). */
  beforeDropping: boolean;
}

export interface RanSearch {
  result: EngineSearchResult;
  kept: readonly QueryTerm[];
  /** The answer is not the query's as read: a type widened, terms dropped, or its meaning recovered. */
  fallback: boolean;
  /** The products nearest the query's meaning, not matches of its words (SearchService's recovery). */
  recovered?: boolean;
}

export class UnderstoodQuery {
  readonly terms: QueryTerm[];

  private constructor(
    readonly query: string,
    private readonly context: UnderstandingContext,
    private readonly options: ReadingOptions,
  ) {
    this.terms = interpretQuery(query, context);
    // A selection the shopper made on a facet replaces what the words imply on it ("men's watch", then "Women").
    for (const t of this.terms) {
      if (!t.implied || !options.selectedKeys.has(t.implied.key)) continue;
      t.filters = t.filters.filter((f) => f.kind !== "terms" || !options.selectedKeys.has(f.key));
      delete t.implied;
    }
  }

  /** Null when time ran short before spelling was checked: nothing is corrected, and the engine matches typos. */
  get corrections(): readonly WordCorrection[] | null {
    return this.context.corrections;
  }

  /** Reads `query`; with `checkSpelling` false (time ran short) the words go as typed, with the engine's typo matching. */
  static async read(
    engine: SearchEngine,
    vocabularies: QueryVocabularies,
    storeId: string,
    query: string,
    options: ReadingOptions,
    checkSpelling = true,
  ): Promise<UnderstoodQuery> {
    const corrections = checkSpelling ? await engine.corrections(storeId, readPricePhrases(query).rest) : null;
    const synonymTokens = new Set((options.synonyms?.match(query) ?? []).flatMap((m) => m.alternative.words));
    const context: UnderstandingContext = {
      vocabulary: await vocabularies.of(storeId),
      corrections,
      locales: options.locales,
      synonymTokens,
      autocorrect: options.autocorrect,
      ...(options.shopperUses ? { shopperUses: options.shopperUses } : {}),
    };
    return new UnderstoodQuery(query, context, options);
  }

  /** Whether the words searched are the shopper's corrected ones. */
  get corrected(): boolean {
    return this.terms.some((t) => t.corrected);
  }

  /** The query as searched with `kept` (its corrections), and as typed: what the answer reports. */
  searchedText(kept: readonly QueryTerm[]): string {
    return termsText(kept);
  }

  get typedText(): string {
    return typedText(this.terms);
  }

  /**
   * "Did you mean" queries: only when misspelt words were searched as typed (autocorrect off); a correction that was
   * applied is reported as `typedQuery` instead, and a query whose words the catalog has, or a synonym covers, has none.
   */
  spellSuggestions(): string[] {
    if (this.options.autocorrect || !this.corrections) return [];
    const corrected = interpretQuery(this.query, { ...this.context, autocorrect: true });
    return corrected.some((t) => t.corrected) ? [termsText(corrected)] : [];
  }

  /** Whether the last word completes as a prefix: while typing, or a word the catalog only has longer ones of. */
  private completesLast(kept: readonly QueryTerm[]): boolean {
    if (this.options.typing) return true;
    const last = kept.filter((t) => t.matched).at(-1);
    if (!last || last.corrected || this.corrections === null) return false;
    const words = last.text.split(" ");
    const report = this.corrections.find((c) => c.word === words.at(-1));
    return report !== undefined && !report.known && completesRather(report);
  }

  /** `base` with `kept`'s text, filters, preferences and alternatives (the store's synonyms among them). */
  requestFor(base: EngineSearchRequest, kept: readonly QueryTerm[] = this.terms): EngineSearchRequest {
    const understood = requestOf(kept);
    // Nothing understood: the query goes as typed (an id such as "SKU-7781-A" matches only whole).
    const plain = kept === this.terms && kept.every((t) => t.role === "word" && !t.corrected && t.alternatives.length === 0 && t.matched);
    const text = plain ? this.query : understood.text;
    const alternatives: TextAlternative[] = [
      ...(this.options.synonyms?.match(text).map((m) => m.alternative) ?? []),
      ...understood.alternatives,
    ];
    return {
      ...base,
      text,
      matching: { typos: this.corrections === null, prefixLast: this.completesLast(kept) },
      filters: [...base.filters, ...understood.filters],
      sort: withPreferences(base.sort, understood.prefer),
      ...(alternatives.length ? { alternatives } : {}),
    };
  }

  /**
   * The terms ready to search: "cheap" becomes the lower price band of what the other terms find (one count of
   * their prices), or is left out when they find no prices.
   */
  async settled(engine: SearchEngine, storeId: string, base: EngineSearchRequest): Promise<readonly QueryTerm[]> {
    const at = this.terms.findIndex((t) => t.cheap);
    if (at < 0) return this.terms;
    const others = this.terms.filter((_, i) => i !== at);
    const prices = await engine.search(storeId, {
      ...this.requestFor(base, others),
      facets: [],
      rangeFacets: [{ field: "price_min", maxBuckets: CHEAP_BUCKETS }],
      offset: 0,
      limit: 0,
    });
    const band = cheapBand(prices.ranges.price_min ?? []);
    const cheap = this.terms[at]!;
    return this.terms.map((t, i) =>
      i !== at ? t : band === null ? { ...cheap, cheap: false } : { ...withPriceBound(cheap, { max: band }), cheap: false },
    );
  }

  /**
   * Runs the search with its fallbacks: the terms as read; when a named type finds fewer than MIN_TYPE_RESULTS, the
   * type as a preference (kept when it finds more); when nothing is found, the words read by their meaning, then
   * fewer terms (fallbackSearch); when that finds nothing either, the recovery, asked at most once (before dropping
   * words when `recovery.beforeDropping`).
   */
  async run(
    engine: SearchEngine,
    storeId: string,
    base: EngineSearchRequest,
    hasTime: () => Promise<boolean>,
    recovery?: Recovery,
  ): Promise<RanSearch> {
    let kept = await this.settled(engine, storeId, base);
    let result = await engine.search(storeId, this.requestFor(base, kept));
    let fallback = false;
    if (result.total < MIN_TYPE_RESULTS) {
      const widened = typeAsPreference(kept);
      if (widened && (await hasTime())) {
        const wider = await engine.search(storeId, this.requestFor(base, widened));
        if (wider.total > result.total) ({ result, kept, fallback } = { result: wider, kept: widened, fallback: true });
      }
    }
    let asked = false;
    const recovered = async (): Promise<RanSearch | null> => {
      asked = true;
      const found = await recovery?.recover();
      return found ? { result: found, kept, fallback: true, recovered: true } : null;
    };
    if (result.total === 0 && kept.length > 1 && this.corrections !== null) {
      const reread = await this.byMeaning(engine, storeId, base, hasTime);
      if (reread) return reread;
      // "liu jo", a brand the catalog lacks but its shoppers' evidence knows: its meaning, not "jo" alone.
      const early = recovery?.beforeDropping ? await recovered() : null;
      if (early) return early;
      const found = await fallbackSearch(engine, storeId, kept, (k) => this.requestFor(base, k), hasTime);
      if (found) ({ result, kept, fallback } = { ...found, fallback: true });
    }
    if (result.total === 0 && recovery && !asked) return (await recovered()) ?? { result, kept, fallback };
    return { result, kept, fallback };
  }

  /**
   * The query with its plain words read as what they mean (locale-words.ts), when the words as the catalog has them
   * find nothing together: "nike running shoes" in a store whose Nike shoes say "sports" finds them, where dropping
   * "running" would bring every Nike shoe. Null when no word has a meaning or the reading finds nothing either.
   */
  private async byMeaning(
    engine: SearchEngine,
    storeId: string,
    base: EngineSearchRequest,
    hasTime: () => Promise<boolean>,
  ): Promise<RanSearch | null> {
    const words = meaningfulWords(this.terms, this.options.locales);
    if (words.size === 0 || !(await hasTime())) return null;
    const reread = new UnderstoodQuery(this.query, { ...this.context, byMeaning: words }, this.options);
    const kept = await reread.settled(engine, storeId, base);
    const result = await engine.search(storeId, reread.requestFor(base, kept));
    return result.total > 0 ? { result, kept, fallback: true } : null;
  }
}

/**
 * Retries without the least informative terms (dropOrder: unknown and plain words first, the product type
 * last). The answer keeps the most terms that find something. Dropping one term is tried first (the usual case:
 * one stray word), then a binary search over how many to drop, since dropping more never finds less: at most
 * MAX_FALLBACK_SEARCHES engine searches, and none once time is up. (Tries that only count, with the full search
 * once at the end, measured no faster: a broad try's matching costs about what its facets do.)
 */
export async function fallbackSearch(
  engine: SearchEngine,
  storeId: string,
  terms: readonly QueryTerm[],
  requestFor: (kept: readonly QueryTerm[]) => EngineSearchRequest,
  hasTime: () => Promise<boolean>,
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
  for (let searches = 0; fewest <= most && searches < MAX_FALLBACK_SEARCHES && (await hasTime()); searches++) {
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

/**
 * Whether the deadline is still ahead, after letting the event loop serve what arrived meanwhile: the engine's
 * steps are synchronous, and other requests (a health check, a shopper's keystroke) wait only for one step.
 */
export async function hasTimeLeft(deadline: number): Promise<boolean> {
  await yieldToEventLoop();
  return performance.now() < deadline;
}

/** The request a query's first search makes as SearchService makes it when time is not short: what the bench times. */
export async function understoodRequest(
  engine: SearchEngine,
  vocabularies: QueryVocabularies,
  storeId: string,
  base: EngineSearchRequest,
): Promise<EngineSearchRequest> {
  const query = await UnderstoodQuery.read(engine, vocabularies, storeId, base.text, DEFAULT_READING);
  return query.requestFor(base, await query.settled(engine, storeId, base));
}

/** The searches a query makes as SearchService makes them when time is not short, fallbacks included. */
export async function understoodSearch(
  engine: SearchEngine,
  vocabularies: QueryVocabularies,
  storeId: string,
  base: EngineSearchRequest,
  options: Partial<ReadingOptions> = {},
): Promise<RanSearch & { query: UnderstoodQuery }> {
  const query = await UnderstoodQuery.read(engine, vocabularies, storeId, base.text, { ...DEFAULT_READING, ...options });
  return { ...(await query.run(engine, storeId, base, async () => true)), query };
}

export const DEFAULT_READING: ReadingOptions = {
  locales: ["en"],
  autocorrect: true,
  typing: false,
  synonyms: null,
  selectedKeys: new Set(),
};
