import { typedBytes } from "../../lib/heap-estimate.ts";
import { FlatLists, grownTo } from "./flat-lists.ts";

/**
 * Each slot's sorted facet value ids in a row of its own at a fixed place (slot * ROW). Counting a broad query's
 * facets reads the values of tens of thousands of documents spread over the store, each a cache miss, and one
 * after another those misses were nearly all of counting's time. A row's place needs no read to find (a list of
 * any length, FlatLists, is found through where it starts), so counting first reads the counts of the next
 * BATCH rows in one short loop, which the processor fetches all at once, then counts their values from the cache:
 * measured alone at 300,000 products, 37,000 matches spread over the store counted in 1.2–3.5 ms against
 * 3.1–18 ms from lists (the machine shared), 12,900 in 0.28 against 0.51 ms; past a quarter of the store matched,
 * where lists are read nearly in order anyway, 20–60% slower (docs/capacity.md, "What a search costs on a large store"). A demo product holds
 * about 24 values (99.5% at most 31): a row of 32 16-bit cells is one 64-byte cache line; the rare longer list is
 * kept in `overflow`.
 */
const ROW = 32;
/** A row's count cell holding this: the slot's values are its overflow list. */
const OVERFLOWS = ROW;
/** Rows whose counts are read ahead together: enough misses to keep the processor's outstanding reads busy. */
const BATCH = 16;
/** Rows grow by this factor (as FlatLists' numbers do): they hold one row per slot the store ever used. */
const GROWTH = 1.25;

export class FacetRows {
  /** Row s: cells[s * ROW] values follow, or OVERFLOWS. 16-bit until a value id needs more (widen). */
  private cells: Uint16Array | Uint32Array = new Uint16Array(1024 * ROW);
  private readonly overflow = new FlatLists();
  /** The counts of the rows being counted (readAhead). */
  private readonly ahead = new Int32Array(BATCH);

  /** Called before a value id above 0xffff is written. */
  widen(): void {
    if (this.cells instanceof Uint16Array) this.cells = Uint32Array.from(this.cells);
  }

  set(slot: number, values: ArrayLike<number>): void {
    const base = slot * ROW;
    if (base + ROW > this.cells.length) this.cells = grownTo(this.cells, base + ROW, GROWTH);
    this.overflow.clear(slot);
    if (values.length < ROW) {
      this.cells[base] = values.length;
      this.cells.set(values, base + 1);
    } else {
      this.cells[base] = OVERFLOWS;
      this.overflow.set(slot, values);
    }
  }

  clear(slot: number): void {
    if (slot * ROW < this.cells.length) this.cells[slot * ROW] = 0;
    this.overflow.clear(slot);
  }

  /** Slot s's values ascending, as a view (valid until the next write). */
  of(slot: number): Uint16Array | Uint32Array {
    const base = slot * ROW;
    const n = this.cells[base] ?? 0;
    return n === OVERFLOWS ? this.overflow.of(slot) : this.cells.subarray(base + 1, base + 1 + n);
  }

  /** The counts of the rows of slots[from] up to slots[from + n] into `ahead`; their rows are in the cache after. */
  private readAhead(slots: Int32Array, from: number, n: number): void {
    const { cells, ahead } = this;
    for (let j = 0; j < n; j++) ahead[j] = cells[slots[from + j]! * ROW]!;
  }

  /**
   * Reads the counts of the rows of the BATCH slots from slots[from] on, so that a caller testing them one by one
   * (holdsAny in a filter pass) finds them in the cache: their misses are then taken together.
   */
  touch(slots: ArrayLike<number>, from: number): void {
    const { cells, ahead } = this;
    for (let j = 0, n = Math.min(BATCH, slots.length - from); j < n; j++) ahead[j] = cells[slots[from + j]! * ROW]!;
  }

  /** Adds one to counts[id] for every value id of every slot listed. */
  countInto(slots: Int32Array, counts: Int32Array): void {
    const { cells, ahead } = this;
    for (let i = 0; i < slots.length; i += BATCH) {
      const n = Math.min(BATCH, slots.length - i);
      this.readAhead(slots, i, n);
      for (let j = 0; j < n; j++) {
        const base = slots[i + j]! * ROW;
        if (ahead[j] === OVERFLOWS) for (const id of this.overflow.of(slots[i + j]!)) counts[id]!++;
        else for (let h = base + 1, to = h + ahead[j]!; h < to; h++) counts[cells[h]!]!++;
      }
    }
  }

  /** Adds one to counts[id] for each value id of slots[i] whose key (valueKey[id]) is keys[i]; a negative is none. */
  countOfKeys(slots: Int32Array, keys: Int32Array, valueKey: readonly number[], counts: Int32Array): void {
    const { cells, ahead } = this;
    for (let i = 0; i < slots.length; i += BATCH) {
      const n = Math.min(BATCH, slots.length - i);
      // A slot that counts for no key (it fails a price range) needs no row read: most of them, with a range selected.
      for (let j = 0; j < n; j++) ahead[j] = keys[i + j]! < 0 ? 0 : cells[slots[i + j]! * ROW]!;
      for (let j = 0; j < n; j++) {
        const key = keys[i + j]!;
        if (key < 0) continue;
        const base = slots[i + j]! * ROW;
        if (ahead[j] === OVERFLOWS) {
          for (const id of this.overflow.of(slots[i + j]!)) if (valueKey[id] === key) counts[id]!++;
        } else for (let h = base + 1, to = h + ahead[j]!; h < to; h++) if (valueKey[cells[h]!] === key) counts[cells[h]!]!++;
      }
    }
  }

  /** Does the slot hold a value id marked in `mask`. */
  holdsAny(slot: number, mask: Uint8Array): boolean {
    const base = slot * ROW;
    const n = this.cells[base] ?? 0;
    if (n === OVERFLOWS) return this.overflow.of(slot).some((id) => mask[id] === 1);
    for (let h = base + 1, to = h + n; h < to; h++) if (mask[this.cells[h]!] === 1) return true;
    return false;
  }

  /** Heap bytes of the rows and the overflow lists. */
  memoryBytes(): number {
    return typedBytes(this.cells) + this.overflow.memoryBytes();
  }
}
