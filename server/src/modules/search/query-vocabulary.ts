import { queryWords } from "../../text/normalize.ts";
import type { EngineSearchResult, SearchEngine } from "../../engine/types.ts";
import { PRODUCT_TYPE_FACET } from "../catalog/engine-document.ts";
import { ANCESTOR_MARK } from "../catalog/product-type.ts";

/*
 * What a store's catalog says its words mean, learned from the facet values the engine holds rather than from
 * any list written for one catalog: product types (the head nouns of category paths, product-type.ts), colours
 * (variation names), brands, usages (collections), and which gender and age values exist. Built with one
 * facet-only engine search, so it works the same on every engine, and rebuilt after the catalog changes.
 */

/** Facet keys the vocabulary is read from. */
export const VOCABULARY_KEYS = {
  type: PRODUCT_TYPE_FACET,
  gender: "gender",
  ageGroup: "ageGroup",
  colour: "color",
  brand: "designer",
  usage: "collection",
} as const;

/** Brand and colour names longer than this are never matched in a query (a query has at most 16 words). */
const MAX_PHRASE_WORDS = 4;

/** A name's tokens as a query's words give them, so the two compare directly. */
export const phraseTokens = (text: string): string[] => queryWords(text).map((w) => w.token);

/** Facet values named by a sequence of query tokens, indexed by the sequence's first token. */
export class PhraseIndex {
  private readonly byFirst = new Map<string, { tokens: string[]; value: string }[]>();
  /** Token -> every value holding it, for words that name part of a value ("blue" of "Navy Blue"). */
  private readonly byToken = new Map<string, Set<string>>();

  add(value: string): void {
    const tokens = phraseTokens(value);
    if (tokens.length === 0 || tokens.length > MAX_PHRASE_WORDS) return;
    const list = this.byFirst.get(tokens[0]!) ?? [];
    list.push({ tokens, value });
    list.sort((a, b) => b.tokens.length - a.tokens.length);
    this.byFirst.set(tokens[0]!, list);
    for (const token of tokens) {
      const values = this.byToken.get(token) ?? new Set<string>();
      values.add(value);
      this.byToken.set(token, values);
    }
  }

  /** The longest whole value starting at `at` in `tokens`: how many tokens it takes, and which value it is. */
  longestAt(tokens: readonly string[], at: number): { length: number; value: string } | null {
    for (const candidate of this.byFirst.get(tokens[at]!) ?? []) {
      if (candidate.tokens.every((t, i) => tokens[at + i] === t)) return { length: candidate.tokens.length, value: candidate.value };
    }
    return null;
  }

  /** Values holding every one of `tokens`. */
  valuesWith(tokens: readonly string[]): string[] {
    let out: string[] | null = null;
    for (const token of tokens) {
      const values = this.byToken.get(token);
      if (!values) return [];
      out = out ? out.filter((v) => values.has(v)) : [...values];
    }
    return out ?? [];
  }
}

export interface QueryVocabulary {
  /**
   * Product type (a token, or a phrase of tokens joined by spaces) -> how many products are of that type (a group's
   * counting those under a category of its name too). Only types some product has by its own category.
   */
  types: ReadonlyMap<string, number>;
  /** The types of more than one word ("casual shoe"), found in a query by their tokens. */
  typePhrases: PhraseIndex;
  /** Types that also hold the products filed under a category of their name above their own ("bag": handbags). */
  groups: ReadonlySet<string>;
  genders: ReadonlySet<string>;
  ageGroups: ReadonlySet<string>;
  colours: PhraseIndex;
  brands: PhraseIndex;
  /** Folded usage word -> the collection value. */
  usages: ReadonlyMap<string, string>;
}

