import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Database, Statement } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BulkCache } from "../../platform/sqlite/bulk-cache.ts";
import { CheckpointThread, WalCheckpoints } from "../../platform/sqlite/wal-checkpoints.ts";
import { openDatabase, readUnmapped } from "../../platform/sqlite/connection.ts";
import { queryCorrections } from "../../text/typo-vocabulary.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, PreparedDocument, SearchEngine, WordCorrection } from "../types.ts";
import { indexedText } from "./field-tokens.ts";
import { alternativesPlan, queryPlan } from "./text-query.ts";
import { StoreIndex, type DocumentTokens, type HeldDocument, type TextMatches } from "./store-index.ts";
import { sequenceBlob, StoredTokens } from "./stored-tokens.ts";
import { heldOf, ownPrepared, prepareDocument, type SqlitePrepared } from "./sqlite-preparer.ts";

/*
 * The embedded engine: one SQLite file per store under <dataDir>/engine (a store's index can be dropped or
 * rebuilt without touching others). Documents are kept whole as JSON, each with its tokens (stored-tokens.ts);
 * on first use a store's documents are loaded into a StoreIndex, which matches text, filters, counts facets and
 * sorts in memory. What a write needs besides the document (its tokens, the JSON stored) is made ahead, on the
 * indexing thread for documents that come from there (sqlite-preparer.ts). Tokens made by another tokenizer are
 * made again as the store loads, so a change of tokenizer needs no migration.
 */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS documents (
    rowid    INTEGER PRIMARY KEY,
    id       TEXT NOT NULL UNIQUE,
    version  INTEGER NOT NULL,
    doc      TEXT NOT NULL,
    -- stored-tokens.ts
    tokens   BLOB,
    surfaces TEXT
  );
  -- Where text was matched until the TextIndex replaced it.
  DROP TABLE IF EXISTS documents_fts;
