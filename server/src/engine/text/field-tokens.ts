import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { SearchableText } from "../types.ts";
import { tokensInto } from "./normalize.ts";

/**
 * Changes whenever the tokenizer's source does: tokens an engine kept are reused only under the fingerprint they
 * were made with, so a tokenizer change takes effect at the next start with nothing to remember to bump.
 */
export const TOKENIZER_FINGERPRINT = createHash("sha256")
  .update(["field-tokens.ts", "normalize.ts", "query-limits.ts"].map((file) => readFileSync(new URL(`./${file}`, import.meta.url), "utf8")).join("\0"))
  .digest("base64url");

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

/** A document's text as an IndexedText: its fields in the order name, brand, categories, features, tags, description. */
export function indexedText(text: SearchableText): IndexedText {
  const fields = [[text.name], [text.brand], text.categories, text.features, text.tags, [text.description]];
  const tokens: string[] = [];
  const written: string[] = [];
  /** Where each field's tokens end. */
  const ends: number[] = [];
  for (const parts of fields) {
    tokensInto(parts.join("\n"), tokens, written);
    ends.push(tokens.length);
  }
  const rank = new Map<string, number>();
  const distinct: string[] = [];
  const surfaces: string[] = [];
  const sequence = new Uint32Array(tokens.length + fields.length);
  let at = 0;
  let k = 0;
  for (const end of ends) {
    for (; k < end; k++) {
      const token = tokens[k]!;
      let r = rank.get(token);
      if (r === undefined) {
        rank.set(token, (r = distinct.length));
        distinct.push(token);
        if (written[k] !== token) surfaces.push(String(r), written[k]!);
      }
      sequence[at++] = r;
    }
    sequence[at++] = FIELD_END;
  }
  return { distinct, sequence, surfaces: surfaces.join(" ") };
}
