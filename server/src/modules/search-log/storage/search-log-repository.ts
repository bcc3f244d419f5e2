/*
 * The search log and the per-query statistics that suggestions read: the interface both durable stores
 * implement (search-log-repo.ts, postgres/search-log-repo.ts), held to the same behaviour by
 * server/test/repository-conformance.test.ts.
 */

export interface SearchLogEntry {
  storeId: string;
  at: number;
  /** Normalized query text (trimmed, lower case, single spaces); null for collection browsing. */
  query: string | null;
  collection: string | null;
  resultCount: number;
  fallback: boolean;
  /** Facets or a collection narrowed the search: its result count is not the query's own. */
  filtered: boolean;
  /** The query may teach suggestions (spelled right, not pre-production, not a fallback, not junk). */
  teaches: boolean;
  userId: string | null;
  sessionId: string | null;
  preprod: boolean;
  /** A preprod search's first page (its product ids), kept as our answer to the query for the preprod report. */
  shadowAnswer?: { total: number; productIds: string[] };
}

export interface ImportedQuery {
  query: string;
  searches: number;
  resultCount: number;
  /** The categories ("Men > Clothing") shoppers' searches for it led to under the previous provider, when known. */
  ledTo?: readonly string[];
}

export interface PopularQuery {
  query: string;
  searches: number;
  resultCount: number;
}

export interface SearchLogRepository {
  /**
   * Appends searches to the log and, for those that teach suggestions, to the per-query statistics: searches,
   * distinct shoppers (counted until `minShoppers`, after which the query's shopper hashes are dropped), and
   * the query's result count (an unfiltered search sets it; a filtered one can only show it is above zero). A
   * preprod search's first page is kept as our answer to its query. All in one transaction.
   */
  append(entries: readonly SearchLogEntry[], minShoppers: number): Promise<void>;
  /**
   * Adds imported past queries (e.g. from a previous search provider). Idempotent: a query's count becomes at
   * least the imported one, so importing the same log twice changes nothing. An imported count is an admin's
   * statement about many shoppers: each search counts as one.
   */
  importQueries(storeId: string, queries: readonly ImportedQuery[], at: number): Promise<void>;
  /**
   * The imported queries that say what they led to (categories), most searched first: evidence of what a query
   * means that the store brought from its previous search provider (learned meaning, modules/meaning).
   */
  queryEvidence(storeId: string, limit: number): Promise<{ query: string; searches: number; ledTo: string[] }[]>;
  /** Past queries that had results and `minShoppers` distinct shoppers, most searched first, then by text. */
  popularQueries(storeId: string, minShoppers: number, limit: number): Promise<PopularQuery[]>;
  /**
   * Deletes up to `limit` of a store's search log rows from before `before`, oldest first; returns how many.
   * query_stats, which suggestions read, is an aggregate and stays; the shopper hashes of queries still short
   * of shoppers go with the log they came from.
   */
  deleteBefore(storeId: string, before: number, limit: number): Promise<number>;
  count(storeId: string): Promise<number>;
}
