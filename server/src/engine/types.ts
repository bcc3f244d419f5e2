/*
 * The SearchEngine port: what the service needs from a search engine, in domain terms. Adapters (embedded
 * SQLite, Typesense) implement it and import nothing from modules/. Modules build EngineDocuments from the
 * catalog and never see an adapter's own shapes or errors. Every adapter passes engine/conformance.ts.
 */
import type { WordCorrection } from "../text/typo-vocabulary.ts";

export type { WordCorrection };

/** Text an engine matches queries against, by field, weighted name > brand > categories > features/tags > description. */
export interface SearchableText {
  name: string;
  brand: string;
  categories: string[];
  features: string[];
  tags: string[];
  description: string;
  /** Matched exactly (whole query equals one), never by prefix or typo: the product id and relatedIds. */
  identifiers: string[];
}

export interface EngineDocument {
  /** The store's product id. */
  id: string;
  /** Catalog version; an adapter never replaces a document with an older version. */
  version: number;
  text: SearchableText;
  /** Facet key -> values, e.g. designer, category.lvl0, gender, color, size, collection, tag.<prefix>. */
  facets: Record<string, string[]>;
  /** Sort and range fields, e.g. price_min, arrival_ts, rating_wilson; absent when the product has no value. */
  numbers: Record<string, number>;
  /** Sortable text, e.g. name (compared with locale collation). */
  sortText: Record<string, string>;
}

/** A selection on one facet key (any of the values: OR), or a numeric range [min, max) as range facets bucket. */
export type EngineFilter =
  | { kind: "terms"; key: string; values: string[] }
  /**
   * Documents with none of these values of the key (those without the key pass; values no document has are
   * ignored). It belongs to its key as a terms filter does: the key's counts ignore it, so they still list the
   * excluded values.
   */
  | { kind: "excludeTerms"; key: string; values: string[] }
  | { kind: "range"; field: string; min?: number; max?: number }
  /** Only these documents (a similar-products set, which facets then count and a selection narrows). */
  | { kind: "ids"; ids: string[] }
  /** None of these documents (products a merchandising rule hides, or places itself); ids that are absent are ignored. */
  | { kind: "excludeIds"; ids: string[] };

export type EngineSort =
  | { kind: "relevance" }
  /**
   * By a number; documents without it come last. With `bucket`, documents are ordered by
   * floor((value - origin) / width) and the next sort decides inside a bucket (a negative width counts
   * backwards from the origin, e.g. age in days from now).
   */
  | { kind: "number"; field: string; order: "asc" | "desc"; bucket?: { origin: number; width: number } }
  | { kind: "text"; field: string; order: "asc" | "desc"; locale: string }
  /** The listed ids first, in the listed order (ids not in the result are ignored). */
  | { kind: "pinned"; ids: string[] }
  /**
   * Documents satisfying the first filter first; among those and among the rest, documents satisfying the second
   * first, and so on (at most MAX_PREFER_FILTERS); the next sorts decide among equals. Query understanding puts
   * it before relevance: the product type the query names, then its colour or brand.
   */
  | { kind: "prefer"; filters: EngineFilter[] }
  /**
   * Up to `perGroup` documents of each value of facet `key` (chosen by a hash of `seed` and the id, so stable
   * for one seed) first, in hash order; then the rest by the next sorts.
   */
  | { kind: "liftPerGroup"; key: string; perGroup: number; seed: string }
  /**
   * By the sum of the weights of the facet selections a document has (any of a selection's values), highest
   * first, negative weights below the documents with none (at most MAX_WEIGHTED_FILTERS selections); the next
   * sorts decide among equals. Merchandising rules' boosts and buries.
   */
  | { kind: "weighted"; filters: { key: string; values: string[]; weight: number }[] };

/** Filters one prefer sort may hold: a cluster engine spells out every combination of them. */
export const MAX_PREFER_FILTERS = 3;
/** Selections one weighted sort may hold: a cluster engine spells out every combination of them too. */
export const MAX_WEIGHTED_FILTERS = 3;

export interface TextMatching {
  /** Allow one typo from 4 letters and two from 8 on words the index does not know. */
  typos: boolean;
  /** Match the last word as a prefix (typeahead, and search while the shopper types). */
  prefixLast: boolean;
}

/**
 * Other wordings of some consecutive words of a query (a store's synonyms, a shopper's word in the store's own
 * words). A document matches those words when it matches them as usual or holds every token of one alternative
 * (the embedded engine asks them adjacent, as a phrase; Typesense's filters cannot), and ranks as if it held the
 * typed words: a synonym is as good a match as the word it stands for.
 */
export interface TextAlternative {
  /** The words' tokens, as queryWords (text/normalize.ts) reads the request's text. */
  words: string[];
  /** Each alternative's tokens, as queryWords reads it. */
  alternatives: string[][];
}

