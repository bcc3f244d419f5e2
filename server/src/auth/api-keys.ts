import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { KeyKind, StoredKey } from "../db/stores-repo.ts";

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
 * The kind of the stored key that `presented` matches, or null. Every stored key is compared, in constant
 * time, so the time taken does not tell which kinds exist or how close a guess was.
 */
export function matchApiKey(presented: string, stored: readonly StoredKey[]): KeyKind | null {
  const candidate = hashApiKey(presented);
  let match: KeyKind | null = null;
  for (const key of stored) {
    if (key.keyHash.length === candidate.length && timingSafeEqual(key.keyHash, candidate) && match === null) {
      match = key.kind;
    }
  }
  return match;
}
