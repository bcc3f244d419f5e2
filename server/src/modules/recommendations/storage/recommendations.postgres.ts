import type { Sql } from "../../../platform/postgres/connection.ts";
import type { Partner, ProductInterest, RecommendationsRepository } from "./recommendations-repository.ts";

/** The recommendation models' sums on PostgreSQL, shared by every replica. */
export class PostgresRecommendationsRepo implements RecommendationsRepository {
  constructor(private readonly sql: Sql) {}

  async interestTotals(storeId: string, recentDay: string, fromDay: string): Promise<{ recent: number; before: number }> {
    const [row] = await this.sql<{ recent: number; before: number }[]>`
      SELECT COALESCE(SUM(weight) FILTER (WHERE day >= ${recentDay}), 0)::float8 AS recent,
        COALESCE(SUM(weight) FILTER (WHERE day < ${recentDay}), 0)::float8 AS before
      FROM product_interest WHERE store_id = ${storeId} AND day >= ${fromDay}`;
    return row!;
  }

  async recentInterest(storeId: string, recentDay: string, fromDay: string, limit: number): Promise<ProductInterest[]> {
    return [
      ...(await this.sql<ProductInterest[]>`
        SELECT product_id AS "productId", COALESCE(SUM(weight) FILTER (WHERE day >= ${recentDay}), 0)::float8 AS recent,
          COALESCE(SUM(weight) FILTER (WHERE day < ${recentDay}), 0)::float8 AS before
        FROM product_interest WHERE store_id = ${storeId} AND day >= ${fromDay}
        GROUP BY product_id HAVING SUM(weight) FILTER (WHERE day >= ${recentDay}) > 0
        ORDER BY recent DESC, product_id LIMIT ${limit}`),
    ];
  }

  async orderCounts(storeId: string, productId: string): Promise<{ store: number; product: number }> {
    const rows = await this.sql<{ id: string; orders: number }[]>`
      SELECT product_id AS id, orders::float8 AS orders FROM product_orders WHERE store_id = ${storeId} AND product_id IN ('', ${productId})`;
    const of = (id: string) => rows.find((r) => r.id === id)?.orders ?? 0;
    return { store: of(""), product: of(productId) };
  }

  async partners(storeId: string, productId: string, minTogether: number): Promise<Partner[]> {
    return [
      ...(await this.sql<Partner[]>`
        SELECT c.other_id AS "productId", c.orders::float8 AS together, o.orders::float8 AS orders FROM co_purchases c
        JOIN product_orders o ON o.store_id = c.store_id AND o.product_id = c.other_id
        WHERE c.store_id = ${storeId} AND c.product_id = ${productId} AND c.orders >= ${minTogether}`),
    ];
  }

  async viewed(storeId: string, shopper: string, limit: number): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      SELECT product_id AS id FROM shopper_products WHERE store_id = ${storeId} AND shopper = ${shopper} AND viewed_at IS NOT NULL
      ORDER BY viewed_at DESC, product_id LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  async bought(storeId: string, shopper: string): Promise<string[]> {
    const rows = await this.sql<{ id: string }[]>`
      SELECT product_id AS id FROM shopper_products WHERE store_id = ${storeId} AND shopper = ${shopper} AND bought_at IS NOT NULL
      ORDER BY product_id`;
    return rows.map((r) => r.id);
  }
}
