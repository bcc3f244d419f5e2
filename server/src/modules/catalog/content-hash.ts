import type { Utf8Text } from "../../utf8-text.ts";

/**
 * Key order of a JSON object carries no meaning, so it must not make an unchanged product look changed. Copies
 * are made only of objects (to insert their keys in order) and of arrays holding objects. Copies have no
 * prototype, so a "__proto__" key stays an own property, as JSON.parse made it.
 */
function canonical(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item === "object" && item !== null) (copy ??= value.slice())[i] = canonical(item);
    }
    return copy ?? value;
  }
  const source = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = Object.create(null);
  for (const key of sortedKeys(source)) sorted[key] = canonical(source[key]);
  return sorted;
}

/**
 * An object's keys in UTF-16 code unit order, as Array.prototype.sort() orders them. By insertion: a product's
 * objects have a handful to a few dozen keys, often nearly in order, where the generic sort cost a microsecond more
 * per product.
 */
function sortedKeys(source: object): string[] {
  const keys = Object.keys(source);
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let j = i - 1;
    while (j >= 0 && keys[j]! > key) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = key;
  }
  return keys;
}

/** A value as JSON with every object's keys sorted: equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/**
 * The hash of a canonical JSON text (or of its UTF-8 bytes), to tell an unchanged product from a changed one:
 * SHA-256, base64url. Bun's one-shot SHA-256 gives the same digest as node:crypto's for a third less time (it
 * runs for every product indexed); stored hashes depend on the digest never changing.
 */
export function contentHash(json: Utf8Text): string {
  return Bun.SHA256.hash(json, "base64url");
}