export function vocabularyFrom(result: EngineSearchResult): QueryVocabulary {
  const values = (key: string) => result.facets[key] ?? [];
  const colours = new PhraseIndex();
  for (const v of values(VOCABULARY_KEYS.colour)) colours.add(v.value);
  const brands = new PhraseIndex();
  for (const v of values(VOCABULARY_KEYS.brand)) brands.add(v.value);
  const usages = new Map<string, string>();
  for (const v of values(VOCABULARY_KEYS.usage)) {
    const tokens = phraseTokens(v.value);
    if (tokens.length === 1) usages.set(tokens[0]!, v.value);
  }
  // productType values are search tokens already (product-type.ts). A type holds the products filed under a
  // category of that name above their own only when those outnumber the ones filed as it themselves: "bags" are
  // the handbags, backpacks and clutches under "Bags" (far more than the few filed as "Laptop Bag"), but "dresses"
  // are not the jumpsuits a catalog files under "Dress", nor "sandals" the sports sandals under "Sandal".
  const own = new Map<string, number>();
  const above = new Map<string, number>();
  for (const v of values(VOCABULARY_KEYS.type)) {
    if (v.value.startsWith(ANCESTOR_MARK)) above.set(v.value.slice(ANCESTOR_MARK.length), v.count);
    else own.set(v.value, v.count);
  }
  const types = new Map<string, number>();
  const groups = new Set<string>();
  const typePhrases = new PhraseIndex();
  for (const [type, count] of own) {
    const grouped = above.get(type) ?? 0;
    if (grouped > count) groups.add(type);
    types.set(type, grouped > count ? count + grouped : count);
    if (type.includes(" ")) typePhrases.add(type);
  }
  return {
    types,
    groups,
    typePhrases,
    genders: new Set(values(VOCABULARY_KEYS.gender).map((v) => v.value)),
    ageGroups: new Set(values(VOCABULARY_KEYS.ageGroup).map((v) => v.value)),
    colours,
    brands,
    usages,
  };
}

/** How long a vocabulary serves after its store changed before it is rebuilt (a bulk changes it every batch). */
const REBUILD_AFTER_CHANGE_MS = 5_000;
/** Rebuilt at least this often, for changes this process was not told of (another replica's writes). */
const MAX_AGE_MS = 60_000;

interface Cached {
  vocabulary: Promise<QueryVocabulary>;
  builtAt: number;
  stale: boolean;
  /** Documents the store had when it was built. */
  documents: Promise<number>;
  /**
   * Whether the store has outgrown it (OUTGROWN), asked once per change and shared by the searches meanwhile: once
   * per applied batch, not per search (on Typesense, counting is a request). Null: not asked since the last change.
   */
  outgrown: Promise<boolean> | null;
}

/**
 * A vocabulary built from less than this share of the store's documents (during its first bulk) is rebuilt before
 * it answers, not in the background: otherwise the pages of one search could be read with two vocabularies.
 */
const OUTGROWN = 0.5;

/** Per store, the vocabulary, built on first use and rebuilt in the background once the catalog has changed. */
export class QueryVocabularies {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly engine: SearchEngine,
    private readonly now: () => number,
  ) {}

  /** The store's catalog changed (the indexing worker applied a batch). */
  changed(storeId: string): void {
    const cached = this.cache.get(storeId);
    if (cached) {
      cached.stale = true;
      cached.outgrown = null;
    }
  }

  async of(storeId: string): Promise<QueryVocabulary> {
    const cached = this.cache.get(storeId);
    const now = this.now();
    if (!cached) return this.build(storeId, now).vocabulary;
    if (cached.stale) {
      cached.outgrown ??= Promise.all([cached.documents.catch(() => 0), this.engine.count(storeId)]).then(
        ([built, current]) => built < OUTGROWN * current,
        () => false,
      );
      if (await cached.outgrown)
        return (this.cache.get(storeId) === cached ? this.build(storeId, now) : this.cache.get(storeId)!).vocabulary;
    }
    const age = now - cached.builtAt;
    if ((cached.stale && age >= REBUILD_AFTER_CHANGE_MS) || age >= MAX_AGE_MS) {
      // The old one answers until the new one is ready.
      const next = this.build(storeId, now, cached);
      next.vocabulary.catch(() => undefined);
    }
    return cached.vocabulary;
  }

  private build(storeId: string, now: number, previous?: Cached): Cached {
    const entry: Cached = {
      vocabulary: this.engine
        .search(storeId, {
          text: "",
          matching: { typos: false, prefixLast: false },
          filters: [],
          facets: Object.values(VOCABULARY_KEYS),
          rangeFacets: [],
          sort: [],
          offset: 0,
          limit: 0,
        })
        .then(vocabularyFrom),
      builtAt: now,
      stale: false,
      documents: this.engine.count(storeId),
      outgrown: null,
    };
    if (previous) {
      // Swapped in only once built, so searches meanwhile keep the previous one.
      previous.builtAt = now;
      previous.stale = false;
      entry.vocabulary.then(
        () => this.cache.get(storeId) === previous && this.cache.set(storeId, entry),
        () => undefined,
      );
    } else {
      this.cache.set(storeId, entry);
      entry.vocabulary.catch(() => this.cache.get(storeId) === entry && this.cache.delete(storeId));
    }
    return entry;
  }
}
