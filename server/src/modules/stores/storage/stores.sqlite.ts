import type { Database } from "bun:sqlite";
import {
  type KeyKind,
  type RawStore,
  STORE_COLUMNS,
  type StoredKey,
  type StoreRow,
  type StoresRepository,
  toStore,
} from "./stores-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** Stores and their hashed API keys in the embedded database (bun:sqlite answers at once; the interface is async). */
export class SqliteStoresRepo implements StoresRepository {
  constructor(private readonly db: Database) {}

  async get(storeId: string): Promise<StoreRow | null> {
    const row = this.db.query(`SELECT ${STORE_COLUMNS} FROM stores WHERE id = ?`).get(storeId) as RawStore | null;
    return row ? toStore(row) : null;
  }

  async createdAt(storeId: string): Promise<number | null> {
    const row = this.db.query("SELECT created_at FROM stores WHERE id = ?").get(storeId) as { created_at: number } | null;
    return row?.created_at ?? null;
  }

  async list(): Promise<StoreRow[]> {
    return (this.db.query(`SELECT ${STORE_COLUMNS} FROM stores ORDER BY id`).all() as RawStore[]).map(toStore);
  }

  async create(storeId: string, now: number): Promise<boolean> {
    const res = this.db.query("INSERT OR IGNORE INTO stores (id, created_at) VALUES (?, ?)").run(storeId, now);
    return res.changes > 0;
  }

  async delete(storeId: string): Promise<boolean> {
    return this.db.query("DELETE FROM stores WHERE id = ?").run(storeId).changes > 0;
  }

  async activeKeys(storeId: string, now: number): Promise<StoredKey[]> {
    const rows = this.db
      .query("SELECT kind, key_hash FROM api_keys WHERE store_id = ? AND (expires_at IS NULL OR expires_at > ?)")
      .all(storeId, now) as { kind: KeyKind; key_hash: Uint8Array }[];
    return rows.map((r) => ({ kind: r.kind, keyHash: r.key_hash }));
  }

  async keyByHash(keyHash: Uint8Array, now: number): Promise<(StoredKey & { storeId: string }) | null> {
    const row = this.db
      .query("SELECT store_id, kind, key_hash FROM api_keys WHERE key_hash = ? AND (expires_at IS NULL OR expires_at > ?) LIMIT 1")
      .get(keyHash, now) as { store_id: string; kind: KeyKind; key_hash: Uint8Array } | null;
    return row ? { storeId: row.store_id, kind: row.kind, keyHash: row.key_hash } : null;
  }

  async issuedKeyHashes(storeId: string, kind: KeyKind): Promise<Uint8Array[]> {
    const rows = this.db.query("SELECT key_hash FROM api_keys WHERE store_id = ? AND kind = ?").all(storeId, kind) as {
      key_hash: Uint8Array;
    }[];
    return rows.map((r) => r.key_hash);
  }

  async replaceKey(storeId: string, kind: KeyKind, keyHash: Uint8Array, now: number, previousExpiresAt: number): Promise<void> {
    writeTransaction(this.db, () => {
      this.db
        .query("UPDATE api_keys SET expires_at = ? WHERE store_id = ? AND kind = ? AND (expires_at IS NULL OR expires_at > ?)")
        .run(previousExpiresAt, storeId, kind, previousExpiresAt);
      this.db.query("INSERT INTO api_keys (store_id, kind, key_hash, created_at) VALUES (?, ?, ?, ?)").run(storeId, kind, keyHash, now);
    })();
  }

  async updateSettings(storeId: string, settings: Record<string, unknown>): Promise<void> {
    this.db.query("UPDATE stores SET settings = ? WHERE id = ?").run(JSON.stringify(settings), storeId);
  }
}
