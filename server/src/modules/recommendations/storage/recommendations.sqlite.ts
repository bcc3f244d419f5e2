import type { Database } from "bun:sqlite";
import type { Partner, ProductInterest, RecommendationsRepository } from "./recommendations-repository.ts";

/** The recommendation models' sums on SQLite. */
export class SqliteRecommendationsRepo implements RecommendationsRepository {
  constructor(private readonly db: Database) {}

  async interestTotals(storeId: string, recentDay: string, fromDay: string): Promise<{ recent: number; before: number }> {
    return this.db
      .query(
        `SELECT COALESCE(SUM(CASE WHEN day >= ?2 THEN weight END), 0) AS recent, COALESCE(SUM(CASE WHEN day < ?2 THEN weight END), 0) AS before
         FROM product_interest WHERE store_id = ?1 AND day >= ?3`,
      )
      .get(storeId, recentDay, fromDay) as { recent: number; before: number };
  }

  async recentInterest(storeId: string, recentDay: string, fromDay: string, limit: number): Promise<ProductInterest[]> {
    return this.db
      .query(
        `SELECT product_id AS productId, SUM(CASE WHEN day >= ?2 THEN weight ELSE 0 END) AS recent,
           SUM(CASE WHEN day < ?2 THEN weight ELSE 0 END) AS before
         FROM product_interest WHERE store_id = ?1 AND day >= ?3
         GROUP BY product_id HAVING SUM(CASE WHEN day >= ?2 THEN weight ELSE 0 END) > 0
         ORDER BY recent DESC, product_id LIMIT ?4`,
      )
      .all(storeId, recentDay, fromDay, limit) as ProductInterest[];
  }

  async orderCounts(storeId: string, productId: string): Promise<{ store: number; product: number }> {
    const rows = this.db
      .query("SELECT product_id AS id, orders FROM product_orders WHERE store_id = ? AND product_id IN ('', ?)")
      .all(storeId, productId) as { id: string; orders: number }[];
    const of = (id: string) => rows.find((r) => r.id === id)?.orders ?? 0;
    return { store: of(""), product: of(productId) };
  }

  async partners(storeId: string, productId: string, minTogether: number): Promise<Partner[]> {
    return this.db
      .query(
        `SELECT c.other_id AS productId, c.orders AS together, o.orders AS orders FROM co_purchases c
         JOIN product_orders o ON o.store_id = c.store_id AND o.product_id = c.other_id
         WHERE c.store_id = ? AND c.product_id = ? AND c.orders >= ?`,
      )
      .all(storeId, productId, minTogether) as Partner[];
  }

  async viewed(storeId: string, shopper: string, limit: number): Promise<string[]> {
    return (
      this.db
        .query(
          `SELECT product_id FROM shopper_products WHERE store_id = ? AND shopper = ? AND viewed_at IS NOT NULL
           ORDER BY viewed_at DESC, product_id LIMIT ?`,
        )
        .values(storeId, shopper, limit) as [string][]
    ).map(([id]) => id);
  }

  async bought(storeId: string, shopper: string): Promise<string[]> {
    return (
      this.db
        .query("SELECT product_id FROM shopper_products WHERE store_id = ? AND shopper = ? AND bought_at IS NOT NULL ORDER BY product_id")
        .values(storeId, shopper) as [string][]
    ).map(([id]) => id);
  }
}
