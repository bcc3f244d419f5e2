import type { Database } from "bun:sqlite";

export interface OrderLine {
  productId: string;
  qty: number;
}

/** Ranking signals derived from shopper events: purchases per product. */
export class SignalsRepo {
  constructor(private readonly db: Database) {}

  /**
   * Counts an order's lines once, however many of OrderComplete and Purchase report it. Call inside the
   * transaction that stores the events, so counts and events never disagree. Returns the products changed.
   */
  countOrder(storeId: string, orderId: string, lines: readonly OrderLine[]): string[] {
    const fresh = this.db.query("INSERT OR IGNORE INTO counted_orders (store_id, order_id) VALUES (?, ?)").run(storeId, orderId);
    if (fresh.changes === 0) return [];
    const add = this.db.query(
      `INSERT INTO product_signals (store_id, product_id, purchases) VALUES (?, ?, ?)
       ON CONFLICT (store_id, product_id) DO UPDATE SET purchases = purchases + excluded.purchases`,
    );
    for (const line of lines) add.run(storeId, line.productId, line.qty);
    return lines.map((l) => l.productId);
  }

  purchases(storeId: string, productIds: readonly string[]): Map<string, number> {
    const q = this.db.query("SELECT purchases FROM product_signals WHERE store_id = ? AND product_id = ?");
    const out = new Map<string, number>();
    for (const id of productIds) {
      const row = q.get(storeId, id) as { purchases: number } | null;
      if (row) out.set(id, row.purchases);
    }
    return out;
  }

  /** Purchase counts of every store (or one), for bringing the engine up to date at start-up or after a reindex. */
  all(storeId?: string): { storeId: string; productId: string; purchases: number }[] {
    return this.db
      .query("SELECT store_id AS storeId, product_id AS productId, purchases FROM product_signals WHERE ?1 IS NULL OR store_id = ?1")
      .all(storeId ?? null) as { storeId: string; productId: string; purchases: number }[];
  }
}
