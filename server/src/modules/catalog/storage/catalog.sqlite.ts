import type { Database } from "bun:sqlite";
import type { CatalogEntry, CatalogRepository, CatalogState, CommittedProduct, ProductWordFields } from "./catalog-repository.ts";
import { WORD_FIELDS_UNREAD, wordFieldsOf } from "./catalog-repository.ts";
import { dropShapesIn } from "./stored-shapes.sqlite.ts";
import type { WalCheckpoints } from "../../../platform/sqlite/wal-checkpoints.ts";
import { readUnmapped, writeTransaction } from "../../../platform/sqlite/connection.ts";

/** The catalog on SQLite, source of truth for products: what the engine holds can always be rebuilt from it. */
export class SqliteCatalogRepo implements CatalogRepository {
  constructor(
    private readonly db: Database,
    /** Batches committed without waiting for the disk (wal-checkpoints.ts); without, a plain transaction. */
    private readonly checkpoints?: WalCheckpoints,
  ) {}

  async get(storeId: string, id: string): Promise<CatalogEntry | null> {
    const r = this.db
      .query("SELECT version, content_hash, deleted, doc, updated_at FROM products WHERE store_id = ? AND id = ?")
      .get(storeId, id) as { version: number; content_hash: string | null; deleted: number; doc: string | null; updated_at: number } | null;
    return r ? { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1, doc: r.doc, updatedAt: r.updated_at } : null;
  }

