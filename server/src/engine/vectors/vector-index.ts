/*
 * The VectorIndex port: products' embeddings (hybrid search, modules/hybrid), kept beside the search engine by an
 * adapter of the same deployment: in-process approximate nearest neighbours over a SQLite file with the embedded
 * engine (usearch-vectors.ts), a collection of its own with Typesense (typesense-vectors.ts). Every adapter passes
 * vector-conformance.ts. Similarity is the cosine of two vectors: 1 the same direction, 0 unrelated.
 */

export interface StoredVector {
  /** The store's product id. */
  id: string;
  /** What the vector was made from (model and text): a product whose hash is unchanged is not embedded again. */
  hash: string;
  vector: Float32Array;
}

export interface VectorNeighbour {
  id: string;
  similarity: number;
}

/** Nearest neighbours one search may ask for. */
export const MAX_NEIGHBOURS = 250;

export interface VectorIndex {
  /** "usearch" or "typesense", for logs. */
  readonly kind: string;
  /**
   * Inserts or replaces vectors of one store. A store's vectors share one length: vectors of another length (a new
   * model) replace all of the store's.
   */
  put(storeId: string, vectors: readonly StoredVector[]): Promise<void>;
  /** Removes vectors by product id; ids that are absent are ignored. */
  remove(storeId: string, ids: readonly string[]): Promise<void>;
  /** Every product of the store that has a vector, with the hash it was made from. */
  hashes(storeId: string): Promise<Map<string, string>>;
  /** Up to `k` (at most MAX_NEIGHBOURS) products nearest `vector`, most similar first; approximate. */
  nearest(storeId: string, vector: Float32Array, k: number): Promise<VectorNeighbour[]>;
  /** The exact similarity of each of `ids` that has a vector to `vector`. */
  similarities(storeId: string, vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>>;
  /** Forgets every vector of a store. */
  dropStore(storeId: string): Promise<void>;
  close(): Promise<void>;
}

/** The cosine of two vectors of one length; 0 when either is all zeros. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
