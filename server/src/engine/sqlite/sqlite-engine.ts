import type { Database } from "bun:sqlite";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../db/connection.ts";
import type { EngineDocument, SearchEngine } from "../types.ts";

/*
 * The embedded engine: one SQLite file per store under <dataDir>/engine, so a store's index can be dropped or
 * rebuilt without touching others, and its writes never wait on another store's. Documents are kept whole
 * (JSON) beside an FTS5 index of their text.
 */

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS documents (
    rowid    INTEGER PRIMARY KEY,
    id       TEXT NOT NULL UNIQUE,
    version  INTEGER NOT NULL,
    doc      TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE IF NOT EXISTS documents_fts USING fts5(
    name, brand, categories, features, tags, description, identifiers,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
`;

export interface SqliteEngineOptions {
  dataDir: string;
  synchronous: "FULL" | "NORMAL";
}

export class SqliteEngine implements SearchEngine {
  readonly kind = "sqlite";
  private readonly handles = new Map<string, Database>();
  private readonly dir: string;

  constructor(private readonly opts: SqliteEngineOptions) {
    this.dir = join(opts.dataDir, "engine");
    mkdirSync(this.dir, { recursive: true });
  }

  /** Store ids are validated at creation (letters, digits, - and _), so they are safe as file names. */
  private db(storeId: string): Database {
    let db = this.handles.get(storeId);
    if (!db) {
      db = openDatabase(join(this.dir, `${storeId}.db`), { synchronous: this.opts.synchronous });
      db.exec(SCHEMA);
      this.handles.set(storeId, db);
    }
    return db;
  }

  async upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    const db = this.db(storeId);
    const current = db.query("SELECT rowid, version FROM documents WHERE id = ?");
    const insertDoc = db.query("INSERT INTO documents (id, version, doc) VALUES (?, ?, ?) RETURNING rowid");
    const updateDoc = db.query("UPDATE documents SET version = ?, doc = ? WHERE rowid = ?");
    const deleteText = db.query("DELETE FROM documents_fts WHERE rowid = ?");
    const insertText = db.query(
      "INSERT INTO documents_fts (rowid, name, brand, categories, features, tags, description, identifiers) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    );
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
        const t = doc.text;
        insertText.run(
          rowid,
          t.name,
          t.brand,
          t.categories.join(" \u2022 "),
          t.features.join(" \u2022 "),
          t.tags.join(" "),
          t.description,
          t.identifiers.join(" "),
        );
      }
    })();
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    const db = this.db(storeId);
    const find = db.query("SELECT rowid FROM documents WHERE id = ?");
    const deleteDoc = db.query("DELETE FROM documents WHERE rowid = ?");
    const deleteText = db.query("DELETE FROM documents_fts WHERE rowid = ?");
    db.transaction(() => {
      for (const id of ids) {
        const row = find.get(id) as { rowid: number } | null;
        if (!row) continue;
        deleteText.run(row.rowid);
        deleteDoc.run(row.rowid);
      }
    })();
  }

  async count(storeId: string): Promise<number> {
    return (this.db(storeId).query("SELECT count(*) AS n FROM documents").get() as { n: number }).n;
  }

  async versions(storeId: string, ids: readonly string[]): Promise<Map<string, number>> {
    const q = this.db(storeId).query("SELECT version FROM documents WHERE id = ?");
    const out = new Map<string, number>();
    for (const id of ids) {
      const row = q.get(id) as { version: number } | null;
      if (row) out.set(id, row.version);
    }
    return out;
  }

  async dropStore(storeId: string): Promise<void> {
    this.handles.get(storeId)?.close();
    this.handles.delete(storeId);
    for (const suffix of ["", "-wal", "-shm"]) {
      const file = join(this.dir, `${storeId}.db${suffix}`);
      if (existsSync(file)) rmSync(file);
    }
  }

  async close(): Promise<void> {
    for (const db of this.handles.values()) db.close();
    this.handles.clear();
  }
}
