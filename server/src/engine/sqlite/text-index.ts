import { FIELD_END } from "./field-tokens.ts";
import { grownTo } from "./flat-lists.ts";
import { arrayBytes, mapBytes, stringsBytes, typedBytes } from "../../lib/heap-estimate.ts";

/*
 * Which documents hold which tokens, in memory: a posting list of slots per token, and each slot's tokens in
 * order, field by field. It answers the embedded engine's text matching, which SQLite FTS5 answered before:
 * writing a product's FTS rows and merging their segments cost the main thread 40 to 80 µs per product, these
 * lists a few µs, and a store's documents are read into memory when it opens anyway.
 *
 * A query is a list of clauses that must all match; a clause matches when any of its terms does. A term is a
 * token, every token starting with a prefix, or a phrase (tokens adjacent within one field).
 */

export type Term = { token: string; prefix?: boolean } | { phrase: string[] };
export type Clause = Term[];

/**
 * A deleted slot stays in its posting lists (matching skips it) until this many wait: taking one slot out of
 * every list it is in costs a scan of each, while one sweep over all lists takes thousands out at once.
 */
const SWEEP_AFTER = 4096;

/** Scanning a candidate's sequence costs about this many list entries (a product has ~100 tokens). */
const SEQUENCE_COST = 100;

interface ResolvedClause {
  /** Posting lists whose slots match outright. */
  lists: number[][];
  /** Token ids a slot may hold to match (the lists' tokens). */
  ids: number[];
  /** Phrases as token ids, with the shortest of their parts' lists. */
  phrases: { ids: number[]; shortest: number[] }[];
  cost: number;
}

export class TextIndex {
  private readonly tokenIds = new Map<string, number>();
  private readonly tokenNames: string[] = [];
  private sortedTokens: number[] | null = null;
  private readonly postings: number[][] = [];
  /** Each slot's token ids in order, FIELD_END after each field; a deleted slot's stays until the next sweep. */
  private readonly sequences: (Uint32Array | undefined)[] = [];
  private alive = new Uint8Array(1024);
  private deadWaiting = 0;
  /** Per token, the generation that last marked it: distinct tokens and clause membership without a Set. */
  private tokenMarks = new Int32Array(1024);
  private tokenGeneration = 0;
  /** Per slot, the generation that last marked it: intersecting clauses without clearing an array per query. */
  private slotMarks = new Int32Array(1024);
  private slotGeneration = 0;

  constructor(private readonly sweepAfter = SWEEP_AFTER) {}

  /** Tokens known: every token id is below this. */
  get size(): number {
    return this.tokenNames.length;
  }

  id(token: string): number | undefined {
    return this.tokenIds.get(token);
  }

  name(id: number): string {
    return this.tokenNames[id]!;
  }

  /** The token's id, numbering it when new (ids count up from 0: a stored store's tokens are interned in id order). */
  intern(token: string): number {
    let id = this.tokenIds.get(token);
    if (id === undefined) {
      id = this.tokenNames.length;
      this.tokenNames.push(token);
      this.tokenIds.set(token, id);
      this.postings.push([]);
      this.sortedTokens = null;
    }
    return id;
  }

  private nextTokenGeneration(): number {
    if (this.tokenMarks.length < this.tokenNames.length) this.tokenMarks = grownTo(this.tokenMarks, this.tokenNames.length);
    return ++this.tokenGeneration;
  }

  /** A text's token sequence: each field's token ids, FIELD_END after each field. */
  sequenceOf(fields: readonly (readonly string[])[]): Uint32Array {
    let length = 0;
    for (const tokens of fields) length += tokens.length + 1;
    const sequence = new Uint32Array(length);
    let at = 0;
    for (const tokens of fields) {
      for (const token of tokens) sequence[at++] = this.intern(token);
      sequence[at++] = FIELD_END;
    }
    return sequence;
  }

  /** Indexes a slot's text (its fields' tokens) in place of what it held; returns its token sequence. */
  put(slot: number, fields: readonly (readonly string[])[]): Uint32Array {
    const sequence = this.sequenceOf(fields);
    this.putSequence(slot, sequence);
    return sequence;
  }

