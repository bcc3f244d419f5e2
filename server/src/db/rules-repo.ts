import type { Database } from "bun:sqlite";

/** A query rule as stored: its JSON (modules/rules/rule-schema.ts) and when it was last written. */
export interface StoredRule {
  id: string;
  rule: string;
  updatedAt: number;
}

/** A store's query rules (merchandising), deleted with the store. */
export class RulesRepo {
  constructor(private readonly db: Database) {}

  get(storeId: string, id: string): StoredRule | null {
    return this.db
      .query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? AND id = ?")
      .get(storeId, id) as StoredRule | null;
  }

  /** Every rule of the store, by id: what the store's rule book is compiled from. */
  all(storeId: string): StoredRule[] {
    return this.db.query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? ORDER BY id").all(storeId) as StoredRule[];
  }

  /** Rules by id, `limit` of them from the `from`-th. */
  page(storeId: string, from: number, limit: number): StoredRule[] {
    return this.db
      .query("SELECT id, rule, updated_at AS updatedAt FROM query_rules WHERE store_id = ? ORDER BY id LIMIT ? OFFSET ?")
      .all(storeId, limit, from) as StoredRule[];
  }

  count(storeId: string): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM query_rules WHERE store_id = ?").get(storeId) as { n: number }).n;
  }

  /** Writes rules in one transaction, each unless the store would then hold more than `max` (those are returned). */
  putAll(storeId: string, rules: readonly { id: string; rule: string }[], at: number, max: number): Set<string> {
    const refused = new Set<string>();
    const exists = this.db.query("SELECT 1 FROM query_rules WHERE store_id = ? AND id = ?");
    const upsert = this.db.query(
      `INSERT INTO query_rules (store_id, id, rule, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (store_id, id) DO UPDATE SET rule = excluded.rule, updated_at = excluded.updated_at`,
    );
    this.db.transaction(() => {
      let count = this.count(storeId);
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

  delete(storeId: string, id: string): boolean {
    return this.db.query("DELETE FROM query_rules WHERE store_id = ? AND id = ?").run(storeId, id).changes > 0;
  }
}
