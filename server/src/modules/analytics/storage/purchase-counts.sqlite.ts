import type { Database } from "bun:sqlite";
import type { OrderLine, PurchaseCounts } from "./purchase-counts-repository.ts";

/** Ranking signals derived from shopper events: purchases per product. */
export class SqlitePurchaseCounts implements PurchaseCounts {
  constructor(private readonly db: Database) {}

  /**
   * Counts an order's lines once, however many of OrderComplete and Purchase report it, and each product once per
   * buyer (user id, else session id) and day, however many orders they place: one shopper cannot lift a product
   * in sortBy=purchase. Call inside the transaction that stores the events, so counts and events never disagree.
   * Returns the new order's products (none for a repeat) and those whose count changed.
   */
  countOrder(
    storeId: string,
    orderId: string,
    lines: readonly OrderLine[],
    buyer: { actor: string | null; day: string },
  ): { ordered: string[]; changed: string[] } {
    const fresh = this.db.query("INSERT OR IGNORE INTO counted_orders (store_id, order_id) VALUES (?, ?)").run(storeId, orderId);
    if (fresh.changes === 0) return { ordered: [], changed: [] };
    const firstToday = this.db.query("INSERT OR IGNORE INTO purchase_buyers (store_id, day, actor, product_id) VALUES (?, ?, ?, ?)");
    const add = this.db.query(
      `INSERT INTO product_signals (store_id, product_id, purchases) VALUES (?, ?, ?)
       ON CONFLICT (store_id, product_id) DO UPDATE SET purchases = purchases + excluded.purchases`,
    );
    const changed: string[] = [];
    for (const line of lines) {
      if (buyer.actor !== null && firstToday.run(storeId, buyer.day, buyer.actor, line.productId).changes === 0) continue;
      add.run(storeId, line.productId, line.qty);
      changed.push(line.productId);
    }
    return { ordered: lines.map((l) => l.productId), changed };
  }

  async purchases(storeId: string, productIds: readonly string[]): Promise<Map<string, number>> {
    const q = this.db.query("SELECT purchases FROM product_signals WHERE store_id = ? AND product_id = ?");
    const out = new Map<string, number>();
    for (const id of productIds) {
      const row = q.get(storeId, id) as { purchases: number } | null;
      if (row) out.set(id, row.purchases);
    }
    return out;
  }

  async all(storeId?: string): Promise<{ storeId: string; productId: string; purchases: number }[]> {
    return this.db
      .query("SELECT store_id AS storeId, product_id AS productId, purchases FROM product_signals WHERE ?1 IS NULL OR store_id = ?1")
      .all(storeId ?? null) as { storeId: string; productId: string; purchases: number }[];
  }
}
