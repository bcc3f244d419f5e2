/*
 * One tokenizer for indexing and querying, so both sides always agree: lower case, accents removed, split on
 * anything that is not a letter or digit, plural and singular folded to one form. Hyphenated and spaced
 * compounds meet: "t-shirt" is indexed as "t", "shirt" and "tshirt", so the queries "t-shirt", "t shirt" and
 * "tshirt" all find it. Engines index and match these tokens, never raw text.
 */

const MARKS = /\p{M}+/gu;
const SPLIT = /[^\p{L}\p{N}]+/u;
const COMPOUND = /[\p{L}\p{N}]+(?:[-'’/.][\p{L}\p{N}]+)+/gu;

// Irregular plurals worth folding in a fashion catalog; the rules below handle the rest.
const IRREGULAR: Record<string, string> = { women: "woman", men: "man", children: "child", feet: "foot", knives: "knife", scarves: "scarf", wolves: "wolf", leaves: "leaf", halves: "half", shelves: "shelf" };

/**
 * Singular form of a word. The rules are crude ("jeans" becomes "jean", "canvas" becomes "canva") but the same
 * on both sides, so they only ever make a plural and its singular meet.
 */
export function foldPlural(word: string): string {
  const irregular = IRREGULAR[word];
  if (irregular) return irregular;
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("ss") || word.endsWith("us") || word.endsWith("is")) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

export function foldCase(text: string): string {
  return text.normalize("NFKD").replace(MARKS, "").toLowerCase();
}

/** Tokens of a text with the word each came from (for showing corrections): [token, surface] pairs. */
export function tokenPairs(text: string): [string, string][] {
  const folded = foldCase(text);
  const out: [string, string][] = [];
  for (const word of folded.split(SPLIT)) if (word) out.push([foldPlural(word), word]);
  for (const compound of folded.match(COMPOUND) ?? []) {
    const joined = compound.replace(/[-'’/.]/g, "");
    out.push([foldPlural(joined), joined]);
  }
  return out;
}

/** The tokens of a text, in order, compounds followed by their joined form. */
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

export function queryWords(query: string): QueryWord[] {
  const folded = foldCase(query);
  const words: QueryWord[] = [];
  for (const chunk of folded.split(/\s+/)) {
    const pieces = chunk.split(SPLIT).filter(Boolean);
    if (pieces.length === 0) continue;
    if (pieces.length === 1) words.push({ token: foldPlural(pieces[0]!), typed: pieces[0]! });
    else words.push({ token: foldPlural(pieces.join("")), parts: pieces.map(foldPlural), typed: chunk });
  }
  return words;
}
