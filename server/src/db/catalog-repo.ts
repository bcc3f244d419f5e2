import type { Database } from "bun:sqlite";
import type { Product } from "../modules/catalog/product-schema.ts";

/** What the indexing worker needs to know of a product to compute its next version. */
export interface CatalogState {
  version: number;
  contentHash: string | null;
  deleted: boolean;
}

export interface CatalogEntry extends CatalogState {
  /** The product JSON as indexed; null for a deleted product. */
  doc: string | null;
  updatedAt: number;
}

/** The catalog, source of truth for products: what the engine holds can always be rebuilt from it. */
export class CatalogRepo {
  constructor(private readonly db: Database) {}

  /** A product of the catalog, parsed; null when unknown or deleted. */
  product(storeId: string, id: string): Product | null {
    const doc = this.get(storeId, id)?.doc;
    return doc ? (JSON.parse(doc) as Product) : null;
  }

  get(storeId: string, id: string): CatalogEntry | null {
    const r = this.db
      .query("SELECT version, content_hash, deleted, doc, updated_at FROM products WHERE store_id = ? AND id = ?")
      .get(storeId, id) as { version: number; content_hash: string | null; deleted: number; doc: string | null; updated_at: number } | null;
    return r ? { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1, doc: r.doc, updatedAt: r.updated_at } : null;
  }

  /** The version and content hash of those of `ids` the catalog has (live or deleted), without their documents. */
  states(storeId: string, ids: readonly string[]): Map<string, CatalogState> {
    const rows = this.db
      .query("SELECT id, version, content_hash, deleted FROM products WHERE store_id = ? AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(ids)) as { id: string; version: number; content_hash: string | null; deleted: number }[];
    return new Map(rows.map((r) => [r.id, { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1 }]));
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

  /** Up to `limit` live products with ids after `afterId`, in id order: a whole store read a page at a time. */
  liveProductsAfter(storeId: string, afterId: string, limit: number): { id: string; doc: string }[] {
    return this.db
      .query("SELECT id, doc FROM products WHERE store_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ?")
      .all(storeId, afterId, limit) as { id: string; doc: string }[];
  }

  /** Products (live or deleted) whose row changed at or after `since` (ms). */
  changedSince(storeId: string, since: number): { id: string; version: number; doc: string | null }[] {
    return this.db
      .query("SELECT id, version, CASE WHEN deleted = 1 THEN NULL ELSE doc END AS doc FROM products WHERE store_id = ? AND updated_at >= ?")
      .all(storeId, since) as { id: string; version: number; doc: string | null }[];
  }
}