  /**
   * Indexes a slot's token sequence (sequenceOf, or as stored) in place of what it held. Replacing a live slot's
   * text touches only the lists of tokens that came or went.
   */
  putSequence(slot: number, next: Uint32Array): void {
    const previous = this.sequences[slot];
    const wasAlive = slot < this.alive.length && this.alive[slot] === 1;
    if (previous && !wasAlive) {
      this.unlist(slot, previous);
      this.deadWaiting--;
    }
    const kept = this.nextTokenGeneration();
    if (previous && wasAlive) for (let i = 0; i < previous.length; i++) if (previous[i] !== FIELD_END) this.tokenMarks[previous[i]!] = kept;
    const added = this.nextTokenGeneration();
    for (let i = 0; i < next.length; i++) {
      const id = next[i]!;
      if (id === FIELD_END || this.tokenMarks[id] === added) continue;
      if (this.tokenMarks[id] !== kept) this.postings[id]!.push(slot);
      this.tokenMarks[id] = added;
    }
    // What is still marked `kept` was only in the old text.
    if (previous && wasAlive) {
      for (let i = 0; i < previous.length; i++) {
        const id = previous[i]!;
        if (id !== FIELD_END && this.tokenMarks[id] === kept) {
          removeFrom(this.postings[id]!, slot);
          this.tokenMarks[id] = added;
        }
      }
    }
    this.sequences[slot] = next;
    if (slot >= this.alive.length) this.alive = grownTo(this.alive, slot + 1);
    this.alive[slot] = 1;
  }

