import type { Client } from "typesense";
import { chunked } from "../../lib/chunked.ts";
import { MAX_NEIGHBOURS, type StoredVector, type VectorIndex, type VectorNeighbour } from "../vectors/vector-index.ts";
import { errorForStatus, isNotFound, toEngineError } from "./error-mapping.ts";
import { filterableId, idsFilter, MAX_PER_PAGE, type SearchParams } from "./search-params.ts";
import { createClient, multiSearch, type TypesenseClientOptions } from "./typesense-client.ts";

/*
 * Products' embeddings on a Typesense cluster: a collection per store, `vectors_<storeId>`, apart from the store's
 * products (whose whole documents every catalog write replaces, and whose reindex builds a new collection), with
 * fields `hash` (not indexed) and `embedding` (float[] with num_dim: Typesense's HNSW index, cosine distance).
 * Nearest neighbours are a `vector_query` over it; exact similarities of given products a `vector_query` limited to
 * them by `filter_by`, searched flat.
 */

const COLLECTION_PREFIX = "vectors_";
/** Documents per import request: an embedding is a few KB of JSON. */
const IMPORT_BATCH = 200;

const collectionOf = (storeId: string) => `${COLLECTION_PREFIX}${storeId}`;
/** Typesense's cosine distance is 1 - cosine. */
const similarityOf = (hit: unknown) => 1 - Number((hit as { vector_distance?: number }).vector_distance ?? 1);

export class TypesenseVectors implements VectorIndex {
  readonly kind = "typesense";
  private readonly client: Client;
  /** Each store's collection's vector length, as last seen (0: no collection). */
  private readonly dimensions = new Map<string, number>();

  constructor(opts: TypesenseClientOptions) {
    this.client = createClient(opts);
  }

  private async lengthOf(storeId: string): Promise<number> {
    const known = this.dimensions.get(storeId);
    if (known !== undefined) return known;
    try {
      const schema = (await this.client.collections(collectionOf(storeId)).retrieve()) as { fields?: { name: string; num_dim?: number }[] };
      const length = schema.fields?.find((f) => f.name === "embedding")?.num_dim ?? 0;
      this.dimensions.set(storeId, length);
      return length;
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw toEngineError(error, `reading the vectors of store ${storeId}`);
    }
  }

  /** The store's collection, for vectors of `length` (one of another length is dropped first: another model). */
  private async ensure(storeId: string, length: number): Promise<void> {
    const current = await this.lengthOf(storeId);
    if (current === length) return;
    if (current !== 0) await this.dropStore(storeId);
    try {
      await this.client.collections().create({
        name: collectionOf(storeId),
        fields: [
          { name: "hash", type: "string", index: false, optional: true },
          { name: "embedding", type: "float[]", num_dim: length },
        ],
      } as never);
    } catch (error) {
      // Another replica made it meanwhile.
      if (!(error instanceof Error && /already exists/i.test(error.message)))
        throw toEngineError(error, `creating the vectors of store ${storeId}`);
    }
    this.dimensions.set(storeId, length);
  }

  async put(storeId: string, vectors: readonly StoredVector[]): Promise<void> {
    if (vectors.length === 0) return;
    const length = vectors[0]!.vector.length;
    if (vectors.some((v) => v.vector.length !== length)) throw new Error("vectors of one put must share one length");
    await this.ensure(storeId, length);
    for (const batch of chunked(vectors, IMPORT_BATCH)) {
      const lines = batch.map((v) => JSON.stringify({ id: v.id, hash: v.hash, embedding: Array.from(v.vector) })).join("\n");
      let answer: unknown;
      try {
        answer = await this.client.collections(collectionOf(storeId)).documents().import(lines, { action: "upsert" });
      } catch (error) {
        throw toEngineError(error, `writing the vectors of store ${storeId}`);
      }
      const results = (
        typeof answer === "string"
          ? answer
              .split("\n")
              .filter(Boolean)
              .map((l) => JSON.parse(l))
          : answer
      ) as { success: boolean; code?: number; error?: string }[];
      const failed = results.find((r) => !r.success);
      if (failed) throw errorForStatus(failed.code ?? 500, failed.error ?? "import failed");
    }
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    if (ids.length === 0 || (await this.lengthOf(storeId)) === 0) return;
    for (const id of ids) {
      try {
        await this.client.collections(collectionOf(storeId)).documents(id).delete();
      } catch (error) {
        if (!isNotFound(error)) throw toEngineError(error, `removing vectors of store ${storeId}`);
      }
    }
  }

  async hashes(storeId: string): Promise<Map<string, string>> {
    if ((await this.lengthOf(storeId)) === 0) return new Map();
    let exported: unknown;
    try {
      exported = await this.client.collections(collectionOf(storeId)).documents().export({ include_fields: "id,hash" });
    } catch (error) {
      if (isNotFound(error)) return new Map();
      throw toEngineError(error, `reading the vectors of store ${storeId}`);
    }
    // The client parses a JSON content type: a one-document export may arrive as an object.
    const text = typeof exported === "string" ? exported : JSON.stringify(exported);
    const out = new Map<string, string>();
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      const doc = JSON.parse(line) as { id: string; hash?: string };
      out.set(doc.id, doc.hash ?? "");
    }
    return out;
  }

  async nearest(storeId: string, vector: Float32Array, k: number): Promise<VectorNeighbour[]> {
    const count = Math.min(k, MAX_NEIGHBOURS);
    if (count <= 0 || (await this.lengthOf(storeId)) !== vector.length) return [];
    const [result] = await this.searches(storeId, [
      {
        collection: collectionOf(storeId),
        q: "*",
        vector_query: `embedding:([${Array.from(vector).join(",")}], k:${count})`,
        include_fields: "id",
        per_page: count,
      },
    ]);
    return (result?.hits ?? []).map((hit) => ({ id: String(hit.document.id), similarity: similarityOf(hit) }));
  }

  async similarities(storeId: string, vector: Float32Array, ids: readonly string[]): Promise<Map<string, number>> {
    const listed = ids.filter(filterableId);
    if (listed.length === 0 || (await this.lengthOf(storeId)) !== vector.length) return new Map();
    // Distances worked out by Typesense, exactly (a flat search of the listed products), not their vectors sent here.
    const query = (k: number) => `embedding:([${Array.from(vector).join(",")}], k:${k}, flat_search_cutoff:${k})`;
    const results = await this.searches(
      storeId,
      [...chunked(listed, MAX_PER_PAGE)].map((chunk) => ({
        collection: collectionOf(storeId),
        q: "*",
        vector_query: query(chunk.length),
        filter_by: idsFilter(chunk),
        include_fields: "id",
        per_page: chunk.length,
      })),
    );
    return new Map(results.flatMap((r) => r.hits ?? []).map((hit) => [String(hit.document.id), similarityOf(hit)]));
  }

  /** Searches of the store's vectors; none when its collection is gone (another replica dropped the store). */
  private async searches(storeId: string, searches: SearchParams[]) {
    try {
      return await multiSearch(this.client, searches);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      this.dimensions.delete(storeId);
      return [];
    }
  }

  async dropStore(storeId: string): Promise<void> {
    this.dimensions.delete(storeId);
    try {
      await this.client.collections(collectionOf(storeId)).delete();
    } catch (error) {
      if (!isNotFound(error)) throw toEngineError(error, `dropping the vectors of store ${storeId}`);
    }
  }

  async close(): Promise<void> {}
}
