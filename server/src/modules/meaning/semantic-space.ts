/*
 * Word and product vectors learned from one store's own evidence, nothing downloaded: latent semantic analysis. The
 * store's products are documents of their words (name, brand, categories, colours, usage); each query a shopper
 * searched and then clicked, carted or bought something for, and each query the store imported with the categories
 * it led to, is a document of its words and those it led to. The tf-idf weighted word × document matrix is factored
 * by a randomized truncated SVD (Halko, Martinsson & Tropp 2011): words that occur in the same documents (and query
 * words with the products they led to) end up close, and each product sits among its words. Pure computation over
 * typed arrays, so it runs on a worker thread (threads/meaning-thread-main.ts).
 */
import type { TrainingEvidence } from "./training-evidence.ts";

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

/**
 * The evidence's matrix, its tokens then freed. Its rows are the most frequent words, each row's entries in document
 * order; built in two passes over the tokens (documents per word, then each document's words) straight into the
 * rows, where entries gathered first and sorted into rows after took 16 bytes more per entry.
 */
function buildMatrix(evidence: TrainingEvidence): { matrix: SparseMatrix; words: string[] } {
  const all = evidence.words;
  const docFreq = new Int32Array(all.length);
  const lastDocument = new Int32Array(all.length).fill(-1);
  evidence.forEachDocument((word, _, document) => {
    if (lastDocument[word] === document) return;
    lastDocument[word] = document;
    docFreq[word]!++;
  });
  const kept = Array.from(all, (_, word) => word)
    .sort((x, y) => docFreq[y]! - docFreq[x]! || (all[x]! < all[y]! ? -1 : 1))
    .slice(0, MAX_WORDS);
  const rowOf = new Int32Array(all.length).fill(-1);
  kept.forEach((word, row) => (rowOf[word] = row));
  const rows = kept.length;
  // A document adds one entry to the row of each of its words: a row holds as many entries as its word's documents.
  const rowStart = new Int32Array(rows + 1);
  for (let r = 0; r < rows; r++) rowStart[r + 1] = rowStart[r]! + docFreq[kept[r]!]!;
  const colIndex = new Int32Array(rowStart[rows]!);
  const values = new Float32Array(rowStart[rows]!);
  const fill = rowStart.slice(0, rows);
  const n = evidence.documents;
  // Each document's term frequencies, by row, and the rows it has touched.
  const tf = new Float64Array(rows);
  const inDocument = new Int32Array(rows).fill(-1);
  const touched = new Int32Array(rows);
  let touchedCount = 0;
  evidence.forEachDocument(
    (word, weight, document) => {
      const row = rowOf[word]!;
      if (row < 0) return;
      if (inDocument[row] !== document) {
        inDocument[row] = document;
        tf[row] = 0;
        touched[touchedCount++] = row;
      }
      tf[row]! += weight;
    },
    (document) => {
      for (let i = 0; i < touchedCount; i++) {
        const row = touched[i]!;
        const at = fill[row]!++;
        colIndex[at] = document;
        values[at] = Math.log1p(tf[row]!) * Math.log(1 + n / docFreq[kept[row]!]!);
      }
      touchedCount = 0;
    },
  );
  evidence.releaseTokens();
  return { matrix: { rows, cols: n, rowStart, colIndex, values }, words: kept.map((word) => all[word]!) };
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

/** Writes `row` (k values) scaled to unit length into row `r` of `out`, as float32. */
function putUnitRow(row: Float64Array, out: Float32Array, r: number): void {
  const k = row.length;
  let norm = 0;
  for (let j = 0; j < k; j++) norm += row[j]! ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < k; j++) out[r * k + j] = row[j]! / norm;
}

/**
 * A training's steps, each told to trainSpace's caller as it ends: what it drops is garbage from then on (the meaning
 * thread collects it there, so that the next step does not grow its heap beside it).
 */
export type TrainingStep = "matrix" | "range" | "vectors" | "clusters";

/**
 * Factors the documents' word × document matrix A ≈ U Σ Vᵀ (rank DIMENSIONS) and answers the words' rows of U Σ and
 * the products' rows of V Σ, each of unit length: cosine between a query's words and a product is then their closeness.
 */
export function trainSpace(
  evidence: TrainingEvidence,
  afterStep: (step: TrainingStep) => void = () => {},
  dimensions = DIMENSIONS,
  seed = 37,
): TrainedSpace {
  const { matrix, words } = buildMatrix(evidence);
  afterStep("matrix");
  const k = Math.min(dimensions + OVERSAMPLING, matrix.rows, matrix.cols);
  const rank = Math.min(dimensions, k);
  const random = gaussians(seed);
  const { wordVectors, productRows } = factor(matrix, evidence.products(), k, rank, random, afterStep);
  afterStep("vectors");
  const clustered = clusterRows(productRows, evidence.productIds, rank, random);
  afterStep("clusters");
  return { dimensions: rank, words, wordVectors, ...clustered };
}

/**
 * The words' rows of U Σ and the products' (the columns `products`) of V Σ, each of unit length, as float32. Its
 * float64 buffers (a document × k one is 22 MB at 50,000 products, 450 MB at a million) are freed when it returns,
 * before the clustering.
 */
function factor(
  a: SparseMatrix,
  products: Int32Array,
  k: number,
  rank: number,
  random: () => number,
  afterStep: (step: TrainingStep) => void,
): { wordVectors: Float32Array; productRows: Float32Array } {
  // Range of A: Y = A Ω, refined by power iterations Y = A (Aᵀ Y), orthonormalized after each product. Two buffers
  // serve every step (Ω, then each Z, then Bᵀ are one document × k buffer; each Q is one word × k buffer): a new
  // matrix per step (five, with Ω's copy) was garbage the thread held until its next collection.
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
  afterStep("range");
  const { vectors: w, values } = symmetricEigen(gram, k);
  // U Σ = Q W Σ, and V Σ = Bᵀ W: A's top singular directions, truncated to `rank`; each row made in float64, then
  // scaled to unit length into float32 (a whole float64 copy of either was 4 to 19 MB more at 50,000 products).
  const row = new Float64Array(rank);
  const wordVectors = new Float32Array(a.rows * rank);
  for (let r = 0; r < a.rows; r++) {
    for (let j = 0; j < rank; j++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += q[r * k + i]! * w[i * k + j]!;
      row[j] = s * Math.sqrt(Math.max(values[j]!, 0));
    }
    putUnitRow(row, wordVectors, r);
  }
  const productRows = new Float32Array(products.length * rank);
  products.forEach((c, p) => {
    for (let j = 0; j < rank; j++) {
      let s = 0;
      for (let i = 0; i < k; i++) s += bt[c * k + i]! * w[i * k + j]!;
      row[j] = s;
    }
    putUnitRow(row, productRows, p);
  });
  return { wordVectors, productRows };
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
