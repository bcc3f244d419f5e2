import type { HighlightResult } from "./algolia-shapes.ts";

/*
 * _highlightResult for a hit, made in the browser: the service answers products, not highlights. A word of the
 * value is highlighted where it equals a searched word once case and accents are folded ("Café" for "cafe"),
 * and the start of a word where it begins with the last word typed (the shopper may still be typing it). The
 * searched words are the query as answered (a misspelt word's correction) and as typed. Values are not
 * HTML-escaped: InstantSearch escapes them itself (escapeHTML, its default).
 */

export interface HighlightTags {
  pre: string;
  post: string;
}

const WORD = /[\p{L}\p{N}]+/gu;
const fold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
const wordsOf = (text: string) => text.match(WORD) ?? [];

export class QueryWords {
  /** The words the answer searched, as written in it. */
  private readonly searched: { text: string; folded: string }[];
  private readonly folded: Set<string>;
  /** The last word typed, folded: a word beginning with it is highlighted up to its length. */
  private readonly prefix: string | null;

  constructor(typed: string, answered: string | undefined) {
    const typedWords = wordsOf(typed);
    this.searched = wordsOf(answered ?? typed).map((text) => ({ text, folded: fold(text) }));
    this.folded = new Set([...typedWords.map(fold), ...this.searched.map((w) => w.folded)]);
    this.prefix = typedWords.length ? fold(typedWords.at(-1)!) : null;
  }

  highlight(value: string, tags: HighlightTags): HighlightResult {
    const found = new Set<string>();
    let out = "";
    let at = 0;
    let unmarked = false;
    for (const match of value.matchAll(WORD)) {
      const word = match[0];
      const folded = fold(word);
      const marked = this.folded.has(folded)
        ? word.length
        : this.prefix && folded.startsWith(this.prefix)
          ? prefixLength(word, this.prefix)
          : 0;
      if (marked === 0) {
        unmarked = true;
        continue;
      }
      if (marked < word.length) unmarked = true;
      for (const w of this.searched) if (folded === w.folded || folded.startsWith(w.folded)) found.add(w.text);
      out += value.slice(at, match.index) + tags.pre + word.slice(0, marked) + tags.post;
      at = match.index + marked;
    }
    out += value.slice(at);
    const matchedWords = this.searched.filter((w) => found.has(w.text)).map((w) => w.text);
    return {
      value: out,
      matchLevel: matchedWords.length === 0 ? "none" : matchedWords.length === this.searched.length ? "full" : "partial",
      matchedWords,
      fullyHighlighted: at > 0 && !unmarked,
    };
  }
}

/** How many characters of `word` fold to `prefix`: accents fold away, so it may be more than the prefix's length. */
function prefixLength(word: string, prefix: string): number {
  let length = 0;
  for (const ch of word) {
    length += ch.length;
    if (fold(word.slice(0, length)).length >= prefix.length) break;
  }
  return length;
}
