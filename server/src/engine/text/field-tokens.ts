import type { SearchableText } from "../types.ts";
import { tokenPairs } from "./normalize.ts";

/** A document's [token, surface] pairs per field, in the order name, brand, categories, features, tags, description. */
export type FieldTokens = [string, string][][];

/** Computed once per write and shared by the embedded engine's FTS index and its in-memory index. */
export function fieldTokens(t: SearchableText): FieldTokens {
  return [[t.name], [t.brand], t.categories, t.features, t.tags, [t.description]].map((parts) => tokenPairs(parts.join("\n")));
}
