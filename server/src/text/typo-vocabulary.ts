/*
 * The words a store's index knows, with how many documents hold each, and a deletion index (the SymSpell
 * idea) so the words within one or two edits of a typed word are found by lookups instead of a scan over the
 * whole vocabulary. Rules: one edit from 4 letters, two from 8; a transposition counts as one edit. Words
 * longer than MAX_FUZZY_LETTERS get none: a word's deletions grow with its length squared.
 */

import { arrayBytes, mapBytes, stringsBytes } from "../lib/heap-estimate.ts";
import { queryWords, type QueryWord } from "./normalize.ts";
import { fuzzyAllowed, MAX_FUZZY_LETTERS } from "./query-limits.ts";

/**
 * A look-alike this many times as common as a word the index knows (and in at least MIN_COMMON documents) is
 * probably what the shopper meant: "sare" is a word of one description, "saree" of hundreds of products.
 */
const MUCH_MORE_COMMON = 10;
const MIN_COMMON = 5;

export const muchMoreCommon = (lookAlikeDocs: number, ownDocs: number): boolean =>
  lookAlikeDocs >= Math.max(MIN_COMMON, ownDocs * MUCH_MORE_COMMON);

const editsByLength = (length: number) => (length >= 8 ? 2 : length >= 4 ? 1 : 0);

export function maxEdits(word: string): number {
  return fuzzyAllowed(word) ? editsByLength(word.length) : 0;
}

// Three reusable rows: typeahead calls this thousands of times per keystroke, and allocating rows showed in profiles.
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal-string-alignment distance (Damerau with adjacent transpositions) between `a` and the first `bLength`
 * characters of `b` (all of it by default), stopping early past `limit`.
 */
