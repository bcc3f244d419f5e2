/*
 * Word and product vectors learned from one store's own evidence, nothing downloaded: latent semantic analysis. The
 * store's products are documents of their words (name, brand, categories, colours, usage); each query a shopper
 * searched and then clicked, carted or bought something for, and each query the store imported with the categories
 * it led to, is a document of its words and those it led to. The tf-idf weighted word × document matrix is factored
 * by a randomized truncated SVD (Halko, Martinsson & Tropp 2011): words that occur in the same documents (and query
 * words with the products they led to) end up close, and each product sits among its words. Pure computation over
 * typed arrays, so it runs on a worker thread (threads/meaning-thread-main.ts).
 */

/** One document: its words (tokens), each with a weight (how much the field says about it). */
export interface TrainingDocument {
  words: readonly string[];
  weights?: readonly number[];
  /** A product's id; absent for a query's evidence. */
  productId?: string;
}

export interface TrainedSpace {
  dimensions: number;
  words: string[];
  /** words.length × dimensions, each row of unit length. */
  wordVectors: Float32Array;
  productIds: string[];
  /** productIds.length × dimensions, each row of unit length, grouped by cluster (products in cluster order). */
  productVectors: Float32Array;
  /** The clusters' centres (clusters × dimensions, unit length) and where each cluster's products start. */
  centroids: Float32Array;
  clusterStart: Int32Array;
}

export const DIMENSIONS = 48;
/** Extra random directions and power iterations of the randomized range finder (accuracy for time). */
const OVERSAMPLING = 8;
const POWER_ITERATIONS = 2;
/** Words kept at most: the most frequent (a store's vocabulary of names and categories is far smaller). */
const MAX_WORDS = 40_000;

/** A seeded generator of normal variates (Box-Muller over a xorshift): the same space for the same evidence. */
function gaussians(seed: number): () => number {
  let s = seed >>> 0 || 1;
  const uniform = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** The word × document matrix in compressed sparse row form (rows are words), tf-idf weighted. */
interface SparseMatrix {
  rows: number;
  cols: number;
  rowStart: Int32Array;
  colIndex: Int32Array;
  values: Float32Array;
}

function buildMatrix(documents: readonly TrainingDocument[]): { matrix: SparseMatrix; words: string[] } {
  const docFreq = new Map<string, number>();
  for (const d of documents) for (const w of new Set(d.words)) docFreq.set(w, (docFreq.get(w) ?? 0) + 1);
  const words = [...docFreq]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_WORDS)
    .map(([w]) => w);
  const index = new Map(words.map((w, i) => [w, i]));
  const wordDocs = Int32Array.from(words, (w) => docFreq.get(w)!);
  // Triplets gathered per document, then sorted into rows. At most one per token, so typed arrays of that size hold
  // them: an array of numbers grown by pushes held three doubles per entry and copied itself as it grew (at a million
  // products, tens of millions of tokens).
  const tokens = documents.reduce((sum, d) => sum + d.words.length, 0);
  const entryRow = new Int32Array(tokens);
  const entryCol = new Int32Array(tokens);
  const entryValue = new Float64Array(tokens);
  let count = 0;
  const n = documents.length;
  documents.forEach((d, col) => {
    const weight = new Map<number, number>();
    d.words.forEach((w, i) => {
      const row = index.get(w);
      if (row !== undefined) weight.set(row, (weight.get(row) ?? 0) + (d.weights?.[i] ?? 1));
    });
    for (const [row, tf] of weight) {
      entryRow[count] = row;
      entryCol[count] = col;
      entryValue[count++] = Math.log1p(tf) * Math.log(1 + n / wordDocs[row]!);
    }
  });
  const rowStart = new Int32Array(words.length + 1);
  for (let e = 0; e < count; e++) rowStart[entryRow[e]! + 1]!++;
  for (let r = 0; r < words.length; r++) rowStart[r + 1]! += rowStart[r]!;
  const fill = rowStart.slice(0, words.length);
  const colIndex = new Int32Array(count);
  const values = new Float32Array(count);
  for (let e = 0; e < count; e++) {
    const at = fill[entryRow[e]!]!++;
    colIndex[at] = entryCol[e]!;
    values[at] = entryValue[e]!;
  }
  return { matrix: { rows: words.length, cols: n, rowStart, colIndex, values }, words };
}

/**
 * A · X (X cols × k, answering rows × k), or with `transposed` Aᵀ · X (X rows × k, answering cols × k): row-major,
 * one pass over A's entries either way.
 */
