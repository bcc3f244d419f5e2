import type { Database } from "bun:sqlite";

export interface CatalogEntry {
  version: number;
  contentHash: string | null;
  deleted: boolean;
  /** The product JSON as indexed; null for a deleted product. */
  doc: string | null;
  updatedAt: number;
}

/** The catalog, source of truth for products: what the engine holds can always be rebuilt from it. */
export class CatalogRepo {
  constructor(private readonly db: Database) {}

  get(storeId: string, id: string): CatalogEntry | null {
    const r = this.db
      .query("SELECT version, content_hash, deleted, doc, updated_at FROM products WHERE store_id = ? AND id = ?")
      .get(storeId, id) as { version: number; content_hash: string | null; deleted: number; doc: string | null; updated_at: number } | null;
    return r ? { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1, doc: r.doc, updatedAt: r.updated_at } : null;
  }

  /** Writes the new state of products; call inside the transaction that also records task progress. */
  put(storeId: string, id: string, entry: CatalogEntry): void {
    this.db
      .query(
        `INSERT INTO products (store_id, id, version, content_hash, doc, deleted, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (store_id, id) DO UPDATE SET version = excluded.version, content_hash = excluded.content_hash,
           doc = excluded.doc, deleted = excluded.deleted, updated_at = excluded.updated_at`,
      )
      .run(storeId, id, entry.version, entry.contentHash, entry.doc, entry.deleted ? 1 : 0, entry.updatedAt);
  }

  countLive(storeId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM products WHERE store_id = ? AND deleted = 0").get(storeId) as { n: number }).n;
  }

  /** Every live product of a store, as stored. */
  liveProducts(storeId: string): IterableIterator<{ id: string; version: number; doc: string }> {
    return this.db
      .query("SELECT id, version, doc FROM products WHERE store_id = ? AND deleted = 0")
      .iterate(storeId) as IterableIterator<{ id: string; version: number; doc: string }>;
  }

  /** Products (live or deleted) whose row changed at or after `since` (ms). */
  changedSince(storeId: string, since: number): { id: string; version: number; doc: string | null }[] {
    return this.db
      .query("SELECT id, version, CASE WHEN deleted = 1 THEN NULL ELSE doc END AS doc FROM products WHERE store_id = ? AND updated_at >= ?")
      .all(storeId, since) as { id: string; version: number; doc: string | null }[];
  }
}
