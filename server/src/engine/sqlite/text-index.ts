import { FIELD_END } from "./field-tokens.ts";
import { FlatLists, grownTo } from "./flat-lists.ts";
import { arrayBytes, typedBytes } from "../../lib/heap-estimate.ts";
import { Lexicon } from "../../text/lexicon.ts";

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
 * every list it is in costs a scan of each, while one rebuild of all lists takes thousands out at once.
 */
const SWEEP_AFTER = 4096;

/**
 * Slots added to lists since they were built are rebuilt into them once they are this share of what the lists
 * hold (or REBUILD_MIN): a rebuild copies every list, so geometric steps keep a bulk's cost linear.
 */
const REBUILD_SHARE = 1 / 4;
const REBUILD_MIN = 4096;

/** Ends a field in 16-bit sequences: FIELD_END cut to 16 bits (as Uint16Array.set cuts it). */
const NARROW_FIELD_END = 0xffff;

/** Scanning a candidate's sequence costs about this many list entries (a product has ~100 tokens). */
const SEQUENCE_COST = 100;

/**
 * A list this many times as long as the candidates is galloped through (keptListed), a shorter one marked: where
 * both are alike, marking's plain writes cost less than galloping's branches.
 */
const GALLOP_FROM = 4;

interface ResolvedClause {
  /** Tokens whose slots match outright (their posting lists). */
  ids: number[];
  /** Phrases as token ids, with the token of the shortest posting list among them. */
  phrases: { ids: number[]; shortest: number }[];
  cost: number;
}

/*
 * Posting lists are built in one flat array from the live slots' sequences, a range per token; a slot indexed
 * after that goes in a short JS array of its token's until the next rebuild. Per-token JS arrays of numbers cost
 * 8 bytes a slot plus room to grow; the flat array costs 4. A rebuild copies every list once (REBUILD_SHARE
 * keeps that rare). A token's range of the flat array is ascending, so that a word's list intersects candidates
 * in slot order by galloping through it (match).
 */
