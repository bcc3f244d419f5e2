import type { Dialect } from "./dialect.ts";
import { STORE_ID, type Table } from "./table.ts";

/* Stores and their API keys. Every other table's rows are scoped by store id (multi-tenant from the first table). */

export const stores = (d: Dialect): Table => ({
  name: "stores",
  columns: [`id          ${d.sortedText} PRIMARY KEY`, `created_at  ${d.bigint} NOT NULL`, "settings    TEXT NOT NULL DEFAULT '{}'"],
});

/** Only a SHA-256 of each key is stored. A rotated key keeps working until expires_at (grace period). */
export const apiKeys = (d: Dialect): Table => ({
  name: "api_keys",
  columns: [
    `id          ${d.autoId}`,
    STORE_ID,
    "kind        TEXT NOT NULL CHECK (kind IN ('admin', 'search', 'analytics'))",
    `key_hash    ${d.bytes} NOT NULL`,
    `created_at  ${d.bigint} NOT NULL`,
    `expires_at  ${d.bigint}`,
  ],
});

export const apiKeysStoreIndex = "CREATE INDEX api_keys_store ON api_keys(store_id)";
/** Keys are found by their hash, so a wrong key and an unknown store cost the same lookup (no store-id probing). */
export const apiKeysHashIndex = "CREATE INDEX api_keys_hash ON api_keys(key_hash)";
