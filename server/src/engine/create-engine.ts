import type { Config } from "../config.ts";
import { SqliteEngine } from "./sqlite/sqlite-engine.ts";
import { TypesenseEngine } from "./typesense/typesense-engine.ts";
import type { SearchEngine } from "./types.ts";

/** The engine a deployment uses, chosen from config in one place. */
export function createEngine(config: Config): SearchEngine {
  if (config.typesense) return new TypesenseEngine(config.typesense);
  return new SqliteEngine({ dataDir: config.dataDir, synchronous: config.dbSynchronous });
}
