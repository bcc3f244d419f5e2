import { tokenize } from "../../text/normalize.ts";
import type { TrainedSpace } from "./semantic-space.ts";

/*
 * A store's learned meaning, ready to ask: the vector of a query (its known words' vectors summed), the products
 * nearest it, and the words nearest a word. Products are compared by a scan of their unit vectors (58,000 × 48
 * floats for the demo catalog), keeping the best k in a small heap.
 */

/** Clusters a nearest-product search scans (of about 64 for the demo catalog). */
const PROBED = 8;

export interface Scored<T> {
  item: T;
  score: number;
}

export class MeaningModel {
  private readonly index: Map<string, number>;

  constructor(
    private readonly space: TrainedSpace,
    /** When it was trained (ms), and on how many documents: what a retraining is judged against. */
    readonly trainedAt: number,
  ) {
    this.index = new Map(space.words.map((w, i) => [w, i]));
  }

  get size(): { words: number; products: number; bytes: number } {
    return {
      words: this.space.words.length,
      products: this.space.productIds.length,
      bytes: this.space.wordVectors.byteLength + this.space.productVectors.byteLength,
    };
  }

  /** Whether every word of the text has a vector (the store's products or shoppers used it). */
  knows(text: string): boolean {
    const tokens = tokenize(text);
    return tokens.length > 0 && tokens.every((t) => this.index.has(t));
  }

  /** The query's known words' vectors summed and scaled to unit length; null when it has none. */
  queryVector(text: string): Float32Array | null {
    const d = this.space.dimensions;
    const out = new Float32Array(d);
    let known = 0;
    for (const token of new Set(tokenize(text))) {
      const i = this.index.get(token);
      if (i === undefined) continue;
      known++;
      for (let j = 0; j < d; j++) out[j]! += this.space.wordVectors[i * d + j]!;
    }
    if (!known) return null;
    let norm = 0;
    for (let j = 0; j < d; j++) norm += out[j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < d; j++) out[j]! /= norm;
    return out;
  }

  /**
   * The `k` products nearest `vector` with a cosine of at least `min`, nearest first: among the products of the
   * PROBED clusters whose centres are nearest (a few thousand of the demo's 58,000, not all of them).
   */
  nearestProducts(vector: Float32Array, k: number, min: number): Scored<string>[] {
    const { dimensions: d, centroids, clusterStart, productVectors, productIds } = this.space;
    const clusters = nearest(vector, centroids, d, PROBED, -Infinity);
    const found: Scored<string>[] = [];
    for (const { item: c } of clusters) {
      const from = clusterStart[c]!;
      const rows = productVectors.subarray(from * d, clusterStart[c + 1]! * d);
      for (const { item, score } of nearest(vector, rows, d, k, min)) found.push({ item: productIds[from + item]!, score });
    }
    return found.sort((a, b) => b.score - a.score || (a.item < b.item ? -1 : 1)).slice(0, k);
  }

  /** The `k` words nearest `vector` that `keep` accepts, nearest first. */
  nearestWords(vector: Float32Array, k: number, min: number, keep: (word: string) => boolean): Scored<string>[] {
    const found = nearest(vector, this.space.wordVectors, this.space.dimensions, k * 20, min);
    return found
      .map(({ item, score }) => ({ item: this.space.words[item]!, score }))
      .filter((w) => keep(w.item))
      .slice(0, k);
  }
}

/** Rows of `rows` (n × d, unit length) with the highest dot product with `vector`, at least `min`: a min-heap of k. */
function nearest(vector: Float32Array, rows: Float32Array, d: number, k: number, min: number): Scored<number>[] {
  const n = rows.length / d;
  const heapScores = new Float64Array(k);
  const heapItems = new Int32Array(k);
  let size = 0;
  const siftDown = (at: number) => {
    for (;;) {
      const l = at * 2 + 1;
      const r = l + 1;
      let m = at;
      if (l < size && heapScores[l]! < heapScores[m]!) m = l;
      if (r < size && heapScores[r]! < heapScores[m]!) m = r;
      if (m === at) return;
      [heapScores[at], heapScores[m]] = [heapScores[m]!, heapScores[at]!];
      [heapItems[at], heapItems[m]] = [heapItems[m]!, heapItems[at]!];
      at = m;
    }
  };
  for (let r = 0; r < n; r++) {
    let s = 0;
    const o = r * d;
    for (let j = 0; j < d; j++) s += vector[j]! * rows[o + j]!;
    if (s < min) continue;
    if (size < k) {
      let at = size++;
      heapScores[at] = s;
      heapItems[at] = r;
      while (at > 0) {
        const p = (at - 1) >> 1;
        if (heapScores[p]! <= heapScores[at]!) break;
        [heapScores[at], heapScores[p]] = [heapScores[p]!, heapScores[at]!];
        [heapItems[at], heapItems[p]] = [heapItems[p]!, heapItems[at]!];
        at = p;
      }
    } else if (s > heapScores[0]!) {
      heapScores[0] = s;
      heapItems[0] = r;
      siftDown(0);
    }
  }
  const out: Scored<number>[] = [];
  for (let i = 0; i < size; i++) out.push({ item: heapItems[i]!, score: heapScores[i]! });
  return out.sort((a, b) => b.score - a.score || a.item - b.item);
}
