import type { Database } from "bun:sqlite";
import type { SynonymBody, SynonymSet } from "../synonym-schema.ts";
import { toSynonymSet, type SynonymRow, type SynonymsRepository } from "./synonyms-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** A store's synonym sets in the embedded database. */
export class SqliteSynonymsRepo implements SynonymsRepository {
  constructor(private readonly db: Database) {}

  async get(storeId: string, id: string): Promise<SynonymSet | null> {
    const row = this.db
      .query("SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ? AND id = ?")
      .get(storeId, id) as SynonymRow | null;
    return row ? toSynonymSet(row) : null;
  }

  async list(storeId: string, from: number, limit: number | null): Promise<SynonymSet[]> {
    const rows = this.db
      .query("SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ? ORDER BY id LIMIT ? OFFSET ?")
      .all(storeId, limit ?? -1, from) as SynonymRow[];
    return rows.map(toSynonymSet);
  }

  async count(storeId: string): Promise<number> {
    return (this.db.query("SELECT count(*) AS n FROM synonyms WHERE store_id = ?").get(storeId) as { n: number }).n;
  }

  async existing(storeId: string, ids: readonly string[]): Promise<Set<string>> {
    const rows = this.db
      .query("SELECT id FROM synonyms WHERE store_id = ? AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(ids)) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  async put(storeId: string, sets: readonly { id: string; body: SynonymBody }[], at: number): Promise<void> {
    const upsert = this.db.query(
      `INSERT INTO synonyms (store_id, id, input, synonyms, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (store_id, id) DO UPDATE SET input = excluded.input, synonyms = excluded.synonyms, updated_at = excluded.updated_at`,
    );
    writeTransaction(this.db, () => {
      for (const { id, body } of sets) upsert.run(storeId, id, body.input ?? null, JSON.stringify(body.synonyms), at);
    })();
  }

  async delete(storeId: string, id: string): Promise<boolean> {
    return this.db.query("DELETE FROM synonyms WHERE store_id = ? AND id = ?").run(storeId, id).changes > 0;
  }
}
