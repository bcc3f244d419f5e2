import type { Config } from "../config.ts";
import { SqliteEngine } from "./sqlite/sqlite-engine.ts";
import { UsearchVectors } from "./sqlite/usearch-vectors.ts";
import { TypesenseEngine } from "./typesense/typesense-engine.ts";
import { TypesenseVectors } from "./typesense/typesense-vectors.ts";
import type { SearchEngine } from "./types.ts";
import type { VectorIndex } from "./vectors/vector-index.ts";

/** The engine a deployment uses, chosen from config in one place. */
export function createEngine(config: Config): SearchEngine {
  if (config.typesense) return new TypesenseEngine(config.typesense);
  return new SqliteEngine({
    dataDir: config.dataDir,
    synchronous: config.dbSynchronous,
    mmapBytes: config.sqliteMmapBytes,
    cacheKib: config.sqliteCacheKib,
    bulkCacheKib: config.sqliteBulkCacheKib,
  });
}

/** Where products' embeddings live beside that engine; null when hybrid search is off (no EMBEDDINGS_URL). */
export function createVectorIndex(config: Config): VectorIndex | null {
  if (!config.embeddings) return null;
  if (config.typesense) return new TypesenseVectors(config.typesense);
  return new UsearchVectors({
    dataDir: config.dataDir,
    synchronous: config.dbSynchronous,
    mmapBytes: config.sqliteMmapBytes,
    cacheKib: config.sqliteCacheKib,
  });
}