export class TextIndex {
  /** Token ids: a stored store's tokens are interned in id order. */
  readonly words = new Lexicon();
  /** Every token's slots: token t's are listed[listStart[t]] up to listStart[t] + listLength[t]. */
  private listed = new Uint32Array(0);
  private listStart = new Uint32Array(0);
  private listLength = new Uint32Array(0);
  /** Slots added to each token's list since the lists were built. */
  private added: (number[] | undefined)[] = [];
  private addedCount = 0;
  /**
   * Each slot's token ids in order, `fieldEnd` after each field; a deleted slot's stays until the next rebuild.
   * 16-bit while the ids fit (a catalog's words are tens of thousands, its products' tokens ~50 each), 32-bit after.
   */
  private readonly sequences = new FlatLists<Uint16Array | Uint32Array>(new Uint16Array(1 << 12));
  /** FIELD_END as the sequences hold it: every number from it up ends a field, in them and in a 32-bit sequence. */
  private fieldEnd = NARROW_FIELD_END;
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
    return this.words.size;
  }

  id(token: string): number | undefined {
    return this.words.id(token);
  }

  name(id: number): string {
    return this.words.word(id);
  }

  /** The token's id, numbering it when new (ids count up from 0: a stored store's tokens are interned in id order). */
  intern(token: string): number {
    return this.words.intern(token);
  }

  private nextTokenGeneration(): number {
    if (this.tokenMarks.length < this.words.size) this.tokenMarks = grownTo(this.tokenMarks, this.words.size);
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
   * Indexes a slot's token sequence (sequenceOf, or as stored) in place of what it held; the sequence is copied.
   * Replacing a live slot's text touches only the lists of tokens that came or went.
   */
  putSequence(slot: number, next: ArrayLike<number>): void {
    if (this.fieldEnd === NARROW_FIELD_END && this.words.size >= NARROW_FIELD_END) this.widen();
    // A view of the flat array, read before the slot's new sequence is written there.
    const previous = this.sequences.of(slot);
    const wasAlive = slot < this.alive.length && this.alive[slot] === 1;
    if (previous.length && !wasAlive) {
      this.unlist(slot, previous);
      this.deadWaiting--;
    }
    const end = this.fieldEnd;
    const kept = this.nextTokenGeneration();
    if (wasAlive) for (let i = 0; i < previous.length; i++) if (previous[i]! < end) this.tokenMarks[previous[i]!] = kept;
    const added = this.nextTokenGeneration();
    for (let i = 0; i < next.length; i++) {
      const id = next[i]!;
      if (id >= end || this.tokenMarks[id] === added) continue;
      if (this.tokenMarks[id] !== kept) this.list(id, slot);
      this.tokenMarks[id] = added;
    }
    // What is still marked `kept` was only in the old text.
    if (wasAlive) {
      for (let i = 0; i < previous.length; i++) {
        const id = previous[i]!;
        if (id < end && this.tokenMarks[id] === kept) {
          this.unlistToken(id, slot);
          this.tokenMarks[id] = added;
        }
      }
    }
    this.sequences.set(slot, next);
    if (slot >= this.alive.length) this.alive = grownTo(this.alive, slot + 1);
    this.alive[slot] = 1;
    if (this.addedCount > Math.max(REBUILD_MIN, this.listed.length * REBUILD_SHARE)) this.rebuild();
  }

  /** Marks a slot deleted; its posting entries go at the next rebuild. */
  delete(slot: number): void {
    if (this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    if (++this.deadWaiting >= this.sweepAfter) this.rebuild();
  }

  /** The sequences as 32-bit numbers, before a token id reaches 16 bits' field end. */
  private widen(): void {
    const narrow = this.sequences.data;
    const wide = new Uint32Array(narrow.length);
    for (let i = 0; i < narrow.length; i++) wide[i] = narrow[i] === NARROW_FIELD_END ? FIELD_END : narrow[i]!;
    this.sequences.data = wide;
    this.fieldEnd = FIELD_END;
  }

  /**
   * Calls `visit` with each token of a sequence (held, or 32-bit as sequenceOf makes them) once, at its first
   * place: distinct tokens without a Set.
   */
  forEachDistinct(sequence: ArrayLike<number>, visit: (id: number, at: number) => void): void {
    const generation = this.nextTokenGeneration();
    const end = this.fieldEnd;
    for (let i = 0; i < sequence.length; i++) {
      const id = sequence[i]!;
      if (id >= end || this.tokenMarks[id] === generation) continue;
      this.tokenMarks[id] = generation;
      visit(id, i);
    }
  }

  /** The distinct tokens of a live slot. */
  tokensOf(slot: number): string[] {
    const out: string[] = [];
    if (this.alive[slot] === 1) this.forEachDistinct(this.sequences.of(slot), (id) => out.push(this.words.word(id)));
    return out;
  }

  private list(id: number, slot: number): void {
    while (this.added.length <= id) this.added.push(undefined);
    (this.added[id] ??= []).push(slot);
    this.addedCount++;
  }

  private unlist(slot: number, sequence: ArrayLike<number>): void {
    this.forEachDistinct(sequence, (id) => this.unlistToken(id, slot));
  }

  /** Takes a slot out of a token's list: the last entry of its part fills its place. */
  private unlistToken(id: number, slot: number): void {
    if (id < this.listLength.length) {
      const from = this.listStart[id]!;
      const last = from + this.listLength[id]! - 1;
      const at = this.listed.subarray(from, last + 1).indexOf(slot);
      if (at >= 0) {
        // Shifted, not swapped with the last: the range stays ascending.
        this.listed.copyWithin(from + at, from + at + 1, last + 1);
        this.listLength[id]!--;
        return;
      }
    }
    const extra = this.added[id];
    const at = extra ? extra.indexOf(slot) : -1;
    if (at < 0) return;
    extra![at] = extra![extra!.length - 1]!;
    extra!.pop();
    this.addedCount--;
  }

  /**
   * Merges each token's added slots into its range of one new flat array, leaving out deleted slots, and drops
   * the deleted slots' sequences.
   */
  private rebuild(): void {
    const alive = this.alive;
    const tokens = this.words.size;
    let most = 0;
    for (let id = 0; id < tokens; id++) most += this.listSize(id);
    const listed = new Uint32Array(most);
    const listStart = new Uint32Array(tokens);
    const listLength = new Uint32Array(tokens);
    let at = 0;
    for (let id = 0; id < tokens; id++) {
      listStart[id] = at;
      if (id < this.listLength.length) {
        for (let i = this.listStart[id]!, to = i + this.listLength[id]!; i < to; i++) {
          const slot = this.listed[i]!;
          if (alive[slot] === 1) listed[at++] = slot;
        }
      }
      const extra = this.added[id];
      if (extra) for (const slot of extra) if (alive[slot] === 1) listed[at++] = slot;
      // Slots added in order (a store written in order) follow the range's; a rewritten document's do not.
      if (!ascending(listed, listStart[id]!, at)) listed.subarray(listStart[id]!, at).sort();
      listLength[id] = at - listStart[id]!;
    }
    this.listed = at < most ? listed.slice(0, at) : listed;
    this.listStart = listStart;
    this.listLength = listLength;
    this.added = [];
    this.addedCount = 0;
    for (let slot = 0; slot < this.sequences.slots; slot++) if (alive[slot] !== 1) this.sequences.clear(slot);
    this.deadWaiting = 0;
  }

  /** Ids of every known token starting with `prefix`. */
  tokensStartingWith(prefix: string): number[] {
    return this.words.startingWith(prefix);
  }

  /** Slots in a token's list (live or not). */
  private listSize(id: number): number {
    return (this.listLength[id] ?? 0) + (this.added[id]?.length ?? 0);
  }

  /** Calls `visit` with each slot in a token's list. */
  private forEachListed(id: number, visit: (slot: number) => void): void {
    const listed = this.listed;
    if (id < this.listLength.length) for (let i = this.listStart[id]!, to = i + this.listLength[id]!; i < to; i++) visit(listed[i]!);
    const extra = this.added[id];
    if (extra) for (let i = 0; i < extra.length; i++) visit(extra[i]!);
  }

  /** Live slots matching every clause, in no particular order. */
  match(clauses: readonly Clause[]): number[] {
    if (clauses.length === 0) return [];
    const resolved = clauses.map((c) => this.resolve(c)).sort((a, b) => a.cost - b.cost);
    if (this.slotMarks.length < this.sequences.slots) this.slotMarks = grownTo(this.slotMarks, this.sequences.slots);
    let candidates = this.firstCandidates(resolved[0]!);
    // Kept in order by every step below; checked once, when a clause would gallop.
    let inOrder: boolean | undefined;
    for (let c = 1; c < resolved.length && candidates.length > 0; c++) {
      const clause = resolved[c]!;
      const gallops = clause.ids.length === 1 && clause.phrases.length === 0 && clause.cost >= candidates.length * GALLOP_FROM;
      if (gallops && (inOrder ??= ascending(candidates, 0, candidates.length))) {
        candidates = this.keptListed(candidates, clause.ids[0]!);
      } else if (clause.cost <= candidates.length * SEQUENCE_COST) {
        const generation = this.markClause(clause, candidates);
        candidates = kept(candidates, this.slotMarks, generation);
      } else {
        const generation = this.nextTokenGeneration();
        for (const id of clause.ids) this.tokenMarks[id] = generation;
        candidates = candidates.filter((slot) => this.holds(slot, clause, generation));
      }
    }
    return candidates;
  }

  private resolve(clause: Clause): ResolvedClause {
    const out: ResolvedClause = { ids: [], phrases: [], cost: 0 };
    const addToken = (id: number | undefined) => {
      if (id === undefined) return;
      out.ids.push(id);
      out.cost += this.listSize(id);
    };
    for (const term of clause) {
      if ("phrase" in term) {
        const ids = term.phrase.map((t) => this.words.id(t));
        if (ids.some((id) => id === undefined)) continue;
        const shortest = (ids as number[]).reduce((a, b) => (this.listSize(b) < this.listSize(a) ? b : a));
        out.phrases.push({ ids: ids as number[], shortest });
        out.cost += this.listSize(shortest);
      } else if (term.prefix) {
        for (const id of this.words.startingWith(term.token)) addToken(id);
      } else {
        addToken(this.words.id(term.token));
      }
    }
    return out;
  }

  /** The live slots of a clause's lists, each once, read in plain loops (a broad word lists a tenth of a large store). */
  private firstCandidates(clause: ResolvedClause): number[] {
    const { slotMarks: marks, alive, listed, listStart, listLength } = this;
    const out: number[] = [];
    // One token's list holds each slot once: nothing to mark, which spares a write per slot scattered over the store.
    if (clause.ids.length === 1 && clause.phrases.length === 0) {
      const id = clause.ids[0]!;
      if (id < listLength.length)
        for (let i = listStart[id]!, to = i + listLength[id]!; i < to; i++) if (alive[listed[i]!] === 1) out.push(listed[i]!);
      const extra = this.added[id];
      if (extra) for (let i = 0; i < extra.length; i++) if (alive[extra[i]!] === 1) out.push(extra[i]!);
      return out;
    }
    const generation = ++this.slotGeneration;
    const take = (list: ArrayLike<number>, from: number, to: number) => {
      for (let i = from; i < to; i++) {
        const slot = list[i]!;
        if (marks[slot] === generation || alive[slot] !== 1) continue;
        marks[slot] = generation;
        out.push(slot);
      }
    };
    for (const id of clause.ids) {
      if (id < listLength.length) take(listed, listStart[id]!, listStart[id]! + listLength[id]!);
      const extra = this.added[id];
      if (extra) take(extra, 0, extra.length);
    }
    for (const phrase of clause.phrases) {
      this.forEachListed(phrase.shortest, (slot) => {
        if (marks[slot] !== generation && alive[slot] === 1 && this.hasPhrase(slot, phrase.ids)) {
          marks[slot] = generation;
          out.push(slot);
        }
      });
    }
    return out;
  }

  /**
   * The candidates (ascending) in a token's list, kept in place. They gallop through its ascending range of the
   * flat array, and its added slots are marked: marking the whole list wrote a mark per slot the word has
   * (two broad words at a million products, hundreds of thousands), where galloping reads about
   * log2(list / candidates) entries per candidate.
   */
  private keptListed(candidates: number[], id: number): number[] {
    const generation = ++this.slotGeneration;
    const { slotMarks: marks, listed } = this;
    const extra = this.added[id];
    if (extra) for (let i = 0; i < extra.length; i++) marks[extra[i]!] = generation;
    let lo = id < this.listLength.length ? this.listStart[id]! : 0;
    const to = id < this.listLength.length ? lo + this.listLength[id]! : 0;
    let n = 0;
    for (let i = 0; i < candidates.length; i++) {
      const slot = candidates[i]!;
      // Every entry before lo is below slot: gallop to an entry at or past it, then bisect what was skipped.
      let hi = lo;
      for (let step = 1; hi < to && listed[hi]! < slot; step *= 2) {
        lo = hi + 1;
        hi += step;
      }
      if (hi > to) hi = to;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (listed[mid]! < slot) lo = mid + 1;
        else hi = mid;
      }
      if ((lo < to && listed[lo] === slot) || marks[slot] === generation) candidates[n++] = slot;
    }
    candidates.length = n;
    return candidates;
  }

  /** Marks the slots of a clause's lists, and those candidates that hold one of its phrases. */
  private markClause(clause: ResolvedClause, candidates: number[]): number {
    const generation = ++this.slotGeneration;
    const { slotMarks: marks, listed, listStart, listLength } = this;
    for (const id of clause.ids) {
      if (id < listLength.length) for (let i = listStart[id]!, to = i + listLength[id]!; i < to; i++) marks[listed[i]!] = generation;
      const extra = this.added[id];
      if (extra) for (let i = 0; i < extra.length; i++) marks[extra[i]!] = generation;
    }
    if (clause.phrases.length) {
      for (const slot of candidates) {
        if (marks[slot] !== generation && clause.phrases.some((p) => this.hasPhrase(slot, p.ids))) marks[slot] = generation;
      }
    }
    return generation;
  }

  /** Whether a slot holds a token of the clause (those marked `generation`) or one of its phrases. */
  private holds(slot: number, clause: ResolvedClause, generation: number): boolean {
    const { data, start, length } = this.sequences;
    const end = this.fieldEnd;
    for (let i = start[slot]!, to = i + length[slot]!; i < to; i++)
      if (data[i]! < end && this.tokenMarks[data[i]!] === generation) return true;
    return clause.phrases.some((p) => this.hasPhrase(slot, p.ids));
  }

  private hasPhrase(slot: number, ids: number[]): boolean {
    const { data, start, length } = this.sequences;
    const from = start[slot]!;
    const last = from + length[slot]! - ids.length;
    outer: for (let i = from; i <= last; i++) {
      for (let k = 0; k < ids.length; k++) if (data[i + k] !== ids[k]) continue outer;
      return true;
    }
    return false;
  }

  /** Estimated heap bytes: posting lists, each slot's token sequence, and the token dictionary. */
  memoryReport(): { postings: number; sequences: number; dictionary: number } {
    let postings = typedBytes(this.listed) + typedBytes(this.listStart) + typedBytes(this.listLength) + arrayBytes(this.added.length);
    for (const list of this.added) if (list) postings += arrayBytes(list.length);
    const sequences = this.sequences.memoryBytes() + this.alive.byteLength + this.slotMarks.byteLength;
    return { postings, sequences, dictionary: this.words.memoryBytes() + this.tokenMarks.byteLength };
  }
}

/** Whether list[from] up to list[to] ascend strictly. */
function ascending(list: ArrayLike<number>, from: number, to: number): boolean {
  for (let i = from + 1; i < to; i++) if (list[i]! <= list[i - 1]!) return false;
  return true;
}

/** The candidates marked `generation`, in order, kept in place. */
function kept(candidates: number[], marks: Int32Array, generation: number): number[] {
  let n = 0;
  for (let i = 0; i < candidates.length; i++) if (marks[candidates[i]!] === generation) candidates[n++] = candidates[i]!;
  candidates.length = n;
  return candidates;
}
