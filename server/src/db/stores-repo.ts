import type { Database } from "bun:sqlite";

export type KeyKind = "admin" | "search" | "analytics";
export const KEY_KINDS: readonly KeyKind[] = ["admin", "search", "analytics"];

export interface StoredKey {
  kind: KeyKind;
  keyHash: Uint8Array;
}

export interface StoreRow {
  id: string;
  createdAt: number;
  settings: Record<string, unknown>;
}

interface RawStore {
  id: string;
  created_at: number;
  settings: string;
}

const toStore = (r: RawStore): StoreRow => ({ id: r.id, createdAt: r.created_at, settings: JSON.parse(r.settings) });

/** Stores and their hashed API keys. */
export class StoresRepo {
  constructor(private readonly db: Database) {}

  get(storeId: string): StoreRow | null {
    const row = this.db.query("SELECT id, created_at, settings FROM stores WHERE id = ?").get(storeId) as RawStore | null;
    return row ? toStore(row) : null;
  }

  /** When the store was created (its generation: a store deleted and created again has a new one), or null. */
  createdAt(storeId: string): number | null {
    const row = this.db.query("SELECT created_at FROM stores WHERE id = ?").get(storeId) as { created_at: number } | null;
    return row?.created_at ?? null;
  }

  list(): StoreRow[] {
    return (this.db.query("SELECT id, created_at, settings FROM stores ORDER BY id").all() as RawStore[]).map(toStore);
  }

  create(storeId: string, now: number): boolean {
    const res = this.db.query("INSERT OR IGNORE INTO stores (id, created_at) VALUES (?, ?)").run(storeId, now);
    return res.changes > 0;
  }

  delete(storeId: string): boolean {
    return this.db.query("DELETE FROM stores WHERE id = ?").run(storeId).changes > 0;
  }

  /** Keys that are valid at `now`: never expired, or still inside a rotation grace period. */
  activeKeys(storeId: string, now: number): StoredKey[] {
    const rows = this.db
      .query("SELECT kind, key_hash FROM api_keys WHERE store_id = ? AND (expires_at IS NULL OR expires_at > ?)")
      .all(storeId, now) as { kind: KeyKind; key_hash: Uint8Array }[];
    return rows.map((r) => ({ kind: r.kind, keyHash: r.key_hash }));
  }

  /** The store and kind of the key with this hash, when it is valid at `now`. */
  keyByHash(keyHash: Uint8Array, now: number): (StoredKey & { storeId: string }) | null {
    const row = this.db
      .query("SELECT store_id, kind, key_hash FROM api_keys WHERE key_hash = ? AND (expires_at IS NULL OR expires_at > ?) LIMIT 1")
      .get(keyHash, now) as { store_id: string; kind: KeyKind; key_hash: Uint8Array } | null;
    return row ? { storeId: row.store_id, kind: row.kind, keyHash: row.key_hash } : null;
  }

  /** Hashes of every key of `kind` ever issued to the store, revoked and expired ones too. */
  issuedKeyHashes(storeId: string, kind: KeyKind): Uint8Array[] {
    const rows = this.db.query("SELECT key_hash FROM api_keys WHERE store_id = ? AND kind = ?").all(storeId, kind) as { key_hash: Uint8Array }[];
    return rows.map((r) => r.key_hash);
  }

  /** Adds a key of `kind`; existing keys of that kind expire at `previousExpiresAt` (now = immediately). */
  replaceKey(storeId: string, kind: KeyKind, keyHash: Uint8Array, now: number, previousExpiresAt: number): void {
    this.db.transaction(() => {
      this.db
        .query(
          "UPDATE api_keys SET expires_at = ? WHERE store_id = ? AND kind = ? AND (expires_at IS NULL OR expires_at > ?)",
        )
        .run(previousExpiresAt, storeId, kind, previousExpiresAt);
      this.db
        .query("INSERT INTO api_keys (store_id, kind, key_hash, created_at) VALUES (?, ?, ?, ?)")
        .run(storeId, kind, keyHash, now);
    })();
  }

  updateSettings(storeId: string, settings: Record<string, unknown>): void {
    this.db.query("UPDATE stores SET settings = ? WHERE id = ?").run(JSON.stringify(settings), storeId);
  }
}