  /** Marks a slot deleted; its posting entries go at the next sweep. */
  delete(slot: number): void {
    if (this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    if (++this.deadWaiting >= this.sweepAfter) this.sweep();
  }

  /** Calls `visit` with each token of a sequence once, at its first place: distinct tokens without a Set. */
  forEachDistinct(sequence: Uint32Array, visit: (id: number, at: number) => void): void {
    const generation = this.nextTokenGeneration();
    for (let i = 0; i < sequence.length; i++) {
      const id = sequence[i]!;
      if (id === FIELD_END || this.tokenMarks[id] === generation) continue;
      this.tokenMarks[id] = generation;
      visit(id, i);
    }
  }

  /** The distinct tokens of a live slot. */
  tokensOf(slot: number): string[] {
    const sequence = this.alive[slot] === 1 ? this.sequences[slot] : undefined;
    const out: string[] = [];
    if (sequence) this.forEachDistinct(sequence, (id) => out.push(this.tokenNames[id]!));
    return out;
  }

  private unlist(slot: number, sequence: Uint32Array): void {
    this.forEachDistinct(sequence, (id) => removeFrom(this.postings[id]!, slot));
  }

  private sweep(): void {
    const alive = this.alive;
    for (let id = 0; id < this.postings.length; id++) {
      const list = this.postings[id]!;
      let n = 0;
      for (let i = 0; i < list.length; i++) if (alive[list[i]!] === 1) list[n++] = list[i]!;
      list.length = n;
    }
    for (let slot = 0; slot < this.sequences.length; slot++) if (alive[slot] !== 1) this.sequences[slot] = undefined;
    this.deadWaiting = 0;
  }

  /** Ids of every known token starting with `prefix`, through a sorted view rebuilt after new tokens. */
  tokensStartingWith(prefix: string): number[] {
    if (!this.sortedTokens) {
      const names = this.tokenNames;
      this.sortedTokens = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : 1));
    }
    const sorted = this.sortedTokens;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.tokenNames[sorted[mid]!]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < sorted.length && this.tokenNames[sorted[i]!]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }

  /** Live slots matching every clause, in no particular order. */
  match(clauses: readonly Clause[]): number[] {
    if (clauses.length === 0) return [];
    const resolved = clauses.map((c) => this.resolve(c)).sort((a, b) => a.cost - b.cost);
    if (this.slotMarks.length < this.sequences.length) this.slotMarks = grownTo(this.slotMarks, this.sequences.length);
    let candidates = this.firstCandidates(resolved[0]!);
    for (let c = 1; c < resolved.length && candidates.length > 0; c++) {
      const clause = resolved[c]!;
      if (clause.cost <= candidates.length * SEQUENCE_COST) {
        const generation = this.markClause(clause, candidates);
        candidates = candidates.filter((slot) => this.slotMarks[slot] === generation);
      } else {
        const generation = this.nextTokenGeneration();
        for (const id of clause.ids) this.tokenMarks[id] = generation;
        candidates = candidates.filter((slot) => this.holds(slot, clause, generation));
      }
    }
    return candidates;
  }

  private resolve(clause: Clause): ResolvedClause {
    const out: ResolvedClause = { lists: [], ids: [], phrases: [], cost: 0 };
    const addToken = (id: number | undefined) => {
      if (id === undefined) return;
      out.ids.push(id);
      out.lists.push(this.postings[id]!);
      out.cost += this.postings[id]!.length;
    };
    for (const term of clause) {
      if ("phrase" in term) {
        const ids = term.phrase.map((t) => this.tokenIds.get(t));
        if (ids.some((id) => id === undefined)) continue;
        const lists = (ids as number[]).map((id) => this.postings[id]!);
        const shortest = lists.reduce((a, b) => (b.length < a.length ? b : a));
        out.phrases.push({ ids: ids as number[], shortest });
        out.cost += shortest.length;
      } else if (term.prefix) {
        for (const id of this.tokensStartingWith(term.token)) addToken(id);
      } else {
        addToken(this.tokenIds.get(term.token));
      }
    }
    return out;
  }

  private firstCandidates(clause: ResolvedClause): number[] {
    const generation = ++this.slotGeneration;
    const marks = this.slotMarks;
    const alive = this.alive;
    const out: number[] = [];
    for (const list of clause.lists) {
      for (let i = 0; i < list.length; i++) {
        const slot = list[i]!;
        if (marks[slot] === generation || alive[slot] !== 1) continue;
        marks[slot] = generation;
        out.push(slot);
      }
    }
    for (const phrase of clause.phrases) {
      for (const slot of phrase.shortest) {
        if (marks[slot] === generation || alive[slot] !== 1 || !this.hasPhrase(slot, phrase.ids)) continue;
        marks[slot] = generation;
        out.push(slot);
      }
    }
    return out;
  }

  /** Marks the slots of a clause's lists, and those candidates that hold one of its phrases. */
  private markClause(clause: ResolvedClause, candidates: number[]): number {
    const generation = ++this.slotGeneration;
    const marks = this.slotMarks;
    for (const list of clause.lists) for (let i = 0; i < list.length; i++) marks[list[i]!] = generation;
    if (clause.phrases.length) {
      for (const slot of candidates) {
        if (marks[slot] !== generation && clause.phrases.some((p) => this.hasPhrase(slot, p.ids))) marks[slot] = generation;
      }
    }
    return generation;
  }

  /** Whether a slot holds a token of the clause (those marked `generation`) or one of its phrases. */
  private holds(slot: number, clause: ResolvedClause, generation: number): boolean {
    const sequence = this.sequences[slot]!;
    for (let i = 0; i < sequence.length; i++) if (sequence[i] !== FIELD_END && this.tokenMarks[sequence[i]!] === generation) return true;
    return clause.phrases.some((p) => this.hasPhrase(slot, p.ids));
  }

  private hasPhrase(slot: number, ids: number[]): boolean {
    const sequence = this.sequences[slot]!;
    const last = sequence.length - ids.length;
    outer: for (let i = 0; i <= last; i++) {
      for (let k = 0; k < ids.length; k++) if (sequence[i + k] !== ids[k]) continue outer;
      return true;
    }
    return false;
  }

  /** Estimated heap bytes: posting lists, each slot's token sequence, and the token dictionary. */
  memoryReport(): { postings: number; sequences: number; dictionary: number } {
    let postings = arrayBytes(this.postings.length);
    for (const list of this.postings) postings += arrayBytes(list.length);
    let sequences = arrayBytes(this.sequences.length) + this.alive.byteLength + this.slotMarks.byteLength;
    for (const sequence of this.sequences) sequences += typedBytes(sequence);
    const dictionary =
      stringsBytes(this.tokenNames) + arrayBytes(this.tokenNames.length) + mapBytes(this.tokenIds.size) + this.tokenMarks.byteLength;
    return { postings, sequences, dictionary };
  }
}

/** Takes a slot out of an unordered list: the last entry fills its place. */
function removeFrom(list: number[], slot: number): void {
  const i = list.indexOf(slot);
  if (i < 0) return;
  list[i] = list[list.length - 1]!;
  list.pop();
}