function multiply(a: SparseMatrix, x: Float64Array, k: number, transposed: boolean, out: Float64Array): Float64Array {
  out.fill(0);
  for (let r = 0; r < a.rows; r++) {
    for (let e = a.rowStart[r]!, end = a.rowStart[r + 1]!; e < end; e++) {
      const v = a.values[e]!;
      const c = a.colIndex[e]!;
      const o = (transposed ? c : r) * k;
      const xi = (transposed ? r : c) * k;
      for (let j = 0; j < k; j++) out[o + j]! += v * x[xi + j]!;
    }
  }
  return out;
}

/** Orthonormalizes the k columns of an n × k row-major matrix in place (modified Gram-Schmidt, twice). */
function orthonormalize(m: Float64Array, n: number, k: number): void {
  for (let pass = 0; pass < 2; pass++) {
    for (let j = 0; j < k; j++) {
      for (let i = 0; i < j; i++) {
        let dot = 0;
        for (let r = 0; r < n; r++) dot += m[r * k + i]! * m[r * k + j]!;
        for (let r = 0; r < n; r++) m[r * k + j]! -= dot * m[r * k + i]!;
      }
      let norm = 0;
      for (let r = 0; r < n; r++) norm += m[r * k + j]! ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let r = 0; r < n; r++) m[r * k + j]! /= norm;
    }
  }
}

/** Eigenvectors (columns, by descending eigenvalue) and eigenvalues of a symmetric k × k matrix (cyclic Jacobi). */
function symmetricEigen(s: Float64Array, k: number): { vectors: Float64Array; values: Float64Array } {
  const a = Float64Array.from(s);
  const v = new Float64Array(k * k);
  for (let i = 0; i < k; i++) v[i * k + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < k; p++) for (let q = p + 1; q < k; q++) off += a[p * k + q]! ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < k; p++) {
      for (let q = p + 1; q < k; q++) {
        const apq = a[p * k + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * k + q]! - a[p * k + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let r = 0; r < k; r++) {
          const arp = a[r * k + p]!;
          const arq = a[r * k + q]!;
          a[r * k + p] = c * arp - sn * arq;
          a[r * k + q] = sn * arp + c * arq;
        }
        for (let r = 0; r < k; r++) {
          const apr = a[p * k + r]!;
          const aqr = a[q * k + r]!;
          a[p * k + r] = c * apr - sn * aqr;
          a[q * k + r] = sn * apr + c * aqr;
        }
        for (let r = 0; r < k; r++) {
          const vrp = v[r * k + p]!;
          const vrq = v[r * k + q]!;
          v[r * k + p] = c * vrp - sn * vrq;
          v[r * k + q] = sn * vrp + c * vrq;
        }
      }
    }
  }
  const order = Array.from({ length: k }, (_, i) => i).sort((x, y) => a[y * k + y]! - a[x * k + x]!);
  const vectors = new Float64Array(k * k);
  const values = new Float64Array(k);
  order.forEach((col, j) => {
    values[j] = a[col * k + col]!;
    for (let r = 0; r < k; r++) vectors[r * k + j] = v[r * k + col]!;
  });
  return { vectors, values };
}

/** Rows of an n × k matrix scaled to unit length, as float32. */
function unitRows(m: Float64Array, n: number, k: number): Float32Array {
  const out = new Float32Array(n * k);
  for (let r = 0; r < n; r++) {
    let norm = 0;
    for (let j = 0; j < k; j++) norm += m[r * k + j]! ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let j = 0; j < k; j++) out[r * k + j] = m[r * k + j]! / norm;
  }
  return out;
}

/**
 * Factors the documents' word × document matrix A ≈ U Σ Vᵀ (rank DIMENSIONS) and answers the words' rows of U Σ and
 * the products' rows of V Σ, each of unit length: cosine between a query's words and a product is then their closeness.
 */
