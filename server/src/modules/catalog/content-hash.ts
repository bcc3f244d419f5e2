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
  for (const key of Object.keys(source).sort()) sorted[key] = canonical(source[key]);
  return sorted;
}

/** A value as JSON with every object's keys sorted: equal content gives equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value));
}

/**
 * The hash of a canonical JSON text, to tell an unchanged product from a changed one: SHA-256, base64url. Bun's
 * one-shot SHA-256 gives the same digest as node:crypto's for a third less time (it runs for every product
 * indexed); stored hashes depend on the digest never changing.
 */
export function contentHash(json: string): string {
  return Bun.SHA256.hash(json, "base64url");
}