export function editDistance(a: string, b: string, limit: number, bLength = b.length): number {
  if (Math.abs(a.length - bLength) > limit) return limit + 1;
  if (rows[0]!.length <= bLength) rows = rows.map(() => new Int32Array(bLength * 2 + 1));
  let [prev2, prev, row] = rows as [Int32Array, Int32Array, Int32Array];
  for (let j = 0; j <= bLength; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= bLength; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[bLength]!;
}

/** 32-bit FNV-1a of `word` without its characters at `skipA` and `skipB` (-1: none). */
function hashWithout(word: string, skipA: number, skipB: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < word.length; i++) {
    if (i === skipA || i === skipB) continue;
    hash = Math.imul(hash ^ word.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Calls `visit` with the key of a word and of every word made by deleting up to `depth` (at most 2) of its
 * characters, none shorter than one. Keys are hashes, not the shorter strings: making and hashing those strings
 * was most of the cost of indexing a vocabulary (0.6-0.8 s for the demo catalog's). Two deletions that collide
 * only bring an extra candidate, which the edit distance then turns away. A key may come more than once.
 */
function deletionKeys(word: string, depth: number, visit: (key: number) => void): void {
  visit(hashWithout(word, -1, -1));
  if (depth === 0 || word.length <= 1) return;
  for (let i = 0; i < word.length; i++) {
    visit(hashWithout(word, i, -1));
    if (depth >= 2 && word.length > 2) for (let j = i + 1; j < word.length; j++) visit(hashWithout(word, i, j));
  }
}

export interface Correction {
  token: string;
  /** How the word is written in the catalog, e.g. "jeans" for the token "jean". */
  surface: string;
  distance: number;
  docs: number;
}

export class TypoVocabulary {
  private readonly docCount = new Map<string, number>();
  /** How each word was first written: what a correction shows. */
  private readonly surfaces = new Map<string, string>();
  /** The plural written form of words first seen singular, matched by corrections too. */
  private readonly plurals = new Map<string, string>();
  /**
   * Tokens by deletion key: one token as itself, more as an array. Most keys have one: with an array for each of
   * the demo catalog's half a million keys, the index held 59 MB of heap instead of 38.
   */
  private readonly byDeletion = new Map<number, string | string[]>();
  /** Words whose deletions are indexed; a word stays indexed after its last document is gone (lookups check counts). */
  private readonly indexed = new Set<string>();
  /** Words counted but not yet in the deletion index: it is built on the first lookup, not at load. */
  private readonly unindexed = new Set<string>();
  /** Indexed words whose plural written form was seen since: only that form's deletions are still to index. */
  private readonly unindexedPlurals = new Set<string>();
  /** Every word counted, sorted, for completions; rebuilt on the first lookup after a new word. */
  private sorted: string[] | null = null;

  has(token: string): boolean {
    return (this.docCount.get(token) ?? 0) > 0;
  }

  docs(token: string): number {
    return this.docCount.get(token) ?? 0;
  }

  /**
   * Edits from a word as typed to the nearest written form of `token` (capped at 3): "snikers" is two from
   * "sniper" though its folded form "sniker" is one, and "desses" one from "dresses" though three from "dress".
   */
  distanceFromTyped(typed: string, token: string): number {
    let best = 3;
    for (const form of this.forms(token)) best = Math.min(best, editDistance(typed, form, best));
    return best;
  }

  /** How a word was first written ("jeans" for the token "jean"). */
  surface(token: string): string {
    return this.surfaces.get(token) ?? token;
  }

  /** Counts one more (or, with -1, one fewer) document holding each of `tokens`. */
  count(tokens: Iterable<[string, string]>, delta: 1 | -1): void {
    for (const [token, surface] of tokens) this.countWord(token, surface, delta);
  }

  /** Counts one more (or, with -1, one fewer) document holding `token`, written `surface` there. */
  countWord(token: string, surface: string, delta: 1 | -1): void {
    const before = this.docCount.get(token) ?? 0;
    const after = before + delta;
    if (after <= 0) {
      this.docCount.delete(token);
      return;
    }
    this.docCount.set(token, after);
    // A word already counted has its surface and is indexed or pending: this runs per word of every document.
    // A word first seen singular also gets its plural written form looked up: "snikers" is two edits from
    // "sneakers" but three from "sneaker".
    if (before > 0) {
      if (surface !== token && !this.plurals.has(token) && this.surfaces.get(token) === token) {
        this.plurals.set(token, surface);
        if (this.indexed.has(token)) this.unindexedPlurals.add(token);
      }
      return;
    }
    if (!this.surfaces.has(token)) {
      this.surfaces.set(token, surface);
      this.sorted = null;
    }
    if (!this.indexed.has(token)) this.unindexed.add(token);
  }

  /**
   * The most common word the index holds that starts with `prefix` and is longer (a word the shopper may still be
   * typing), looking at the first MAX_COMPLETIONS such words; null when there is none.
   */
  completion(prefix: string): { token: string; docs: number } | null {
    this.sorted ??= [...this.surfaces.keys()].sort();
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid]! <= prefix) lo = mid + 1;
      else hi = mid;
    }
    let best: { token: string; docs: number } | null = null;
    for (let i = lo; i < sorted.length && i < lo + MAX_COMPLETIONS && sorted[i]!.startsWith(prefix); i++) {
      const docs = this.docs(sorted[i]!);
      if (docs > (best?.docs ?? 0)) best = { token: sorted[i]!, docs };
    }
    return best;
  }

  /**
   * Indexes the deletions of the words counted since the last call (corrections() calls it first), or of at most
   * `limit` of them; returns whether some are left.
   */
  indexPending(limit = Infinity): boolean {
    let done = 0;
    for (const token of this.unindexed) {
      if (done++ >= limit) return true;
      this.indexDeletions(token);
      this.unindexed.delete(token);
    }
    for (const token of this.unindexedPlurals) {
      if (done++ >= limit) return true;
      this.indexForm(token, this.plurals.get(token)!);
      this.unindexedPlurals.delete(token);
    }
    return false;
  }

  /** The forms a typed word is compared with: the token, how it was first written, and its plural if seen. */
  private forms(token: string): string[] {
    const out = [token];
    for (const form of [this.surfaces.get(token), this.plurals.get(token)]) if (form && !out.includes(form)) out.push(form);
    return out;
  }

  /**
   * Deletions of the token and of its written forms (forms()): "soks" is one edit from "socks" but two
   * from its token "sock".
   */
  private indexDeletions(token: string): void {
    if (this.indexed.has(token)) return;
    this.indexed.add(token);
    this.unindexedPlurals.delete(token);
    for (const form of this.forms(token)) this.indexForm(token, form);
  }

  /** Files `token` under the deletions of one of its forms. */
  private indexForm(token: string, form: string): void {
    // Two edits from the longest corrected word at most: a longer word is never anyone's look-alike.
    if (form.length > MAX_FUZZY_LETTERS + 2) return;
    deletionKeys(form, editsByLength(form.length) || (form.length >= 3 ? 1 : 0), (key) => {
      const filed = this.byDeletion.get(key);
      if (filed === undefined) this.byDeletion.set(key, token);
      // A key that comes again for this token, or that forms of one token share ("sock", "socks"), files it once
      // when indexed together. A plural indexed later may file its token twice; lookups skip tokens already seen.
      else if (typeof filed === "string") {
        if (filed !== token) this.byDeletion.set(key, [filed, token]);
      } else if (filed[filed.length - 1] !== token) filed.push(token);
    });
  }

  /** Known words within the allowed edits of `word` (as tokens or as written), closest and most common first; `word` itself excluded. */
  corrections(word: string, limit = 5): Correction[] {
    const allowed = maxEdits(word);
    if (allowed === 0) return [];
    this.indexPending();
    const keys = new Set<number>();
    deletionKeys(word, allowed, (key) => keys.add(key));
    const seen = new Set<string>();
    const out: Correction[] = [];
    const consider = (token: string) => {
      if (token === word || seen.has(token)) return;
      seen.add(token);
      const docs = this.docs(token);
      if (docs === 0) return;
      // Two edits when either word is long enough for two: "snikers" (7 letters) is two from "sneakers" (8).
      let distance = Infinity;
      for (const form of this.forms(token)) {
        const limit = Math.max(allowed, editsByLength(form.length));
        const d = editDistance(word, form, limit);
        if (d <= limit && d < distance) distance = d;
      }
      if (distance !== Infinity) out.push({ token, surface: this.surfaces.get(token) ?? token, distance, docs });
    };
    for (const key of keys) {
      const filed = this.byDeletion.get(key);
      if (typeof filed === "string") consider(filed);
      else if (filed) for (const token of filed) consider(token);
    }
    out.sort((a, b) => a.distance - b.distance || b.docs - a.docs || (a.token < b.token ? -1 : 1));
    return out.slice(0, limit);
  }

  /**
   * Corrections of a query word: of its folded token and of the word as typed, since plural folding can shorten
   * a misspelling ("dres" folds to "dre", too short for a typo). Up to `limit` of each, merged, closest first.
   */
  correctionsOfWord(word: Pick<QueryWord, "token" | "typed">, limit: number): Correction[] {
    const found = new Map<string, Correction>();
    for (const c of [...this.corrections(word.token, limit), ...this.corrections(word.typed, limit)]) {
      if (!found.has(c.token)) found.set(c.token, c);
    }
    return [...found.values()].sort((a, b) => a.distance - b.distance || b.docs - a.docs);
  }

  /** Estimated heap bytes: counts and written forms by word, and the deletion index. */
  memoryReport(): { words: number; deletions: number } {
    const words =
      mapBytes(this.docCount.size) +
      stringsBytes(this.docCount.keys()) +
      mapBytes(this.surfaces.size) +
      stringsBytes(this.surfaces.values()) +
      mapBytes(this.plurals.size) +
      mapBytes(this.indexed.size + this.unindexed.size + this.unindexedPlurals.size) +
      arrayBytes(this.sorted?.length ?? 0);
    let deletions = mapBytes(this.byDeletion.size);
    for (const tokens of this.byDeletion.values()) if (typeof tokens !== "string") deletions += arrayBytes(tokens.length);
    return { words, deletions };
  }
}

/** Words starting with a prefix looked at for its completion: a one-letter prefix starts thousands. */
const MAX_COMPLETIONS = 2000;

/** Look-alikes reported per word: enough that a common word two edits away is among them beside rarer ones one edit away. */
const CANDIDATES = 8;

/** The port's corrections(): for each word of a query, whether the vocabulary knows it, and its best look-alikes. */
export function queryCorrections(vocabulary: TypoVocabulary, text: string): WordCorrection[] {
  return queryWords(text).map((w) => ({
    word: w.typed,
    known: vocabulary.has(w.token),
    docs: vocabulary.docs(w.token),
    candidates: vocabulary
      .correctionsOfWord(w, CANDIDATES)
      .slice(0, CANDIDATES)
      .map((c) => ({ word: c.surface, docs: c.docs, distance: vocabulary.distanceFromTyped(w.typed, c.token) })),
    ...completionOf(vocabulary, w),
  }));
}

/** For a word the vocabulary does not hold: its most common completion, as the typed word starts it. */
function completionOf(vocabulary: TypoVocabulary, w: QueryWord): Pick<WordCorrection, "completion"> {
  if (vocabulary.has(w.token) || !fuzzyAllowed(w.typed)) return {};
  const found = vocabulary.completion(w.typed);
  return found ? { completion: { word: vocabulary.surface(found.token), docs: found.docs } } : {};
}

/** What the typo rules make of one query word (SearchEngine.corrections). */
export interface WordCorrection {
  /** The query word as typed. */
  word: string;
  /** Whether the index holds the word itself, and in how many documents. */
  known: boolean;
  docs: number;
  /**
   * Words the index holds within the typo rules, closest first, with how many documents hold each and how many
   * edits the typed word is from the nearest way the catalog writes it (at most 3).
   */
  candidates: { word: string; docs: number; distance?: number }[];
  /** For a word the index does not hold: the most common indexed word that starts with it (it may be still being typed). */
  completion?: { word: string; docs: number };
}
