import type { SearchableText } from "../types.ts";
import { tokensInto } from "../../text/normalize.ts";

/**
 * Tokens an engine kept are reused only under the version they were made with. Bump it with any change to how
 * text becomes tokens (this file, text/normalize.ts, text/query-limits.ts): server/test/tokenizer-version.test.ts
 * fails until the version and the hash it records of those sources agree again.
 */
export const TOKENIZER_VERSION = 2;

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
