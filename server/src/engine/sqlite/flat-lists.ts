import { typedBytes } from "../../lib/heap-estimate.ts";

/*
 * A short list of numbers per slot, all kept in one flat array. A search reads the lists of thousands of slots
 * (facet values to count, tokens to score); one small typed array per slot put each list somewhere else in
 * memory, and reading them cost more than the work done with them. Lists written in slot order (a store's load,
 * a bulk) lie in slot order here too. A replaced list leaves a hole, filled when holes outweigh lists.
 */

export class FlatLists {
  /** The lists' numbers: slot s's are data[start[s]] up to, not including, data[start[s] + length[s]]. */
  data = new Uint32Array(1 << 12);
  start = new Int32Array(1024);
  length = new Int32Array(1024);
  private used = 0;
  private holes = 0;

  set(slot: number, values: ArrayLike<number>): void {
    this.clear(slot);
    if (slot >= this.start.length) {
      this.start = grownTo(this.start, slot + 1);
      this.length = grownTo(this.length, slot + 1);
    }
    if (this.used + values.length > this.data.length) {
      if (this.holes > this.used / 2) this.compact(values.length);
      if (this.used + values.length > this.data.length) this.data = grownTo(this.data, this.used + values.length);
    }
    this.data.set(values, this.used);
    this.start[slot] = this.used;
    this.length[slot] = values.length;
    this.used += values.length;
  }

  clear(slot: number): void {
    if (slot >= this.length.length) return;
    this.holes += this.length[slot]!;
    this.length[slot] = 0;
  }

  /** Rewrites the lists in slot order without holes, with room for `more`. */
  private compact(more: number): void {
    const next = new Uint32Array(Math.max(this.data.length, (this.used - this.holes + more) * 2));
    let at = 0;
    for (let slot = 0; slot < this.start.length; slot++) {
      const n = this.length[slot]!;
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
    return typedBytes(this.data) + typedBytes(this.start) + typedBytes(this.length);
  }
}

/** A copy of a typed array with room for at least `atLeast` items (at least twice as long). */
export function grownTo<T extends Uint8Array | Uint32Array | Int32Array>(array: T, atLeast: number): T {
  const next = new (array.constructor as new (n: number) => T)(Math.max(atLeast, array.length * 2));
  next.set(array);
  return next;
}