export function trainSpace(documents: readonly TrainingDocument[], dimensions = DIMENSIONS, seed = 37): TrainedSpace {
  const { matrix: a, words } = buildMatrix(documents);
  const k = Math.min(dimensions + OVERSAMPLING, a.rows, a.cols);
  const rank = Math.min(dimensions, k);
  const random = gaussians(seed);
  // Range of A: Y = A Ω, refined by power iterations Y = A (Aᵀ Y), orthonormalized after each product. Two buffers
  // serve every step (Ω, then each Z, then Bᵀ are one document × k buffer; each Q is one word × k buffer): a
  // document × k matrix is 22 MB at 50,000 products and 450 MB at a million, and a new one per step (five, with Ω's
  // copy) was garbage the thread held until its next collection.
  const byDocument = new Float64Array(a.cols * k);
  for (let i = 0; i < byDocument.length; i++) byDocument[i] = random();
  const q = multiply(a, byDocument, k, false, new Float64Array(a.rows * k));
  orthonormalize(q, a.rows, k);
  for (let i = 0; i < POWER_ITERATIONS; i++) {
    const z = multiply(a, q, k, true, byDocument);
    orthonormalize(z, a.cols, k);
    multiply(a, z, k, false, q);
    orthonormalize(q, a.rows, k);
  }
  // B = Qᵀ A (k × cols), held as Bᵀ (cols × k); B Bᵀ = W Λ Wᵀ gives B's left singular vectors W, Σ = √Λ.
  const bt = multiply(a, q, k, true, byDocument);
  const gram = new Float64Array(k * k);
  for (let c = 0; c < a.cols; c++) {
    const o = c * k;
    for (let i = 0; i < k; i++) for (let j = i; j < k; j++) gram[i * k + j]! += bt[o + i]! * bt[o + j]!;
  }
  for (let i = 0; i < k; i++) for (let j = 0; j < i; j++) gram[i * k + j] = gram[j * k + i]!;
  const { vectors: w, values } = symmetricEigen(gram, k);
  // U Σ = Q W Σ, and V Σ = Bᵀ W: A's top singular directions, truncated to `rank`.
  const wordRows = new Float64Array(a.rows * rank);
  for (let r = 0; r < a.rows; r++) {
    for (let j = 0; j < rank; j++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += q[r * k + i]! * w[i * k + j]!;
      wordRows[r * rank + j] = s * Math.sqrt(Math.max(values[j]!, 0));
    }
  }
  const productCols: number[] = [];
  const productIds: string[] = [];
  documents.forEach((d, c) => {
    if (d.productId !== undefined) {
      productCols.push(c);
      productIds.push(d.productId);
    }
  });
  const productRows = new Float64Array(productCols.length * rank);
  productCols.forEach((c, p) => {
    for (let j = 0; j < rank; j++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += bt[c * k + i]! * w[i * k + j]!;
      productRows[p * rank + j] = s;
    }
  });
  const clustered = clusterRows(unitRows(productRows, productCols.length, rank), productIds, rank, random);
  return {
    dimensions: rank,
    words,
    wordVectors: unitRows(wordRows, a.rows, rank),
    ...clustered,
  };
}

/** Clusters of products: about this many products each, so a search scans a few clusters, not every product. */
const PER_CLUSTER = 900;
const KMEANS_ROUNDS = 8;

/**
 * Spherical k-means over unit rows (seeded from random rows): the rows reordered so each cluster's are together, with
 * their ids, the centres and where each cluster starts. A nearest search then scores the centres and scans only the
 * rows of the closest clusters (an inverted file, as vector indexes do).
 */
function clusterRows(
  rows: Float32Array,
  ids: string[],
  d: number,
  random: () => number,
): { productIds: string[]; productVectors: Float32Array; centroids: Float32Array; clusterStart: Int32Array } {
  const n = ids.length;
  const k = Math.max(1, Math.min(256, Math.round(n / PER_CLUSTER)));
  const centroids = new Float32Array(k * d);
  // Seeded with rows spread over the catalog's order (which groups products of a kind), from a random offset.
  const offset = Math.floor(Math.abs(random()) * n) % n;
  for (let c = 0; c < k; c++) {
    const r = (offset + Math.floor((c * n) / k)) % n;
    centroids.set(rows.subarray(r * d, r * d + d), c * d);
  }
  const assigned = new Int32Array(n);
  for (let round = 0; round < KMEANS_ROUNDS; round++) {
    for (let r = 0; r < n; r++) {
      let best = 0;
      let bestScore = -Infinity;
      for (let c = 0; c < k; c++) {
        let s = 0;
        for (let j = 0; j < d; j++) s += rows[r * d + j]! * centroids[c * d + j]!;
        if (s > bestScore) [best, bestScore] = [c, s];
      }
      assigned[r] = best;
    }
    const sums = new Float64Array(k * d);
    for (let r = 0; r < n; r++) for (let j = 0; j < d; j++) sums[assigned[r]! * d + j]! += rows[r * d + j]!;
    for (let c = 0; c < k; c++) {
      let norm = 0;
      for (let j = 0; j < d; j++) norm += sums[c * d + j]! ** 2;
      // An empty cluster keeps its centre.
      if (norm === 0) continue;
      norm = Math.sqrt(norm);
      for (let j = 0; j < d; j++) centroids[c * d + j] = sums[c * d + j]! / norm;
    }
  }
  const clusterStart = new Int32Array(k + 1);
  for (let r = 0; r < n; r++) clusterStart[assigned[r]! + 1]!++;
  for (let c = 0; c < k; c++) clusterStart[c + 1]! += clusterStart[c]!;
  const fill = clusterStart.slice(0, k);
  const productVectors = new Float32Array(n * d);
  const productIds = new Array<string>(n);
  for (let r = 0; r < n; r++) {
    const at = fill[assigned[r]!]!++;
    productVectors.set(rows.subarray(r * d, r * d + d), at * d);
    productIds[at] = ids[r]!;
  }
  return { productIds, productVectors, centroids, clusterStart };
}
