import { createHash } from "node:crypto";

/** Key order of a JSON object carries no meaning, so it must not make an unchanged product look changed. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function contentHash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(canonical(value))).digest("base64url");
}
