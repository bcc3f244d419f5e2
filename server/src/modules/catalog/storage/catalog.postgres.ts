import type postgres from "postgres";
import type { CatalogEntry, CatalogRepository, CatalogState, CommittedProduct, ProductWordFields } from "./catalog-repository.ts";
import { WORD_FIELDS_UNREAD, wordFieldsOf } from "./catalog-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";
import { dropShapesIn } from "./stored-shapes.postgres.ts";
import { textOf } from "../../../utf8-text.ts";

/** The catalog on PostgreSQL, shared by every replica. */
export class PostgresCatalogRepo implements CatalogRepository {
  constructor(private readonly sql: Sql) {}

  async get(storeId: string, id: string): Promise<CatalogEntry | null> {
    const [r] = await this.sql<{ version: number; content_hash: string | null; deleted: number; doc: string | null; updated_at: number }[]>`
      SELECT version, content_hash, deleted, doc, updated_at FROM products WHERE store_id = ${storeId} AND id = ${id}`;
    return r ? { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1, doc: r.doc, updatedAt: r.updated_at } : null;
  }

  async states(storeId: string, ids: readonly string[]): Promise<Map<string, CatalogState>> {
    const rows = await this.sql<{ id: string; version: number; content_hash: string | null; deleted: number }[]>`
      SELECT id, version, content_hash, deleted FROM products WHERE store_id = ${storeId} AND id = ANY(${ids as string[]}::text[])`;
    return new Map(rows.map((r) => [r.id, { version: r.version, contentHash: r.content_hash, deleted: r.deleted === 1 }]));
  }

  async liveDocs(storeId: string, ids: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.sql<{ id: string; doc: string }[]>`
      SELECT id, doc FROM products WHERE store_id = ${storeId} AND deleted = 0 AND id = ANY(${ids as string[]}::text[])`;
    return new Map(rows.map((r) => [r.id, r.doc]));
  }

  async countLive(storeId: string): Promise<number> {
    const [r] = await this.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM products WHERE store_id = ${storeId} AND deleted = 0`;
    return r!.n;
  }

  async liveProductsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; version: number; doc: string }[]> {
    return [
      ...(await this.sql<{ id: string; version: number; doc: string }[]>`
        SELECT id, version, doc FROM products WHERE store_id = ${storeId} AND deleted = 0 AND id > ${afterId} ORDER BY id LIMIT ${limit}`),
    ];
  }

  /** Each document parsed once (doc is text); a product without variations gets none, as on SQLite. */
  async liveWordFieldsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; fields: ProductWordFields }[]> {
    const rows = await this.sql<{ id: string; fields: string | null; doc: string | null }[]>`
      SELECT p.id, CASE WHEN d IS NOT NULL THEN json_build_object(
        'name', d ->> 'name', 'brand', d ->> 'brand', 'categories', d -> 'categories',
        'gender', d ->> 'gender', 'ageGroup', d ->> 'ageGroup', 'tags', d -> 'tags',
        'variations', COALESCE((SELECT json_agg(json_build_object('name', v ->> 'name')) FROM jsonb_array_elements(d -> 'variations') v), '[]')
      )::text END AS fields, CASE WHEN d IS NULL THEN p.doc END AS doc
      FROM products p, LATERAL (SELECT CASE WHEN strpos(p.doc, ${WORD_FIELDS_UNREAD}) = 0 THEN p.doc::jsonb END AS d) j
      WHERE p.store_id = ${storeId} AND p.deleted = 0 AND p.id > ${afterId} ORDER BY p.id LIMIT ${limit}`;
    return rows.map((r) => ({ id: r.id, fields: wordFieldsOf(r) }));
  }

  async changedSince(storeId: string, since: number): Promise<{ id: string; version: number; doc: string | null }[]> {
    return [
      ...(await this.sql<{ id: string; version: number; doc: string | null }[]>`
        SELECT id, version, CASE WHEN deleted = 1 THEN NULL ELSE doc END AS doc FROM products WHERE store_id = ${storeId} AND updated_at >= ${since} ORDER BY id`),
    ];
  }

  async shaped(storeId: string, ids: readonly string[], shaping: string): Promise<Map<string, string>> {
    const rows = await this.sql<{ id: string; json: string }[]>`
      SELECT id, json FROM search_products WHERE store_id = ${storeId} AND shaping = ${shaping} AND id = ANY(${ids as string[]}::text[])`;
    return new Map(rows.map((r) => [r.id, r.json]));
  }

  async putShapes(storeId: string, shaping: string, shapes: readonly (readonly [string, number, string])[]): Promise<void> {
    if (shapes.length === 0) return;
    // FOR SHARE: a batch committing one of these products meanwhile is waited for, and its row read again (its new
    // version then leaves the shape out); a batch after it deletes the shape in its own transaction.
    await this.sql`
      WITH live AS (
        SELECT p.id, s.json FROM unnest(${shapes.map((s) => s[0])}::text[], ${shapes.map((s) => s[1])}::bigint[], ${shapes.map((s) => s[2])}::text[]) AS s(id, version, json)
        JOIN products p ON p.store_id = ${storeId} AND p.id = s.id
        WHERE p.version = s.version AND p.deleted = 0
        FOR SHARE OF p
      )
      INSERT INTO search_products (store_id, id, shaping, json) SELECT ${storeId}, id, ${shaping}, json FROM live
      ON CONFLICT (store_id, id) DO UPDATE SET shaping = excluded.shaping, json = excluded.json WHERE search_products.shaping <> excluded.shaping`;
  }

  async dropShapes(storeId: string, ids: readonly string[]): Promise<void> {
    await dropShapesIn(this.sql, storeId, ids);
  }
}

/**
 * Writes products an indexing batch changed, their stored shapes dropped, inside the caller's transaction (the
 * batch commit, indexing/storage/tasks.postgres.ts).
 */
export async function writeProductsIn(
  tx: postgres.TransactionSql,
  storeId: string,
  products: readonly CommittedProduct[],
  at: number,
): Promise<void> {
  if (!products.length) return;
  const rows = products.map((p) => ({
    store_id: storeId,
    id: p.id,
    version: p.version,
    content_hash: p.contentHash,
    doc: p.doc === null ? null : textOf(p.doc),
    deleted: p.deleted ? 1 : 0,
    updated_at: at,
  }));
  await tx`
    INSERT INTO products ${tx(rows)}
    ON CONFLICT (store_id, id) DO UPDATE SET version = excluded.version, content_hash = excluded.content_hash,
      doc = excluded.doc, deleted = excluded.deleted, updated_at = excluded.updated_at`;
  await dropShapesIn(
    tx,
    storeId,
    products.map((p) => p.id),
  );
}
