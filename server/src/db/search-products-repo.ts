import type { Database } from "bun:sqlite";

/** Products' stored Search product JSON (search_products) as the enrichment stage, still on SQLite, drops it. */
export class SearchProductsRepo {
  constructor(private readonly db: Database) {}

  /** Drops a product's shape (its colours changed): the next page that shows it shapes it again. */
  remove(storeId: string, id: string): void {
    this.db.query("DELETE FROM search_products WHERE store_id = ? AND id = ?").run(storeId, id);
  }
}