`;

export interface SqliteEngineOptions {
  dataDir: string;
  synchronous: "FULL" | "NORMAL";
  /** How much of a store's file its connection reads mapped (connection.ts's default when not given). */
  mmapBytes?: number;
  /** Each store's connection's page cache in KiB (connection.ts's default when not given). */
  cacheKib?: number;
  /** A store's connection's page cache while documents are written to it (bulk-cache.ts; none wider when not given). */
  bulkCacheKib?: number;
}

/** A store's statements, looked up once when the store is opened (db.query: close() finalizes them). */
function statements(db: Database) {
  return {
    current: db.query("SELECT rowid, version FROM documents WHERE id = ?"),
    currentOf: db.query("SELECT id, rowid, version FROM documents WHERE id IN (SELECT value FROM json_each(?))"),
    // Not INSERT ... RETURNING: stepped through .get() it measured 20 times slower (beside the FTS5 inserts of then).
    // CAST: a document may come as UTF-8 bytes (utf8-text.ts).
    insertDoc: db.query("INSERT INTO documents (id, version, doc, tokens, surfaces) VALUES (?, ?, CAST(? AS TEXT), ?, ?)"),
    updateDoc: db.query("UPDATE documents SET version = ?, doc = CAST(? AS TEXT), tokens = ?, surfaces = ? WHERE rowid = ?"),
    updateTokens: db.query("UPDATE documents SET tokens = ?, surfaces = ? WHERE rowid = ?"),
    updateJson: db.query("UPDATE documents SET doc = ? WHERE rowid = ?"),
    deleteDoc: db.query("DELETE FROM documents WHERE rowid = ?"),
    find: db.query("SELECT rowid, doc FROM documents WHERE id = ?"),
  } satisfies Record<string, Statement>;
}

interface OpenStore {
  db: Database;
  index: StoreIndex;
  sql: ReturnType<typeof statements>;
  tokens: StoredTokens;
  bulkCache: BulkCache;
  /** Documents' writes, checkpointed off the serving thread. */
  checkpoints: WalCheckpoints;
}

/** Documents (and look-alike words, four times as many) loaded per turn of the event loop. */
const LOAD_SLICE = 2000;

export class SqliteEngine implements SearchEngine {
  readonly kind = "sqlite";
  private readonly stores = new Map<string, Promise<OpenStore>>();
  private closing = false;
  private readonly dir: string;
  /** Checkpoints the stores' files after their documents' writes. */
  private readonly checkpointThread = new CheckpointThread();

  constructor(private readonly opts: SqliteEngineOptions) {
    this.dir = join(opts.dataDir, "engine");
    mkdirSync(this.dir, { recursive: true });
  }

  /** Store ids are validated at creation (letters, digits, - and _), so they are safe as file names. */
  private store(storeId: string): Promise<OpenStore> {
    let open = this.stores.get(storeId);
    if (!open) {
      open = this.open(storeId);
      this.stores.set(storeId, open);
      open.catch(() => this.stores.delete(storeId));
    }
    return open;
  }

  /**
   * Opens a store's file and loads its documents into memory in slices, letting the event loop run between them:
   * a large store loads while the server keeps answering other requests. Documents without kept tokens (a file
   * from before they were kept, or another tokenizer's) are tokenized and their tokens kept as they load.
   */
  private async open(storeId: string): Promise<OpenStore> {
    const db = openDatabase(join(this.dir, `${storeId}.db`), {
      synchronous: this.opts.synchronous,
      mmapBytes: this.opts.mmapBytes,
      cacheKib: this.opts.cacheKib,
    });
    db.exec(SCHEMA);
    const index = new StoreIndex();
    const tokens = new StoredTokens(db, index.text);
    tokens.load();
    const sql = statements(db);
    for (let after = 0; ; await yieldToEventLoop()) {
      if (this.closing) throw new Error("the engine was closed while a store loaded");
      // Unmapped: read through `db`, every page of the file would stay resident while the store is open.
      const rows = readUnmapped(db, (reader) =>
        reader.query("SELECT rowid, doc, tokens, surfaces FROM documents WHERE rowid > ? ORDER BY rowid LIMIT ?").all(after, LOAD_SLICE),
      ) as { rowid: number; doc: string; tokens: Uint8Array | null; surfaces: string | null }[];
      const made: [number, DocumentTokens][] = [];
      for (const row of rows) {
        const doc = JSON.parse(row.doc) as EngineDocument;
        let kept = tokens.of(row);
        if (!kept) made.push([row.rowid, (kept = index.tokensOf(indexedText(doc.text)))]);
        index.put(row.rowid, heldOf(doc), kept);
      }
      if (made.length) {
        db.transaction(() => {
          tokens.keepNew();
          for (const [rowid, t] of made) sql.updateTokens.run(sequenceBlob(t.sequence), t.surfaces, rowid);
        })();
      }
      if (rows.length < LOAD_SLICE) break;
      after = rows.at(-1)!.rowid;
    }
    void this.indexLookAlikes(index);
    return {
      db,
      index,
      sql,
      tokens,
      bulkCache: new BulkCache(db, this.opts.bulkCacheKib ?? 0),
      checkpoints: new WalCheckpoints(db, this.checkpointThread),
    };
  }

  /**
   * A loaded store's look-alike words (its typo index, about 0.25 s for the demo catalog) are indexed after it starts
   * answering, in slices; a correction needed sooner finishes them itself (TypoVocabulary.corrections).
   */
  private async indexLookAlikes(index: StoreIndex): Promise<void> {
    while (!this.closing && index.vocabulary.indexPending(LOAD_SLICE * 4)) await yieldToEventLoop();
  }

  async preload(storeIds: readonly string[]): Promise<void> {
    for (const storeId of storeIds) await this.store(storeId);
  }

  upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    return this.write(storeId, docs.map(prepareDocument), true);
  }

  upsertPrepared(storeId: string, docs: readonly PreparedDocument[], opts?: { synced?: boolean }): Promise<void> {
    return this.write(storeId, ownPrepared(docs), opts?.synced ?? true);
  }

  private async write(storeId: string, prepared: readonly SqlitePrepared[], synced: boolean): Promise<void> {
    const { db, index, sql, tokens, bulkCache, checkpoints } = await this.store(storeId);
    bulkCache.widen();
    // Numbered before the write, which keeps them with the documents; a token numbered for a write that fails
    // is kept by the next one.
    const docTokens = prepared.map((p) => index.tokensOf(p.text));
    const applied: [number, HeldDocument, DocumentTokens][] = [];
    // A bulk's documents fill the log with a checkpoint's worth every few batches: copied into the file on the
    // serving thread, that took it from the requests it answers.
    const transaction = db.transaction(() => {
      tokens.keepNew();
      const rows = sql.currentOf.all(JSON.stringify(prepared.map(({ id }) => id))) as { id: string; rowid: number; version: number }[];
      const current = new Map(rows.map((row) => [row.id, row]));
      prepared.forEach((p, i) => {
        const { id, version } = p;
        const existing = current.get(id);
        if (existing && existing.version > version) return;
        const t = docTokens[i]!;
        const blob = sequenceBlob(t.sequence);
        let rowid: number;
        if (existing) {
          rowid = existing.rowid;
          sql.updateDoc.run(version, p.json, blob, t.surfaces, rowid);
        } else {
          rowid = Number(sql.insertDoc.run(id, version, p.json, blob, t.surfaces).lastInsertRowid);
        }
        // The same id twice in one call: the second write replaces the first.
        current.set(id, { id, rowid, version });
        applied.push([rowid, p.held, t]);
      });
    });
    // Unsynced, the log is synced with the next synced commit: one wait for the disk per batch instead of one per write.
    if (synced) checkpoints.commitSynced(() => transaction());
    else checkpoints.commitUnsynced(() => transaction());
    // Memory follows the committed file, never ahead of it.
    for (const [rowid, held, t] of applied) index.put(rowid, held, t);
    // New words' look-alikes are indexed with the write that brought them: left to the first search after a bulk,
    // they delayed it by 0.7 s (demo catalog).
    index.vocabulary.indexPending();
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    const { db, index, sql } = await this.store(storeId);
    const removed: number[] = [];
    db.transaction(() => {
      for (const id of ids) {
        const row = sql.current.get(id) as { rowid: number } | null;
        if (!row) continue;
        sql.deleteDoc.run(row.rowid);
        removed.push(row.rowid);
      }
    })();
    for (const rowid of removed) index.delete(rowid);
  }

  async setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void> {
    const { db, index, sql } = await this.store(storeId);
    const changed: [number, string, number | null][] = [];
    db.transaction(() => {
      for (const u of updates) {
        const row = sql.find.get(u.id) as { rowid: number; doc: string } | null;
        if (!row) continue;
        const doc = JSON.parse(row.doc) as EngineDocument;
        for (const [field, value] of Object.entries(u.numbers)) {
          if (value === null) delete doc.numbers[field];
          else doc.numbers[field] = value;
          changed.push([row.rowid, field, value]);
        }
        sql.updateJson.run(JSON.stringify(doc), row.rowid);
      }
    })();
    for (const [rowid, field, value] of changed) index.setNumber(rowid, field, value);
  }

  async search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult> {
    const { index } = await this.store(storeId);
    if (!request.text.trim()) return index.evaluate(request, null);
    const identifierSlots = new Set(index.identifierMatches(request.text));
    const plan = queryPlan(request.text, request.matching, index.vocabulary);
    let slots: number[] = [...identifierSlots];
    if (plan) {
      const matched = index.text.match(plan.clauses);
      // Mostly no identifier matches: the text's matches are the list as they are.
      if (slots.length === 0) slots = matched;
      else for (const slot of matched) if (!identifierSlots.has(slot)) slots.push(slot);
    }
    const widened = plan && request.alternatives?.length ? alternativesPlan(request.text, plan, request.alternatives) : null;
    if (widened) {
      const typed = new Set(slots);
      for (const slot of index.text.match(widened.clauses)) if (!typed.has(slot)) slots.push(slot);
    }
    const words = ((widened ?? plan)?.words ?? []).map((alternatives) => index.scoringWord(alternatives));
    const text: TextMatches = { slots, words, identifierSlots };
    return index.evaluate(request, text);
  }

  async corrections(storeId: string, text: string): Promise<WordCorrection[]> {
    return queryCorrections((await this.store(storeId)).index.vocabulary, text);
  }

  async count(storeId: string): Promise<number> {
    return (await this.store(storeId)).index.size;
  }

  /** Estimated heap bytes of a store's in-memory index, by structure (not part of the engine port: for benches). */
  async memoryReport(storeId: string): Promise<Record<string, number>> {
    return (await this.store(storeId)).index.memoryReport();
  }

  async versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const { sql } = await this.store(storeId);
    const out = new Map<string, number>();
    for (const id of ids) {
      const row = sql.current.get(id) as { version: number } | null;
      if (row) out.set(id, row.version);
    }
    return out;
  }

  async dropStore(storeId: string): Promise<void> {
    const open = this.stores.get(storeId);
    this.stores.delete(storeId);
    const store = open && (await open.catch(() => null));
    if (store) closeStore(store);
    await this.checkpointThread.forget(join(this.dir, `${storeId}.db`));
    for (const suffix of ["", "-wal", "-shm"]) {
      const file = join(this.dir, `${storeId}.db${suffix}`);
      if (existsSync(file)) rmSync(file);
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const open = [...this.stores.values()];
    this.stores.clear();
    for (const store of await Promise.allSettled(open)) if (store.status === "fulfilled") closeStore(store.value);
    this.checkpointThread.close();
  }
}

function closeStore(store: OpenStore): void {
  store.bulkCache.close();
  store.db.close();
}