export interface EngineSearchRequest {
  /** Query text; empty matches every document (browsing a collection). */
  text: string;
  /** Alternatives of some of the text's words; absent or empty: the text as it is. */
  alternatives?: TextAlternative[];
  matching: TextMatching;
  /** All must hold (AND); each terms filter is OR within its key. */
  filters: EngineFilter[];
  /** Facet keys to count; a key ending in "*" means every key with that prefix. Counts are disjunctive. */
  facets: string[];
  /** Numeric fields to bucket into at most `maxBuckets` ranges that suit the result set; disjunctive too. */
  rangeFacets: { field: string; maxBuckets: number }[];
  sort: EngineSort[];
  offset: number;
  limit: number;
}

export interface FacetCount {
  value: string;
  count: number;
}

export interface RangeCount {
  lb: number;
  ub: number;
  count: number;
}

export interface EngineSearchResult {
  total: number;
  hits: { id: string; score: number }[];
  /** Per facet key, values by count (desc) then value; a key's counts ignore that key's own filters (terms and excludeTerms). */
  facets: Record<string, FacetCount[]>;
  ranges: Record<string, RangeCount[]>;
}

/** The adapters a deployment can choose (engine/create-engine.ts). */
export type EngineKind = "sqlite" | "typesense";

/**
 * A document an adapter's DocumentPreparer made ready to write. Opaque to the service, which reads its id and sets
 * the version to write it under once its batch has one; only the adapter of the kind that prepared it takes it.
 */
export interface PreparedDocument {
  readonly id: string;
  version: number;
}

/**
 * Documents as a DocumentPreparer encoded them: typed arrays, each on a buffer of its own, so that they move from
 * the thread that prepared them to the one that writes them without a copy.
 */
export type EncodedDocuments = readonly (Uint8Array | Uint32Array)[];

/**
 * What an adapter does to documents ahead of writing them (an index's tokens, the JSON it stores), so that the
 * indexing thread does it beside the thread that serves searches (modules/indexing/prepared-batch.ts). Pure: it
 * depends on the documents only. Each adapter kind has one (engine/document-preparers.ts).
 */
export interface DocumentPreparer {
  /**
   * On the preparing thread: `count` documents of version 0, taken one at a time, so that each can be dropped once
   * encoded (a slice's 500 made first and held at once made encoding ~10% slower).
   */
  encode(docs: Iterable<EngineDocument>, count: number): EncodedDocuments;
  /** On the writing thread: the documents encode was given, in order, for the adapter's upsertPrepared. */
  decode(encoded: EncodedDocuments): PreparedDocument[];
}

export interface SearchEngine {
  /** Which adapter this is: for logs, and for the preparer of its documents. */
  readonly kind: EngineKind;
  /** Insert or replace documents of one store. Idempotent: the indexing worker may repeat a batch after a crash. */
  upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void>;
  /**
   * Writes documents its kind's DocumentPreparer made, exactly as upsert writes the documents they were made of.
   * `synced: false`: the write need not wait for the disk, as a synced write of the same store follows before
   * anything relies on it (and takes this one to the disk with it).
   */
  upsertPrepared(storeId: string, docs: readonly PreparedDocument[], opts?: { synced?: boolean }): Promise<void>;
  /** Remove documents by id; ids that are absent are ignored. */
  remove(storeId: string, ids: readonly string[]): Promise<void>;
  /** Change some numbers of documents without a new version (signals such as purchase counts); null removes one. */
  setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void>;
  search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult>;
  /** For each word of a query: is it in the store's index, and which indexed words are within the typo rules. */
  corrections(storeId: string, text: string): Promise<WordCorrection[]>;
  /** Number of documents the engine holds for a store. */
  count(storeId: string): Promise<number>;
  /** The stored version of each id present (for reconciliation and tests). */
  versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>>;
  /** Forget everything of a store. */
  dropStore(storeId: string): Promise<void>;
  /**
   * Rebuild a store's index from `docs` beside the live one and switch to it when complete, so searches
   * never see a half-built index; returns the new index's name. Only engines whose index outlives the server
   * process (a cluster) have it: the embedded index lives inside the running server.
   */
  reindexStore?(storeId: string, docs: AsyncIterable<EngineDocument>): Promise<{ index: string; documents: number }>;
  /**
   * Loads what an engine keeps in this process's memory for these stores (the embedded engine's in-memory index),
   * so that the first search after a start does not wait for it. Engines with nothing to load have none.
   */
  preload?(storeIds: readonly string[]): Promise<void>;
  /**
   * Start-up check of an engine with remote parts (every node of a cluster): resolves with lines worth a
   * warning (a node down while others answer), throws an EngineUnavailableError naming what is wrong when the
   * engine cannot serve. Embedded engines need none.
   */
  check?(): Promise<string[]>;
  close(): Promise<void>;
}
