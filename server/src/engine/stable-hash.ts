import { fnv1a } from "../lib/hash-ids.ts";

/** FNV-1a (32-bit): a fast, stable hash for seeded orderings that must not change between runs or machines. */
export function stableHash(text: string): number {
  return fnv1a(text);
}
