import type { Database, Statement } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../db/connection.ts";
import { queryCorrections } from "../text/typo-vocabulary.ts";
import type { EngineDocument, EngineSearchRequest, EngineSearchResult, SearchEngine, WordCorrection } from "../types.ts";
import { queryPlan } from "./fts-query.ts";
import { fieldTokens, StoreIndex, type TextMatches } from "./store-index.ts";

/*
 * The embedded engine: one SQLite file per store under <dataDir>/engine (a store's index can be dropped or
 * rebuilt without touching others). Documents are kept whole as JSON beside an FTS5 index of their normalized
 * tokens; on first use a store's documents are loaded into a StoreIndex for filtering, facets and sorting.
 */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS documents (
    rowid    INTEGER PRIMARY KEY,
    id       TEXT NOT NULL UNIQUE,
    version  INTEGER NOT NULL,
    doc      TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
    name, brand, categories, features, tags, description,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 0', prefix = '1 2 3'
  );
`;


export interface SqliteEngineOptions {
  dataDir: string;
  synchronous: "FULL" | "NORMAL";
}

interface OpenStore {
  db: Database;
  index: StoreIndex;
  match: Statement;
}

/** The FTS columns: each field's normalized tokens. */
function ftsColumns(fields: [string, string][][]): string[] {
  return fields.map((pairs) => pairs.map(([token]) => token).join(" "));
}

export class SqliteEngine implements SearchEngine {
  readonly kind = "sqlite";
  private readonly stores = new Map<string, OpenStore>();
  private readonly dir: string;

  constructor(private readonly opts: SqliteEngineOptions) {
    this.dir = join(opts.dataDir, "engine");
    mkdirSync(this.dir, { recursive: true });
  }

  /** Store ids are validated at creation (letters, digits, - and _), so they are safe as file names. */
  private store(storeId: string): OpenStore {
    let open = this.stores.get(storeId);
    if (!open) {
      const db = openDatabase(join(this.dir, `${storeId}.db`), { synchronous: this.opts.synchronous });
      db.exec(SCHEMA);
      const index = new StoreIndex();
      for (const row of db.query("SELECT rowid, doc FROM documents").iterate() as IterableIterator<{ rowid: number; doc: string }>) {
        index.put(row.rowid, JSON.parse(row.doc));
      }
      // Only which rows match: relevance is scored in memory (StoreIndex), far cheaper than bm25 per row.
      const match = db.query("SELECT rowid FROM documents_fts WHERE documents_fts MATCH ?");
      open = { db, index, match };
      this.stores.set(storeId, open);
    }
    return open;
  }

  async upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    const { db, index } = this.store(storeId);
    const current = db.query("SELECT rowid, version FROM documents WHERE id = ?");
    const insertDoc = db.query("INSERT INTO documents (id, version, doc) VALUES (?, ?, ?) RETURNING rowid");
    const updateDoc = db.query("UPDATE documents SET version = ?, doc = ? WHERE rowid = ?");
    const deleteText = db.query("DELETE FROM documents_fts WHERE rowid = ?");
    const insertText = db.query(
      "INSERT INTO documents_fts (rowid, name, brand, categories, features, tags, description) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const applied: [number, EngineDocument, [string, string][][]][] = [];
    db.transaction(() => {
      for (const doc of docs) {
        const existing = current.get(doc.id) as { rowid: number; version: number } | null;
        if (existing && existing.version > doc.version) continue;
        let rowid: number;
        if (existing) {
          rowid = existing.rowid;
          updateDoc.run(doc.version, JSON.stringify(doc), rowid);
          deleteText.run(rowid);
        } else {
          rowid = (insertDoc.get(doc.id, doc.version, JSON.stringify(doc)) as { rowid: number }).rowid;
        }
        const fields = fieldTokens(doc);
        insertText.run(rowid, ...ftsColumns(fields));
        applied.push([rowid, doc, fields]);
      }
    })();
    // Memory follows the committed file, never ahead of it.
    for (const [rowid, doc, fields] of applied) index.put(rowid, structuredClone(doc), fields);
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    const { db, index } = this.store(storeId);
    const find = db.query("SELECT rowid FROM documents WHERE id = ?");
    const deleteDoc = db.query("DELETE FROM documents WHERE rowid = ?");
    const deleteText = db.query("DELETE FROM documents_fts WHERE rowid = ?");
    const removed: number[] = [];
    db.transaction(() => {
      for (const id of ids) {
        const row = find.get(id) as { rowid: number } | null;
        if (!row) continue;
        deleteText.run(row.rowid);
        deleteDoc.run(row.rowid);
        removed.push(row.rowid);
      }
    })();
    for (const rowid of removed) index.delete(rowid);
  }

  async setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void> {
    const { db, index } = this.store(storeId);
    const find = db.query("SELECT rowid, doc FROM documents WHERE id = ?");
    const write = db.query("UPDATE documents SET doc = ? WHERE rowid = ?");
    const changed: [number, string, number | null][] = [];
    db.transaction(() => {
      for (const u of updates) {
        const row = find.get(u.id) as { rowid: number; doc: string } | null;
        if (!row) continue;
        const doc = JSON.parse(row.doc) as EngineDocument;
        for (const [field, value] of Object.entries(u.numbers)) {
          if (value === null) delete doc.numbers[field];
          else doc.numbers[field] = value;
          changed.push([row.rowid, field, value]);
        }
        write.run(JSON.stringify(doc), row.rowid);
      }
    })();
    for (const [rowid, field, value] of changed) index.setNumber(rowid, field, value);
  }

  async search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult> {
    const { index, match } = this.store(storeId);
    if (!request.text.trim()) return index.evaluate(request, null);
    const identifierSlots = new Set(index.identifierMatches(request.text));
    const plan = queryPlan(request.text, request.matching, index.vocabulary);
    const slots: number[] = [...identifierSlots];
    if (plan) {
      for (const [rowid] of match.values(plan.expression) as [number][]) if (!identifierSlots.has(rowid)) slots.push(rowid);
    }
    const words = (plan?.words ?? []).map((alternatives) => index.scoringWord(alternatives));
    const text: TextMatches = { slots, words, identifierSlots };
    return index.evaluate(request, text);
  }

  async corrections(storeId: string, text: string): Promise<WordCorrection[]> {
    return queryCorrections(this.store(storeId).index.vocabulary, text);
  }

  async count(storeId: string): Promise<number> {
    return this.store(storeId).index.size;
  }

  async versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const { db } = this.store(storeId);
    const q = db.query("SELECT version FROM documents WHERE id = ?");
    const out = new Map<string, number>();
    for (const id of ids) {
      const row = q.get(id) as { version: number } | null;
      if (row) out.set(id, row.version);
    }
    return out;
  }

  async dropStore(storeId: string): Promise<void> {
    this.stores.get(storeId)?.db.close();
    this.stores.delete(storeId);
    for (const suffix of ["", "-wal", "-shm"]) {
      const file = join(this.dir, `${storeId}.db${suffix}`);
      if (existsSync(file)) rmSync(file);
    }
  }

  async close(): Promise<void> {
    for (const { db } of this.stores.values()) db.close();
    this.stores.clear();
  }
}
