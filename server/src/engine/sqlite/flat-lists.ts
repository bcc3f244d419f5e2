import { grownTo } from "../../lib/grown-to.ts";
import { typedBytes } from "../../lib/heap-estimate.ts";

export { grownTo };

/*
 * A short list of numbers per slot, all kept in one flat array. A search reads the lists of thousands of slots
 * (facet values to count, tokens to score); one small typed array per slot put each list somewhere else in
 * memory, and reading them cost more than the work done with them (and ~100 bytes of heap each besides the
 * numbers). Lists written in slot order (a store's load, a bulk) lie in slot order here too. A list replaced by
 * one no longer stays in place; a longer one moves to the end and leaves a hole, filled when holes outweigh lists.
 */

/** The flat array grows by this factor: it holds most of a store's numbers, and doubling left up to half unused. */
const GROWTH = 1.25;

export class FlatLists<Data extends Uint16Array | Uint32Array = Uint32Array> {
  /**
   * The lists' numbers: slot s's are data[start[s]] up to, not including, data[start[s] + length[s]]. 32-bit
   * unless made with a 16-bit array, whose owner widens it (to a 32-bit array) before a number needs more.
   */
  data: Data;
  start = new Int32Array(1024);
  length = new Int32Array(1024);
  /** Numbers slot s's place holds at most (the longest list written there since it was placed). */
  private room = new Int32Array(1024);
  private used = 0;
  private holes = 0;

  /** Slots that have held a list: every slot written is below this. */
  slots = 0;

  constructor(data?: Data) {
    this.data = data ?? (new Uint32Array(1 << 12) as Data);
  }

  set(slot: number, values: ArrayLike<number>): void {
    if (slot >= this.start.length) {
      this.start = grownTo(this.start, slot + 1);
      this.length = grownTo(this.length, slot + 1);
      this.room = grownTo(this.room, slot + 1);
    }
    if (slot >= this.slots) this.slots = slot + 1;
    if (values.length <= this.room[slot]!) {
      this.holes += this.length[slot]! - values.length;
      this.data.set(values, this.start[slot]);
      this.length[slot] = values.length;
      return;
    }
    // Its old place (room) is a hole now.
    this.clear(slot);
    if (this.used + values.length > this.data.length) {
      if (this.holes > this.used / 2) this.compact(values.length);
      if (this.used + values.length > this.data.length) this.data = grownTo(this.data, this.used + values.length, GROWTH);
    }
    this.data.set(values, this.used);
    this.start[slot] = this.used;
    this.length[slot] = values.length;
    this.room[slot] = values.length;
    this.used += values.length;
  }

  clear(slot: number): void {
    if (slot >= this.length.length) return;
    this.holes += this.length[slot]!;
    this.length[slot] = 0;
  }

  /** Slot s's list, as a view of the flat array (valid until the next write). */
  of(slot: number): Data {
    const from = this.start[slot] ?? 0;
    return this.data.subarray(from, from + (this.length[slot] ?? 0)) as Data;
  }

  /** Rewrites the lists in slot order without holes, with room for `more`. */
  private compact(more: number): void {
    const next = new (this.data.constructor as new (n: number) => Data)(
      Math.max(this.data.length, Math.ceil((this.used - this.holes + more) * GROWTH)),
    );
    let at = 0;
    for (let slot = 0; slot < this.slots; slot++) {
      const n = this.length[slot]!;
      this.room[slot] = n;
      if (n === 0) continue;
      next.set(this.data.subarray(this.start[slot]!, this.start[slot]! + n), at);
      this.start[slot] = at;
      at += n;
    }
    this.data = next;
    this.used = at;
    this.holes = 0;
  }

  /** Heap bytes of the lists' arrays. */
  memoryBytes(): number {
    return typedBytes(this.data) + typedBytes(this.start) + typedBytes(this.length) + typedBytes(this.room);
  }
}
