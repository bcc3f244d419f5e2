/*
 * One tokenizer for indexing and querying, so both sides always agree: lower case, accents removed, split on
 * anything that is not a letter or digit, plural and singular folded to one form. Hyphenated and spaced
 * compounds meet: "t-shirt" is indexed as "t", "shirt" and "tshirt", so the queries "t-shirt", "t shirt" and
 * "tshirt" all find it. Engines index and match these tokens, never raw text.
 */

import { MAX_COMPOUND_PARTS, MAX_QUERY_WORDS } from "./query-limits.ts";

const MARKS = /\p{M}+/gu;
const SPLIT = /[^\p{L}\p{N}]+/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const JOINERS = /[-'’/.]/g;
const ASCII = /^[\x00-\x7f]*$/;

// Irregular plurals worth folding in a fashion catalog; the rules below handle the rest. A Map, so that words
// like "constructor" are not looked up on Object.prototype.
const IRREGULAR = new Map(
  Object.entries({
    women: "woman",
    men: "man",
    children: "child",
    feet: "foot",
    knives: "knife",
    scarves: "scarf",
    wolves: "wolf",
    leaves: "leaf",
    halves: "half",
    shelves: "shelf",
  }),
);
const IRREGULAR_ENDINGS = new Set([...IRREGULAR.keys()].map((word) => word.charCodeAt(word.length - 1)));
const S = "s".charCodeAt(0);

/**
 * Singular form of a word. The rules are crude ("jeans" becomes "jean", "canvas" becomes "canva") but the same
 * on both sides, so they only ever make a plural and its singular meet.
 */
export function foldPlural(word: string): string {
  // Most words end in neither an s nor an irregular plural's last letter: one comparison (this runs per token).
  const last = word.charCodeAt(word.length - 1);
  if (last !== S && !IRREGULAR_ENDINGS.has(last)) return word;
  const irregular = IRREGULAR.get(word);
  if (irregular) return irregular;
  if (last !== S || word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  // "-is" folds too ("kurtis" -> kurti, "capris" -> capri); "tennis" -> tenni is harmless, being the same on both sides.
  if (word.endsWith("ss") || word.endsWith("us")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

export function foldCase(text: string): string {
  // ASCII has nothing to decompose or strip, and most catalog text is ASCII.
  if (ASCII.test(text)) return text.toLowerCase();
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/** Letters and digits of the Basic Multilingual Plane, classified on first sight: 0 unknown, 1 yes, 2 no. */
const bmpWordChars = new Uint8Array(0x10000);
for (let c = 0; c < 0x80; c++) bmpWordChars[c] = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? 1 : 2;

/** How many UTF-16 units the letter or digit at `i` takes (2 for a surrogate pair), 0 when it is neither. */
function wordCharLength(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return WORD_CHAR.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  let known = bmpWordChars[unit]!;
  if (known === 0) bmpWordChars[unit] = known = WORD_CHAR.test(text[i]!) ? 1 : 2;
  return known === 1 ? 1 : 0;
}

const isJoiner = (unit: number) => unit === 0x2d || unit === 0x27 || unit === 0x2019 || unit === 0x2f || unit === 0x2e;

/**
 * Tokens of a text with the word each came from (for showing corrections), appended to `tokens` and `surfaces`
 * (the same index in each). Every run of letters and digits is a word; runs chained by single joiners
 * (- ' ’ / .) also give their joined form, after all the words. One pass over the text: a regular expression for
 * the chains backtracked quadratically on long runs. Two flat arrays rather than pairs: indexing a product made
 * ~150 two-element arrays only to read them once.
 */
export function tokensInto(text: string, tokens: string[], surfaces: string[]): void {
  const folded = foldCase(text);
  let compounds: string[] | null = null;
  const n = folded.length;
  let chainStart = -1;
  let i = 0;
  while (i < n) {
    let length = wordCharLength(folded, i);
    if (length === 0) {
      i++;
      continue;
    }
    const start = i;
    do i += length;
    while (i < n && (length = wordCharLength(folded, i)) > 0);
    const word = folded.slice(start, i);
    tokens.push(foldPlural(word));
    surfaces.push(word);
    if (i + 1 < n && isJoiner(folded.charCodeAt(i)) && wordCharLength(folded, i + 1) > 0) {
      if (chainStart < 0) chainStart = start;
      i++;
    } else if (chainStart >= 0) {
      (compounds ??= []).push(folded.slice(chainStart, i).replace(JOINERS, ""));
      chainStart = -1;
    }
  }
  if (compounds) {
    for (const joined of compounds) {
      tokens.push(foldPlural(joined));
      surfaces.push(joined);
    }
  }
}

/** tokensInto's tokens and surfaces as [token, surface] pairs. */
export function tokenPairs(text: string): [string, string][] {
  const tokens: string[] = [];
  const surfaces: string[] = [];
  tokensInto(text, tokens, surfaces);
  return tokens.map((token, i) => [token, surfaces[i]!]);
}

/** The tokens of a text, in order, then the joined form of each compound. */
export function tokenize(text: string): string[] {
  return tokenPairs(text).map(([token]) => token);
}

/** What a shopper typed, as words to match: compounds stay together so the query side can expand them. */
export interface QueryWord {
  /** Token to match ("tshirt" for "t-shirt"). */
  token: string;
  /** For a compound or a word pair, the parts that may match instead ("t", "shirt"). */
  parts?: string[];
  /** The word as typed (folded), for corrections. */
  typed: string;
}

/**
 * The first MAX_QUERY_WORDS words of a query, counted after folding (query-limits.ts); a word repeated among
 * them counts once ("red red dress"): it asks for nothing more, and every copy would cost the engine a match.
 */
export function queryWords(query: string): QueryWord[] {
  const words = new Map<string, QueryWord>();
  let read = 0;
  const add = (word: QueryWord) => {
    read++;
    const key = word.parts ? `${word.token} ${word.parts.join(" ")}` : word.token;
    if (!words.has(key)) words.set(key, word);
  };
  for (const [chunk] of foldCase(query).matchAll(/\S+/g)) {
    const pieces = chunk.split(SPLIT).filter(Boolean);
    if (pieces.length >= 2 && pieces.length <= MAX_COMPOUND_PARTS) {
      add({ token: foldPlural(pieces.join("")), parts: pieces.map(foldPlural), typed: chunk });
    } else {
      for (const piece of pieces.slice(0, MAX_QUERY_WORDS - read)) add({ token: foldPlural(piece), typed: piece });
    }
    if (read >= MAX_QUERY_WORDS) break;
  }
  return [...words.values()];
}

/**
 * A query as the search log and suggestions keep it: folded, single-spaced, and only the words search matches
 * (MAX_QUERY_WORDS), so a pasted paragraph cannot become a suggestion label.
 */
export function normalizeQuery(query: string): string {
  return foldCase(query).trim().split(/\s+/, MAX_QUERY_WORDS).join(" ");
}
