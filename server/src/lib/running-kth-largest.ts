/*
 * The k-th largest of the numbers seen so far, kept while they stream by: a min-heap of the k largest, its root
 * the answer. A ranking that keeps its best k can then pass over any candidate whose upper bound is below it,
 * since the final k-th largest can only be higher.
 */

export class RunningKthLargest {
  private readonly heap: Float64Array;
  private size = 0;

  /** `k` at least 1. */
  constructor(readonly k: number) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`k must be a whole number from 1, not ${k}`);
    this.heap = new Float64Array(k);
  }

  /** The k-th largest number offered so far (ties count each time); -Infinity until k were offered. */
  get value(): number {
    return this.size < this.k ? -Infinity : this.heap[0]!;
  }

  /** Counts `x` (never NaN) among the numbers seen. */
  offer(x: number): void {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent]! <= x) break;
        heap[i] = heap[parent]!;
        i = parent;
      }
      heap[i] = x;
      return;
    }
    if (x <= heap[0]!) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.k) break;
      const smaller = left + 1 < this.k && heap[left + 1]! < heap[left]! ? left + 1 : left;
      if (heap[smaller]! >= x) break;
      heap[i] = heap[smaller]!;
      i = smaller;
    }
    heap[i] = x;
  }
}
