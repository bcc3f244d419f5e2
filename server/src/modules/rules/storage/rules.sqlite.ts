import type { Database } from "bun:sqlite";
import type { RulesRepository, StoredRule } from "./rules-repository.ts";
import { writeTransaction } from "../../../platform/sqlite/connection.ts";

/** A store's query rules in the embedded database (a write transaction holds the database: writers wait for each other). */
export class SqliteRulesRepo implements RulesRepository {
  constructor(private readonly db: Database) {}

  async get(storeId: string, id: string): Promise<StoredRule | null> {
    return this.db
      .query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? AND id = ?")
      .get(storeId, id) as StoredRule | null;
  }

  async all(storeId: string): Promise<StoredRule[]> {
    return this.db
      .query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? ORDER BY id")
      .all(storeId) as StoredRule[];
  }

  async page(storeId: string, from: number, limit: number): Promise<StoredRule[]> {
    return this.db
      .query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? ORDER BY id LIMIT ? OFFSET ?")
      .all(storeId, limit, from) as StoredRule[];
  }

  async count(storeId: string): Promise<number> {
    return this.countNow(storeId);
  }

  private countNow(storeId: string): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM query_rules WHERE store_id = ?").get(storeId) as { n: number }).n;
  }

  async putAll(storeId: string, rules: readonly { id: string; rule: string }[], at: number, max: number): Promise<Set<string>> {
    const refused = new Set<string>();
    const exists = this.db.query("SELECT 1 FROM query_rules WHERE store_id = ? AND id = ?");
    const upsert = this.db.query(
      `INSERT INTO query_rules (store_id, id, rule, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, id) DO UPDATE SET rule = excluded.rule, updated_at = excluded.updated_at`,
    );
    writeTransaction(this.db, () => {
      let count = this.countNow(storeId);
      for (const r of rules) {
        const added = !exists.get(storeId, r.id);
        if (added && count >= max) {
          refused.add(r.id);
          continue;
        }
        upsert.run(storeId, r.id, r.rule, at);
        if (added) count++;
      }
    })();
    return refused;
  }

  async delete(storeId: string, id: string): Promise<boolean> {
    return this.db.query("DELETE FROM query_rules WHERE store_id = ? AND id = ?").run(storeId, id).changes > 0;
  }
}
