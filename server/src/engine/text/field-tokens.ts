import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { SearchableText } from "../types.ts";
import { tokenPairs } from "./normalize.ts";

/**
 * Changes whenever the tokenizer's source does: tokens an engine kept are reused only under the fingerprint they
 * were made with, so a tokenizer change takes effect at the next start with nothing to remember to bump.
 */
export const TOKENIZER_FINGERPRINT = createHash("sha256")
  .update(["field-tokens.ts", "normalize.ts", "query-limits.ts"].map((file) => readFileSync(new URL(`./${file}`, import.meta.url), "utf8")).join("\0"))
  .digest("base64url");

/** A document's [token, surface] pairs per field, in the order name, brand, categories, features, tags, description. */
export type FieldTokens = [string, string][][];

export function fieldTokens(t: SearchableText): FieldTokens {
  return [[t.name], [t.brand], t.categories, t.features, t.tags, [t.description]].map((parts) => tokenPairs(parts.join("\n")));
}

/**
 * A document's tokens as the embedded engine indexes them, computed once per write: each field's tokens joined
 * by spaces (tokens never hold one), and every distinct token once with a surface form (for
 * the typo vocabulary's document counts).
 */
export interface IndexedText {
  columns: string[];
  distinct: [string, string][];
}

export function indexedText(fields: FieldTokens): IndexedText {
  return { columns: fields.map((pairs) => pairs.map(([token]) => token).join(" ")), distinct: distinctTokens(fields) };
}

/** Every distinct token of a document once, with the surface form it first had. */
function distinctTokens(fields: FieldTokens): [string, string][] {
  const seen = new Map<string, string>();
  for (const pairs of fields) for (const [token, surface] of pairs) if (!seen.has(token)) seen.set(token, surface);
  return [...seen];
}

/** The tokens of one of IndexedText's columns. */
export const columnTokens = (column: string): string[] => (column ? column.split(" ") : []);
