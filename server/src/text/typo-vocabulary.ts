/*
 * The words a store's index knows, with how many documents hold each, and a deletion index (the SymSpell
 * idea) so the words within one or two edits of a typed word are found by lookups instead of a scan over the
 * whole vocabulary. Rules: one edit from 4 letters, two from 8; a transposition counts as one edit. Words
 * longer than MAX_FUZZY_LETTERS get none: a word's deletions grow with its length squared.
 */

import { grownTo } from "../lib/grown-to.ts";
import { fnv1a, HashIds } from "../lib/hash-ids.ts";
import { arrayBytes, mapBytes, stringBytes, stringsBytes, typedBytes } from "../lib/heap-estimate.ts";
import { Lexicon } from "./lexicon.ts";
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

/**
 * Calls `visit` with the key of a word and of every word made by deleting up to `depth` (at most 2) of its
 * characters, none shorter than one. Keys are hashes, not the shorter strings: making and hashing those strings
 * was most of the cost of indexing a vocabulary (0.6-0.8 s for the demo catalog's). Two deletions that collide
 * only bring an extra candidate, which the edit distance then turns away. A key may come more than once.
 */
function deletionKeys(word: string, depth: number, visit: (key: number) => void): void {
  visit(fnv1a(word));
  if (depth === 0 || word.length <= 1) return;
  for (let i = 0; i < word.length; i++) {
    visit(fnv1a(word, i));
    if (depth >= 2 && word.length > 2) for (let j = i + 1; j < word.length; j++) visit(fnv1a(word, i, j));
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
  /** The words, by id: a store's text index shares its own, so that each word is held once. */
  private readonly words: Lexicon;
  private readonly ownsWords: boolean;
  /** Documents holding each word, by id. */
  private counts = new Int32Array(256);
  /** How each word was first written (what a correction shows), by id; undefined until it is counted. */
  private readonly surfaces: (string | undefined)[] = [];
  /** The plural written form of words first seen singular, matched by corrections too. */
  private readonly plurals = new Map<number, string>();
  /**
   * Word ids by deletion key. A Map of the demo catalog's half a million keys held 28 MB of heap; this table
   * holds 8 MB.
   */
  private readonly byDeletion = new HashIds(12);
  /** Words whose deletions are indexed (1); a word stays indexed after its last document is gone (lookups check counts). */
  private indexed = new Uint8Array(256);
  /** Words counted but perhaps not yet in the deletion index, from `pendingAt` on: it is built on the first lookup, not at load. */
  private pending: number[] = [];
  private pendingAt = 0;
  /** Indexed words whose plural written form was seen since: only that form's deletions are still to index. */
  private readonly pendingPlurals = new Set<number>();

  constructor(words?: Lexicon) {
    this.words = words ?? new Lexicon();
    this.ownsWords = !words;
  }

  has(token: string): boolean {
    return this.docs(token) > 0;
  }

  docs(token: string): number {
    const id = this.words.id(token);
    return id === undefined ? 0 : (this.counts[id] ?? 0);
  }

  /**
   * Edits from a word as typed to the nearest written form of `token` (capped at 3): "snikers" is two from
   * "sniper" though its folded form "sniker" is one, and "desses" one from "dresses" though three from "dress".
   */
  distanceFromTyped(typed: string, token: string): number {
    const id = this.words.id(token);
    let best = 3;
    for (const form of id === undefined ? [token] : this.forms(id)) best = Math.min(best, editDistance(typed, form, best));
    return best;
  }

  /** How a word was first written ("jeans" for the token "jean"). */
  surface(token: string): string {
    const id = this.words.id(token);
    return (id === undefined ? undefined : this.surfaces[id]) ?? token;
  }

  /** Counts one more (or, with -1, one fewer) document holding each of `tokens`. */
  count(tokens: Iterable<[string, string]>, delta: 1 | -1): void {
    for (const [token, surface] of tokens) this.countWord(token, surface, delta);
  }

  /** Counts one more (or, with -1, one fewer) document holding `token`, written `surface` there. */
  countWord(token: string, surface: string, delta: 1 | -1): void {
    const id = delta > 0 ? this.words.intern(token) : this.words.id(token);
    if (id !== undefined) this.countId(id, surface, delta);
  }

  /** countWord by the word's id in the lexicon this vocabulary was made with (a store's index counts its own so). */
  countId(id: number, surface: string, delta: 1 | -1): void {
    const token = this.words.word(id);
    if (id >= this.counts.length) {
      this.counts = grownTo(this.counts, id + 1);
      this.indexed = grownTo(this.indexed, id + 1);
    }
    const before = this.counts[id]!;
    const after = before + delta;
    if (after <= 0) {
      this.counts[id] = 0;
      return;
    }
    this.counts[id] = after;
    // A word already counted has its surface and is indexed or pending: this runs per word of every document.
    // A word first seen singular also gets its plural written form looked up: "snikers" is two edits from
    // "sneakers" but three from "sneaker".
    if (before > 0) {
      if (surface !== token && !this.plurals.has(id) && this.surfaces[id] === token) {
        this.plurals.set(id, surface);
        if (this.indexed[id] === 1) this.pendingPlurals.add(id);
      }
      return;
    }
    while (this.surfaces.length <= id) this.surfaces.push(undefined);
    this.surfaces[id] ??= surface;
    if (this.indexed[id] !== 1) this.pending.push(id);
  }

  /**
   * The most common word the index holds that starts with `prefix` and is longer (a word the shopper may still be
   * typing), looking at the first MAX_COMPLETIONS such words; null when there is none.
   */
  completion(prefix: string): { token: string; docs: number } | null {
    let best: { token: string; docs: number } | null = null;
    for (const id of this.words.startingWith(prefix, MAX_COMPLETIONS + 1)) {
      const docs = this.counts[id] ?? 0;
      if (docs > (best?.docs ?? 0) && this.words.word(id) !== prefix) best = { token: this.words.word(id), docs };
    }
    return best;
  }

  /**
   * Indexes the deletions of the words counted since the last call (corrections() calls it first), or of at most
   * `limit` of them; returns whether some are left.
   */
  indexPending(limit = Infinity): boolean {
    let done = 0;
    while (this.pendingAt < this.pending.length) {
      if (done++ >= limit) return true;
      this.indexDeletions(this.pending[this.pendingAt++]!);
    }
    this.pending = [];
    this.pendingAt = 0;
    for (const id of this.pendingPlurals) {
      if (done++ >= limit) return true;
      this.indexForm(id, this.plurals.get(id)!);
      this.pendingPlurals.delete(id);
    }
    return false;
  }

  /** The forms a typed word is compared with: the token, how it was first written, and its plural if seen. */
  private forms(id: number): string[] {
    const out = [this.words.word(id)];
    for (const form of [this.surfaces[id], this.plurals.get(id)]) if (form && !out.includes(form)) out.push(form);
    return out;
  }

  /**
   * Deletions of the token and of its written forms (forms()): "soks" is one edit from "socks" but two
   * from its token "sock".
   */
  private indexDeletions(id: number): void {
    if (this.indexed[id] === 1) return;
    this.indexed[id] = 1;
    this.pendingPlurals.delete(id);
    for (const form of this.forms(id)) this.indexForm(id, form);
  }

  /** Files word `id` under the deletions of one of its forms, once under each key. */
  private indexForm(id: number, form: string): void {
    // Two edits from the longest corrected word at most: a longer word is never anyone's look-alike.
    if (form.length > MAX_FUZZY_LETTERS + 2) return;
    deletionKeys(form, editsByLength(form.length) || (form.length >= 3 ? 1 : 0), (key) => {
      if (this.byDeletion.find(key, (filed) => filed === id) < 0) this.byDeletion.add(key, id);
    });
  }

  /** Known words within the allowed edits of `word` (as tokens or as written), closest and most common first; `word` itself excluded. */
  corrections(word: string, limit = 5): Correction[] {
    const allowed = maxEdits(word);
    if (allowed === 0) return [];
    this.indexPending();
    const keys = new Set<number>();
    deletionKeys(word, allowed, (key) => keys.add(key));
    const seen = new Set<number>();
    const out: Correction[] = [];
    const consider = (id: number) => {
      const token = this.words.word(id);
      if (token === word || seen.has(id)) return;
      seen.add(id);
      const docs = this.counts[id] ?? 0;
      if (docs === 0) return;
      // Two edits when either word is long enough for two: "snikers" (7 letters) is two from "sneakers" (8).
      let distance = Infinity;
      for (const form of this.forms(id)) {
        const limit = Math.max(allowed, editsByLength(form.length));
        const d = editDistance(word, form, limit);
        if (d <= limit && d < distance) distance = d;
      }
      if (distance !== Infinity) out.push({ token, surface: this.surfaces[id] ?? token, distance, docs });
    };
    for (const key of keys) this.byDeletion.forEach(key, consider);
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

  /** Estimated heap bytes: counts and written forms by word (and the words, unless shared), and the deletion index. */
  memoryReport(): { words: number; deletions: number } {
    let written = 0;
    for (let id = 0; id < this.surfaces.length; id++) {
      const surface = this.surfaces[id];
      if (surface !== undefined && surface !== this.words.word(id)) written += stringBytes(surface);
    }
    const words =
      typedBytes(this.counts) +
      typedBytes(this.indexed) +
      arrayBytes(this.surfaces.length) +
      written +
      mapBytes(this.plurals.size) +
      stringsBytes(this.plurals.values()) +
      arrayBytes(this.pending.length) +
      mapBytes(this.pendingPlurals.size) +
      (this.ownsWords ? this.words.memoryBytes() : 0);
    return { words, deletions: this.byDeletion.memoryBytes() };
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
