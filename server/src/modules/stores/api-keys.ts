import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { KeyKind, StoreRow, StoresRepository } from "./storage/stores-repository.ts";

/*
 * Keys are 32 random bytes, so a plain SHA-256 is enough to store them (no dictionary to attack), and cheap
 * enough to check on every search request. The kind is in the prefix so a leaked admin key is easy to spot
 * (and to scan for) in client-side code.
 */

const PREFIX: Record<KeyKind, string> = { admin: "sk_admin_", search: "pk_search_", analytics: "pk_analytics_" };

export function generateApiKey(kind: KeyKind): string {
  return PREFIX[kind] + randomBytes(32).toString("base64url");
}

export function hashApiKey(key: string): Uint8Array {
  return new Uint8Array(createHash("sha256").update(key, "utf8").digest());
}

/**
 * The store and key kind a presented key opens, or null. The key is found by its hash: a wrong key and a key for
 * an unknown store are the same failed lookup, in the same time and with the same answer, so store ids cannot be
 * probed. The lookup compares hashes of 256-bit random keys, which tells a timing attacker nothing about a key;
 * the found hash is still compared in constant time before it counts.
 */
export async function findCaller(
  stores: StoresRepository,
  storeId: string,
  presented: string,
  now: number,
): Promise<{ store: StoreRow; keyKind: KeyKind } | null> {
  const candidate = hashApiKey(presented);
  const key = await stores.keyByHash(candidate, now);
  if (!key || key.keyHash.length !== candidate.length || !timingSafeEqual(key.keyHash, candidate) || key.storeId !== storeId) return null;
  const store = await stores.get(storeId);
  return store ? { store, keyKind: key.kind } : null;
}
