import type { Database } from "bun:sqlite";

/** Looks a store curated for its products (each look: product ids), shown before the composed ones. */
export class PinnedLooksRepo {
  constructor(private readonly db: Database) {}

  get(storeId: string, productId: string): string[][] | null {
    const row = this.db.query("SELECT looks FROM pinned_looks WHERE store_id = ? AND product_id = ?").get(storeId, productId) as { looks: string } | null;
    return row ? (JSON.parse(row.looks) as string[][]) : null;
  }

  put(storeId: string, productId: string, looks: string[][], at: number): void {
    this.db
      .query(
        `INSERT INTO pinned_looks (store_id, product_id, looks, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (store_id, product_id) DO UPDATE SET looks = excluded.looks, updated_at = excluded.updated_at`,
      )
      .run(storeId, productId, JSON.stringify(looks), at);
  }

  delete(storeId: string, productId: string): boolean {
    return this.db.query("DELETE FROM pinned_looks WHERE store_id = ? AND product_id = ?").run(storeId, productId).changes > 0;
  }
}
