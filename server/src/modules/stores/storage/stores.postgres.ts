import {
  type KeyKind,
  type RawStore,
  STORE_COLUMNS,
  type StoredKey,
  type StoreRow,
  type StoresRepository,
  toStore,
} from "./stores-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

const bytes = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

/** Stores and their hashed API keys on PostgreSQL. */
export class PostgresStoresRepo implements StoresRepository {
  constructor(private readonly sql: Sql) {}

  async get(storeId: string): Promise<StoreRow | null> {
    const [row] = await this.sql.unsafe<RawStore[]>(`SELECT ${STORE_COLUMNS} FROM stores WHERE id = $1`, [storeId]);
    return row ? toStore(row) : null;
  }

  async createdAt(storeId: string): Promise<number | null> {
    const [row] = await this.sql<{ created_at: number }[]>`SELECT created_at FROM stores WHERE id = ${storeId}`;
    return row?.created_at ?? null;
  }

  async list(): Promise<StoreRow[]> {
    return (await this.sql.unsafe<RawStore[]>(`SELECT ${STORE_COLUMNS} FROM stores ORDER BY id`)).map(toStore);
  }

  async create(storeId: string, now: number): Promise<boolean> {
    return (await this.sql`INSERT INTO stores (id, created_at) VALUES (${storeId}, ${now}) ON CONFLICT (id) DO NOTHING`).count > 0;
  }

  async delete(storeId: string): Promise<boolean> {
    return (await this.sql`DELETE FROM stores WHERE id = ${storeId}`).count > 0;
  }

  async activeKeys(storeId: string, now: number): Promise<StoredKey[]> {
    const rows = await this.sql<{ kind: KeyKind; key_hash: Buffer }[]>`
      SELECT kind, key_hash FROM api_keys WHERE store_id = ${storeId} AND (expires_at IS NULL OR expires_at > ${now})`;
    return rows.map((r) => ({ kind: r.kind, keyHash: new Uint8Array(r.key_hash) }));
  }

  async keyByHash(keyHash: Uint8Array, now: number): Promise<(StoredKey & { storeId: string }) | null> {
    const [row] = await this.sql<{ store_id: string; kind: KeyKind; key_hash: Buffer }[]>`
      SELECT store_id, kind, key_hash FROM api_keys
      WHERE key_hash = ${bytes(keyHash)} AND (expires_at IS NULL OR expires_at > ${now}) LIMIT 1`;
    return row ? { storeId: row.store_id, kind: row.kind, keyHash: new Uint8Array(row.key_hash) } : null;
  }

  async issuedKeyHashes(storeId: string, kind: KeyKind): Promise<Uint8Array[]> {
    const rows = await this.sql<{ key_hash: Buffer }[]>`SELECT key_hash FROM api_keys WHERE store_id = ${storeId} AND kind = ${kind}`;
    return rows.map((r) => new Uint8Array(r.key_hash));
  }

  async replaceKey(storeId: string, kind: KeyKind, keyHash: Uint8Array, now: number, previousExpiresAt: number): Promise<void> {
    await this.sql.begin(async (tx) => {
      await tx`
        UPDATE api_keys SET expires_at = ${previousExpiresAt}
        WHERE store_id = ${storeId} AND kind = ${kind} AND (expires_at IS NULL OR expires_at > ${previousExpiresAt})`;
      await tx`INSERT INTO api_keys (store_id, kind, key_hash, created_at) VALUES (${storeId}, ${kind}, ${bytes(keyHash)}, ${now})`;
    });
  }

  async updateSettings(storeId: string, settings: Record<string, unknown>): Promise<void> {
    await this.sql`UPDATE stores SET settings = ${JSON.stringify(settings)} WHERE id = ${storeId}`;
  }
}
