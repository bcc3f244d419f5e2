import type { Database } from "bun:sqlite";

export interface SearchLogEntry {
  storeId: string;
  at: number;
  /** Normalized query text (trimmed, lower case, single spaces); null for collection browsing. */
  query: string | null;
  collection: string | null;
  resultCount: number;
  fallback: boolean;
  /** A word of the query is not in the catalog (a typo, or a word still being typed). */
  misspelled: boolean;
  userId: string | null;
  sessionId: string | null;
  preprod: boolean;
}

export interface PopularQuery {
  query: string;
  searches: number;
  resultCount: number;
}

/** The search log and the per-query statistics that suggestions read. */
export class SearchLogRepo {
  constructor(private readonly db: Database) {}

  append(entries: readonly SearchLogEntry[]): void {
    const log = this.db.query(
      "INSERT INTO search_log (store_id, at, query, collection, result_count, fallback, user_id, session_id, preprod) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const stats = this.db.query(
      `INSERT INTO query_stats (store_id, query, searches, result_count, last_at) VALUES (?, ?, 1, ?, ?)
       ON CONFLICT (store_id, query) DO UPDATE SET searches = searches + 1, result_count = excluded.result_count, last_at = excluded.last_at`,
    );
    this.db.transaction(() => {
      for (const e of entries) {
        log.run(e.storeId, e.at, e.query, e.collection, e.resultCount, e.fallback ? 1 : 0, e.userId, e.sessionId, e.preprod ? 1 : 0);
        // Pre-production traffic, fallbacks and misspelled queries do not teach suggestions: a shopper who
        // typed "shoos" must not see "shoos" offered to the next one.
        if (e.query && !e.preprod && !e.fallback && !e.misspelled) stats.run(e.storeId, e.query, e.resultCount, e.at);
      }
    })();
  }

  /**
   * Adds imported past queries (e.g. from a previous search provider). Idempotent: a query's count becomes at
   * least the imported one, so importing the same log twice changes nothing.
   */
  importQueries(storeId: string, queries: readonly { query: string; searches: number; resultCount: number }[], at: number): void {
    const stats = this.db.query(
      `INSERT INTO query_stats (store_id, query, searches, result_count, last_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (store_id, query) DO UPDATE SET searches = max(searches, excluded.searches), result_count = excluded.result_count`,
    );
    this.db.transaction(() => {
      for (const q of queries) stats.run(storeId, q.query, q.searches, q.resultCount, at);
    })();
  }

  /** Past queries that had results, most searched first: all of them (suggestions keep them in memory). */
  popularQueries(storeId: string, limit: number): PopularQuery[] {
    return this.db
      .query(
        "SELECT query, searches, result_count AS resultCount FROM query_stats WHERE store_id = ? AND result_count > 0 ORDER BY searches DESC, query LIMIT ?",
      )
      .all(storeId, limit) as PopularQuery[];
  }

  /**
   * Deletes up to `limit` of a store's search log rows from before `before`, oldest first, in one statement;
   * returns how many. query_stats, which suggestions read, is an aggregate and stays.
   */
  deleteBefore(storeId: string, before: number, limit: number): number {
    return this.db
      .query("DELETE FROM search_log WHERE seq IN (SELECT seq FROM search_log WHERE store_id = ? AND at < ? ORDER BY at LIMIT ?)")
      .run(storeId, before, limit).changes;
  }

  count(storeId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM search_log WHERE store_id = ?").get(storeId) as { n: number }).n;
  }
}
