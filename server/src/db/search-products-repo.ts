import type { Database } from "bun:sqlite";

/** Products' pre-shaped Search product JSON (schema.ts, search_products), read by the page. */
export class SearchProductsRepo {
  constructor(private readonly db: Database) {}

  /** The JSON of those of `ids` shaped with `shaping`, by id; others are missing. */
  shaped(storeId: string, ids: readonly string[], shaping: string): Map<string, string> {
    const rows = this.db
      .query("SELECT id, json FROM search_products WHERE store_id = ? AND shaping = ? AND id IN (SELECT value FROM json_each(?))")
      .all(storeId, shaping, JSON.stringify(ids)) as { id: string; json: string }[];
    return new Map(rows.map((r) => [r.id, r.json]));
  }

  /** Writes shapes; call inside the transaction that commits the products they were shaped from. */
  put(storeId: string, id: string, shaping: string, json: string): void {
    this.db
      .query(
        `INSERT INTO search_products (store_id, id, shaping, json) VALUES (?, ?, ?, ?)
         ON CONFLICT (store_id, id) DO UPDATE SET shaping = excluded.shaping, json = excluded.json`,
      )
      .run(storeId, id, shaping, json);
  }

  remove(storeId: string, id: string): void {
    this.db.query("DELETE FROM search_products WHERE store_id = ? AND id = ?").run(storeId, id);
  }
}
