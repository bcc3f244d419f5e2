/*
 * Selection (Hoare's quickselect): an order statistic of numbers in time linear in how many there are, where
 * sorting them would take n log n. A search's range facets and its first page need a few order statistics of up
 * to a million numbers.
 */

/** The k-th smallest (from 0) of the first n numbers of `a` (no NaN among them), which it reorders. */
export function kthSmallest(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (hi > lo) {
    const x = a[lo]!;
    const y = a[(lo + hi) >>> 1]!;
    const z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    // Now a[lo..j] <= pivot <= a[i..hi], and everything between j and i equals the pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}
