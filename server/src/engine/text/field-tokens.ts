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

/** Ends each field in a token sequence (IndexedText's, a TextIndex's), so a phrase never spans two fields. */
export const FIELD_END = 0xffffffff;

/**
 * A document's tokens as the embedded engine indexes them, computed once per write in a form that crosses
 * threads cheaply and is numbered by looking up each distinct token once: every distinct token in order of
 * first appearance; each field's tokens as ranks in that list, FIELD_END after each field; and the written
 * forms that differ from their token ("jeans" for "jean", for the typo vocabulary) as space-separated pairs of
 * a rank and the form (neither holds a space).
 */
export interface IndexedText {
  distinct: string[];
  sequence: Uint32Array;
  surfaces: string;
}

export function indexedText(fields: FieldTokens): IndexedText {
  const rank = new Map<string, number>();
  const distinct: string[] = [];
  const surfaces: string[] = [];
  let length = 0;
  for (const pairs of fields) length += pairs.length + 1;
  const sequence = new Uint32Array(length);
  let at = 0;
  for (const pairs of fields) {
    for (const [token, surface] of pairs) {
      let r = rank.get(token);
      if (r === undefined) {
        rank.set(token, (r = distinct.length));
        distinct.push(token);
        if (surface !== token) surfaces.push(String(r), surface);
      }
      sequence[at++] = r;
    }
    sequence[at++] = FIELD_END;
  }
  return { distinct, sequence, surfaces: surfaces.join(" ") };
}
