/*
 * The first page of a search's matches in sort order, without sorting every match. A broad query matches half the
 * store; ordering all of its matches with a comparator (closures reading columns, relevance for every tie) cost
 * more than counting their facets. When the sort's first part is a number per match (a price, a relevance score),
 * the number that the page's last match has is found by selection, in time linear in the matches, and only the
 * matches at or before it are compared: the page plus those that tie with its last one.
 */

import { kthSmallest } from "../../lib/kth-smallest.ts";

export type Comparator = (a: number, b: number) => number;

/** The first k of `items` in `compare` order, without sorting everything when k is small. */
export function topK(items: number[], compare: Comparator, k: number): number[] {
  if (k <= 0) return [];
  if (items.length <= k * 4) return items.sort(compare).slice(0, k);
  // A max-heap of the best k seen so far: the worst of them at the root.
  const heap: number[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (compare(heap[i]!, heap[p]!) <= 0) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && compare(heap[l]!, heap[m]!) > 0) m = l;
      if (r < heap.length && compare(heap[r]!, heap[m]!) > 0) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0]!) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}

/**
 * The first k of the n `slots` in `compare` order, for a `compare` that orders by `keys` first (keys[i] is
 * slots[i]'s, ascending, NaN after every number) and by its own later parts among equal keys. With `slotTies`,
 * those later parts are slot order alone, so the matches that tie with the page's last are chosen by slot without
 * comparing them; with `tieKey`, they are a number per slot (never NaN) and then slot order, so those ties are
 * chosen the same way by that number (a preference's ties by relevance: comparing tens of thousands of tied
 * matches one by one cost more than scoring them). `work` is scratch room for n numbers.
 */
export function topKByKey(
  slots: ArrayLike<number>,
  n: number,
  keys: Float64Array,
  compare: Comparator,
  k: number,
  work: Float64Array,
  slotTies: boolean,
  tieKey?: (slot: number) => number,
): number[] {
  if (k <= 0 || n === 0) return [];
  let numbered = 0;
  for (let i = 0; i < n; i++) if (!Number.isNaN(keys[i]!)) work[numbered++] = keys[i]!;
  const kept: number[] = [];
  if (numbered <= k) {
    // The page holds every match with a number, and those without one only when it is longer.
    for (let i = 0; i < n; i++) if (numbered < k || !Number.isNaN(keys[i]!)) kept.push(slots[i]!);
    return topK(kept, compare, k);
  }
  // A match whose key is above the page's last key has k matches before it by the key alone.
  const last = kthSmallest(work, numbered, k - 1);
  let ties = 0;
  for (let i = 0; i < n; i++) {
    if (keys[i]! < last) kept.push(slots[i]!);
    else if (keys[i] === last) work[ties++] = slots[i]!;
  }
  if (slotTies && ties > k - kept.length) {
    // The ties that make the page are those with the smallest slots.
    const bound = kthSmallest(work, ties, k - kept.length - 1);
    for (let i = 0; i < ties; i++) if (work[i]! <= bound) kept.push(work[i]!);
  } else if (tieKey && ties > k - kept.length) {
    const tied = Int32Array.from(work.subarray(0, ties));
    const tiedKeys = new Float64Array(ties);
    for (let i = 0; i < ties; i++) tiedKeys[i] = tieKey(tied[i]!);
    for (const slot of topKByKey(tied, ties, tiedKeys, compare, k - kept.length, work, true)) kept.push(slot);
  } else {
    for (let i = 0; i < ties; i++) kept.push(work[i]!);
  }
  return topK(kept, compare, k);
}

/**
 * How many of `slots` hold the first k in an order whose ties end in slot order, where `first(slot)` says that
 * nothing but a smaller slot can come before it: when the slots ascend, the shortest prefix with k such slots
 * (every later slot comes after each of them), else all of them. `first` is asked only up to there.
 */
export function prefixHolding(slots: Int32Array, k: number, first: (slot: number) => boolean): number {
  if (k <= 0) return 0;
  for (let i = 1; i < slots.length; i++) if (slots[i]! <= slots[i - 1]!) return slots.length;
  let found = 0;
  for (let i = 0; i < slots.length; i++) if (first(slots[i]!) && ++found >= k) return i + 1;
  return slots.length;
}
