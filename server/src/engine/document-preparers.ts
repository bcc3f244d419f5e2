import { sqlitePreparer } from "./sqlite/sqlite-preparer.ts";
import { typesensePreparer } from "./typesense/typesense-preparer.ts";
import type { DocumentPreparer, EngineKind } from "./types.ts";

/*
 * Each adapter kind's DocumentPreparer. The kind is chosen with the adapter (create-engine.ts); the table is apart
 * from the adapters because the indexing thread loads it: importing create-engine.ts there (the adapters, the
 * Typesense client, the native vector index) took 80-130 ms at the thread's start.
 */
const PREPARERS: Record<EngineKind, DocumentPreparer> = { sqlite: sqlitePreparer, typesense: typesensePreparer };

export const documentPreparer = (kind: EngineKind): DocumentPreparer => PREPARERS[kind];
