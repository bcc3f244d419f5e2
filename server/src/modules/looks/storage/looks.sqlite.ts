import type { Database } from "bun:sqlite";
import { SqliteLookPairsRepo } from "./look-pairs.sqlite.ts";
import type { LooksRepository } from "./looks-repository.ts";

/** Curated looks and learned pairs in the embedded database. */
export class SqliteLooksRepo implements LooksRepository {
  private readonly pairs: SqliteLookPairsRepo;

  constructor(private readonly db: Database) {
    this.pairs = new SqliteLookPairsRepo(db);
  }

  async partners(storeId: string, productId: string): Promise<Map<string, number>> {
    return this.pairs.partners(storeId, productId);
  }

  async pinned(storeId: string, productId: string): Promise<string[][] | null> {
    const row = this.db.query("SELECT looks FROM pinned_looks WHERE store_id = ? AND product_id = ?").get(storeId, productId) as {
      looks: string;
    } | null;
    return row ? (JSON.parse(row.looks) as string[][]) : null;
  }

  async putPinned(storeId: string, productId: string, looks: string[][], at: number): Promise<void> {
    this.db
      .query(
        `INSERT INTO pinned_looks (store_id, product_id, looks, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (store_id, product_id) DO UPDATE SET looks = excluded.looks, updated_at = excluded.updated_at`,
      )
      .run(storeId, productId, JSON.stringify(looks), at);
  }

  async deletePinned(storeId: string, productId: string): Promise<boolean> {
    return this.db.query("DELETE FROM pinned_looks WHERE store_id = ? AND product_id = ?").run(storeId, productId).changes > 0;
  }
}
