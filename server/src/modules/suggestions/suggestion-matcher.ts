import { stableHash } from "../../engine/stable-hash.ts";
import { foldCase } from "../../text/normalize.ts";
import { MAX_QUERY_WORDS } from "../../text/query-limits.ts";
import { editDistance, maxEdits } from "../../text/typo-vocabulary.ts";

/*
 * Matching a partial query against suggestion labels: every typed word must start a word of the label, in
 * any order; a word from 4 letters may carry one typo (two from 8) against the same-length start of a label
 * word, up to the length query-limits.ts allows corrections. A typo in the first letter is forgiven only as a
 * swap with the second: that check rules out most label words before any edit distance is computed, which
 * is what keeps a keystroke cheap over thousands of candidates. Labels are tokenized once, when candidates
 * are built.
 */

export interface Candidate {
  id: string;
  label: string;
  count: number;
  /** Past queries (1) before catalog terms (0): they are what shoppers actually type. */
  priority: number;
  /**
   * Popularity within a priority: searches for past queries (their result count as the fraction, breaking
   * ties), products in the category for catalog terms. Never a lazily computed count: order must not change
   * between two calls.
   */
  weight: number;
  words: string[];
  /** A bit per first letter of its words (initialBit): a label without a typed word's possible initial cannot match. */
  initials: number;
}

const pieces = (chunk: string) => chunk.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
const chunks = (text: string) => foldCase(text).split(/\s+/).filter(Boolean);

/** A label's words; a hyphenated one also whole ("T-Shirts": t, shirts, tshirts), as search indexes it. */
const labelWords = (text: string) =>
  chunks(text).flatMap((chunk) => {
    const parts = pieces(chunk);
    return parts.length > 1 ? [...parts, parts.join("")] : parts;
  });

export function candidate(kind: string, label: string, count: number, weight: number, priority = 0): Candidate {
  const words = labelWords(label);
  const initials = words.reduce((bits, word) => bits | initialBit(word, 0), 0);
  // Ids are stable numbers derived from the label, so a front end can key and cache suggestions.
  return { id: String(stableHash(`${kind}\u0000${foldCase(label)}`)), label, count, priority, weight, words, initials };
}

/** A bit for the letter at `at` of `word` (letters may share a bit: it only rules candidates out). */
const initialBit = (word: string, at: number) => (at < word.length ? 1 << (word.charCodeAt(at) & 31) : 0);

/**
 * The initials a label word must have to match `typed` (wordMatches): its first letter, or its second when the
 * first two are swapped.
 */
const possibleInitials = (typed: string) => initialBit(typed, 0) | initialBit(typed, 1);

function wordMatches(typed: string, labelWord: string): boolean {
  if (labelWord.startsWith(typed)) return true;
  const allowed = maxEdits(typed);
  if (allowed === 0) return false;
  const sameStart = typed.charCodeAt(0) === labelWord.charCodeAt(0) || (typed[0] === labelWord[1] && typed[1] === labelWord[0]);
  if (!sameStart) return false;
  return (
    editDistance(typed, labelWord, allowed, Math.min(typed.length, labelWord.length)) <= allowed ||
    editDistance(typed, labelWord, allowed) <= allowed
  );
}

/** The typed words as matchScore takes them: each with the initials a label word needs to match it. */
export interface TypedWords {
  words: string[];
  initials: number[];
}

/** Whether every typed word matches a distinct word of the label; exact-start matches rank first. */
export function matchScore(typed: TypedWords, c: Candidate): number | null {
  // Most labels of a store have no word with a typed word's initial: ruled out before any word is compared.
  for (const initials of typed.initials) if ((c.initials & initials) === 0) return null;
  const used: number[] = [];
  let exact = 0;
  for (const word of typed.words) {
    let found = -1;
    for (let i = 0; i < c.words.length; i++) {
      if (used.includes(i)) continue;
      if (c.words[i]!.startsWith(word)) {
        found = i;
        exact++;
        break;
      }
    }
    if (found < 0) found = c.words.findIndex((w, i) => !used.includes(i) && wordMatches(word, w));
    if (found < 0) return null;
    used.push(found);
  }
  // Labels that begin with what was typed, then fully exact matches, score higher.
  return (c.words[0]?.startsWith(typed.words[0] ?? "") ? 2 : 0) + (exact === typed.words.length ? 1 : 0);
}

/**
 * The words a shopper typed, as many as a search matches (query-limits.ts), ready for matchScore. A hyphenated
 * word is one word, joined: "t-sh" is the start of "tshirts", not a "t" and an "sh" anywhere (which found
 * "Shirts Tops & Tunics").
 */
export function typedWords(query: string): TypedWords {
  const words = chunks(query)
    .map((chunk) => pieces(chunk).join(""))
    .filter(Boolean)
    .slice(0, MAX_QUERY_WORDS);
  return { words, initials: words.map(possibleInitials) };
}
