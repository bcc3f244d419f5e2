import type { Database } from "bun:sqlite";
import type { SynonymBody, SynonymSet } from "../modules/synonyms/synonym-schema.ts";

interface Row {
  id: string;
  input: string | null;
  synonyms: string;
  updated_at: number;
}

const toSet = (r: Row): SynonymSet => ({
  id: r.id,
  type: r.input === null ? "multiWay" : "oneWay",
  ...(r.input === null ? {} : { input: r.input }),
  synonyms: JSON.parse(r.synonyms) as string[],
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** A store's synonym sets (deleted with the store). */
export class SynonymsRepo {
  constructor(private readonly db: Database) {}

  get(storeId: string, id: string): SynonymSet | null {
    const row = this.db.query("SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ? AND id = ?").get(storeId, id) as Row | null;
    return row ? toSet(row) : null;
  }

  /** By id; `limit` null: all of them. */
  list(storeId: string, from: number, limit: number | null): SynonymSet[] {
    const rows = this.db
      .query("SELECT id, input, synonyms, updated_at FROM synonyms WHERE store_id = ? ORDER BY id LIMIT ? OFFSET ?")
      .all(storeId, limit ?? -1, from) as Row[];
    return rows.map(toSet);
  }

  count(storeId: string): number {
    return (this.db.query("SELECT count(*) AS n FROM synonyms WHERE store_id = ?").get(storeId) as { n: number }).n;
  }

  has(storeId: string, id: string): boolean {
    return this.db.query("SELECT 1 FROM synonyms WHERE store_id = ? AND id = ?").get(storeId, id) !== null;
  }

  /** Inserts or replaces sets in one transaction. */
  put(storeId: string, sets: readonly { id: string; body: SynonymBody }[], at: number): void {
    const upsert = this.db.query(
      `INSERT INTO synonyms (store_id, id, input, synonyms, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (store_id, id) DO UPDATE SET input = excluded.input, synonyms = excluded.synonyms, updated_at = excluded.updated_at`,
    );
    this.db.transaction(() => {
      for (const { id, body } of sets) upsert.run(storeId, id, body.input ?? null, JSON.stringify(body.synonyms), at);
    })();
  }

  delete(storeId: string, id: string): boolean {
    return this.db.query("DELETE FROM synonyms WHERE store_id = ? AND id = ?").run(storeId, id).changes > 0;
  }
}