  async states(storeId: string, ids: readonly string[]): Promise<Map<string, CatalogState>> {
    const rows = this.db
      .query("SELECT id, version, content_hash, deleted FROM products WHERE store_id = ? AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(ids)) as { id: string; version: number; content_hash: string | null; deleted: number }[];
    return new Map(rows.map((r) => [r.id, { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1 }]));
  }

  async liveDocs(storeId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = this.db
      .query("SELECT id, doc FROM products WHERE store_id = ? AND deleted = 0 AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(ids)) as { id: string; doc: string }[];
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  async countLive(storeId: string): Promise<number> {
    return (this.db.query("SELECT count(*) AS n FROM products WHERE store_id = ? AND deleted = 0").get(storeId) as { n: number }).n;
  }

  /** Unmapped: its callers read a whole store a page at a time (livePages), which mapped would stay resident. */
  async liveProductsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; version: number; doc: string }[]> {
    return readUnmapped(
      this.db,
      (reader) =>
        reader
          .query("SELECT id, version, doc FROM products WHERE store_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ?")
          .all(storeId, afterId, limit) as { id: string; version: number; doc: string }[],
    );
  }

  /** Unmapped, as liveProductsAfter. A subquery's JSON is text to json_object unless json() marks it. */
  async liveWordFieldsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; fields: ProductWordFields }[]> {
    const rows = readUnmapped(
      this.db,
      (reader) =>
        reader
          .query(
            `SELECT id, CASE WHEN instr(doc, ?1) = 0 THEN json_object(
               'name', doc ->> '$.name', 'brand', doc ->> '$.brand', 'categories', doc -> '$.categories',
               'gender', doc ->> '$.gender', 'ageGroup', doc ->> '$.ageGroup', 'tags', doc -> '$.tags',
               'variations', json((SELECT json_group_array(json_object('name', v.value ->> '$.name')) FROM json_each(doc, '$.variations') v))
             ) END AS fields, CASE WHEN instr(doc, ?1) > 0 THEN doc END AS doc
             FROM products WHERE store_id = ?2 AND deleted = 0 AND id > ?3 ORDER BY id LIMIT ?4`,
          )
          .all(WORD_FIELDS_UNREAD, storeId, afterId, limit) as { id: string; fields: string | null; doc: string | null }[],
    );
    return rows.map((r) => ({ id: r.id, fields: wordFieldsOf(r) }));
  }

  /** Unmapped: after a bulk, the changed rows are most of a store. */
  async changedSince(storeId: string, since: number): Promise<{ id: string; version: number; doc: string | null }[]> {
    return readUnmapped(
      this.db,
      (reader) =>
        reader
          .query(
            "SELECT id, version, CASE WHEN deleted = 1 THEN NULL ELSE doc END AS doc FROM products WHERE store_id = ? AND updated_at >= ? ORDER BY id",
          )
          .all(storeId, since) as { id: string; version: number; doc: string | null }[],
    );
  }

  async shaped(storeId: string, ids: readonly string[], shaping: string): Promise<Map<string, string>> {
    const rows = this.db
      .query("SELECT id, shaped FROM products WHERE store_id = ? AND shaping = ? AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, shaping, JSON.stringify(ids)) as { id: string; shaped: string }[];
    return new Map(rows.map((r) => [r.id, r.shaped]));
  }

  async shapesEpoch(storeId: string): Promise<number> {
    return (this.db.query("SELECT epoch FROM shape_epochs WHERE store_id = ?").get(storeId) as { epoch: number } | null)?.epoch ?? 0;
  }

  async putShapes(storeId: string, shaping: string, shapes: readonly (readonly [string, number, string])[]): Promise<void> {
    const put = this.db.query(
      "UPDATE products SET shaping = ?, shaped = ? WHERE store_id = ? AND id = ? AND version = ? AND deleted = 0 AND shaping IS NOT ?",
    );
    const commit = writeTransaction(this.db, () => {
      for (const [id, version, json] of shapes) put.run(shaping, json, storeId, id, version, shaping);
    });
    // Shapes are made again from the catalog when lost: a results page need not wait for the disk.
    if (this.checkpoints) this.checkpoints.commitUnsynced(commit);
    else commit();
  }

  async dropShapes(storeId: string, ids: readonly string[]): Promise<void> {
    dropShapesIn(this.db, storeId, ids);
  }
}

/**
 * Writes products an indexing batch changed, their stored shapes dropped, inside the caller's transaction (the
 * batch commit, indexing/storage/tasks.sqlite.ts).
 *
 * A product at version 1 has no row (a row, even a deletion's, keeps counting its versions), so it is inserted
 * plainly (and upserted if a row was there after all). The upsert would do, but a statement that may update a row of a table with foreign keys and triggers
 * keeps a copy of every page it changes until it ends (SQLite's statement journal, a temporary file): about two
 * pages of 16 KB written there per product, 16 ms of CPU per 1,000 products at 300,000 products against 8.6 inserted.
 */
export function writeProductsIn(db: Database, storeId: string, products: readonly CommittedProduct[], at: number): void {
  // CAST: the JSON may come as UTF-8 bytes (utf8-text.ts).
  const insert = db.query(
    "INSERT INTO products (store_id, id, version, content_hash, doc, deleted, updated_at) VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?, ?)",
  );
  const upsert = db.query(
    `INSERT INTO products (store_id, id, version, content_hash, doc, deleted, updated_at) VALUES (?, ?, ?, ?, CAST(? AS TEXT), ?, ?)
     ON CONFLICT (store_id, id) DO UPDATE SET version = excluded.version, content_hash = excluded.content_hash,
       doc = excluded.doc, deleted = excluded.deleted, updated_at = excluded.updated_at, shaping = NULL, shaped = NULL`,
  );
  for (const p of products) {
    const row = [storeId, p.id, p.version, p.contentHash, p.doc, p.deleted ? 1 : 0, at] as const;
    if (p.version !== 1) upsert.run(...row);
    else if (!insertedFresh(() => insert.run(...row))) upsert.run(...row);
  }
}

/**
 * Whether a plain insert added its row. A row there already (a caller that numbered a product's versions afresh)
 * fails the insert alone, not the batch's transaction, and the upsert then writes it: the product is never lost.
 */
function insertedFresh(insert: () => unknown): boolean {
  try {
    insert();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE") return false;
    throw error;
  }
}
