import { typedBytes } from "../../lib/heap-estimate.ts";

/**
 * A number per slot that one search computes on first use (a relevance score, a preference's sum), kept between
 * searches and stamped with the search's round instead of cleared: a fresh array per search cost a write per slot
 * of the store (a megabyte at a million products, about 0.7 ms) even when nothing matched, and clearing it per
 * match wrote scattered over the store.
 */
export class SlotMemo {
  private values = new Float64Array(0);
  private stamps = new Int32Array(0);
  private rounds = 0;

  /**
   * A new round with room for `slots` slots: a slot's value is this round's while `stamps[slot] === round`.
   * The arrays are valid until the next call.
   */
  begin(slots: number): { values: Float64Array; stamps: Int32Array; round: number } {
    if (this.values.length < slots) {
      const room = roomFor(slots);
      this.values = new Float64Array(room);
      this.stamps = new Int32Array(room);
      this.rounds = 0;
    }
    if (this.rounds === 0x7fffffff) {
      this.stamps.fill(0);
      this.rounds = 0;
    }
    return { values: this.values, stamps: this.stamps, round: ++this.rounds };
  }

  /** Heap bytes of its arrays. */
  memoryBytes(): number {
    return typedBytes(this.values) + typedBytes(this.stamps);
  }
}

/** Scratch room for n items, with a quarter more so that slowly growing searches do not reallocate each time. */
export function roomFor(n: number): number {
  return Math.max(1024, n + (n >> 2));
}
