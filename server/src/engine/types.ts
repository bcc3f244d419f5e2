/*
 * The SearchEngine port: what the service needs from a search engine, in domain terms. Adapters (embedded
 * SQLite, Typesense) implement it and import nothing from modules/. Modules build EngineDocuments from the
 * catalog and never see an adapter's own shapes or errors.
 */

/** Text an engine matches queries against, by field; the adapter decides how fields are weighted. */
export interface SearchableText {
  name: string;
  brand: string;
  categories: string[];
  features: string[];
  tags: string[];
  description: string;
  /** Matched exactly, never by prefix or typo: the product id and relatedIds. */
  identifiers: string[];
}

export interface EngineDocument {
  /** The store's product id. */
  id: string;
  /** Catalog version; an adapter never replaces a document with an older version. */
  version: number;
  text: SearchableText;
  /** Facet key -> values, e.g. designer, category levels, gender, color, size, collection, tag prefixes. */
  facets: Record<string, string[]>;
  /** Sort and range fields, e.g. price_min, arrival_ts; absent when the product has no value. */
  numbers: Record<string, number>;
}

export interface SearchEngine {
  /** "sqlite" or "typesense", for logs and /health. */
  readonly kind: string;
  /** Insert or replace documents of one store. Idempotent: the indexing worker may repeat a batch after a crash. */
  upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void>;
  /** Remove documents by id; ids that are absent are ignored. */
  remove(storeId: string, ids: readonly string[]): Promise<void>;
  /** Number of documents the engine holds for a store. */
  count(storeId: string): Promise<number>;
  /** The stored version of each id present (for reconciliation and tests). */
  versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>>;
  /** Forget everything of a store. */
  dropStore(storeId: string): Promise<void>;
  close(): Promise<void>;
}
