/*
 * Stores and their hashed API keys, as the service keeps them: the interface both durable stores implement
 * (stores.sqlite.ts on SQLite, stores.postgres.ts on PostgreSQL), held to the same behaviour by
 * server/test/repository-conformance.test.ts. Asynchronous, because PostgreSQL is a network away.
 */

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

/** A stores row as both databases return it, and the store it holds. */
export interface RawStore {
  id: string;
  created_at: number;
  settings: string;
}
export const STORE_COLUMNS = "id, created_at, settings";
export const toStore = (r: RawStore): StoreRow => ({ id: r.id, createdAt: r.created_at, settings: JSON.parse(r.settings) });

export interface StoresRepository {
  get(storeId: string): Promise<StoreRow | null>;
  /** When the store was created (its generation: a store deleted and created again has a new one), or null. */
  createdAt(storeId: string): Promise<number | null>;
  /** Every store, by id. */
  list(): Promise<StoreRow[]>;
  /** False when the store exists already. */
  create(storeId: string, now: number): Promise<boolean>;
  /** Deletes the store and everything it owns; false when there was none. */
  delete(storeId: string): Promise<boolean>;
  /** Keys that are valid at `now`: never expired, or still inside a rotation grace period. */
  activeKeys(storeId: string, now: number): Promise<StoredKey[]>;
  /** The store and kind of the key with this hash, when it is valid at `now`. */
  keyByHash(keyHash: Uint8Array, now: number): Promise<(StoredKey & { storeId: string }) | null>;
  /** Hashes of every key of `kind` ever issued to the store, revoked and expired ones too. */
  issuedKeyHashes(storeId: string, kind: KeyKind): Promise<Uint8Array[]>;
  /** Adds a key of `kind`, in one transaction with expiring the store's keys of that kind at `previousExpiresAt`. */
  replaceKey(storeId: string, kind: KeyKind, keyHash: Uint8Array, now: number, previousExpiresAt: number): Promise<void>;
  updateSettings(storeId: string, settings: Record<string, unknown>): Promise<void>;
}
