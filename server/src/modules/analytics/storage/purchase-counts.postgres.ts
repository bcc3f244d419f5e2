import type { PurchaseCounts } from "./purchase-counts-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Purchase counts on PostgreSQL (written by event ingest, postgres/event-ingest.ts). */
export class PostgresPurchaseCounts implements PurchaseCounts {
  constructor(private readonly sql: Sql) {}

  async purchases(storeId: string, productIds: readonly string[]): Promise<Map<string, number>> {
    const rows = await this.sql<{ product_id: string; purchases: number }[]>`
      SELECT product_id, purchases FROM product_signals WHERE store_id = ${storeId} AND product_id = ANY(${productIds as string[]})`;
    return new Map(rows.map((r) => [r.product_id, r.purchases]));
  }

  async all(storeId?: string): Promise<{ storeId: string; productId: string; purchases: number }[]> {
    return [
      ...(await this.sql<{ storeId: string; productId: string; purchases: number }[]>`
        SELECT store_id AS "storeId", product_id AS "productId", purchases FROM product_signals
        WHERE ${storeId ?? null}::text IS NULL OR store_id = ${storeId ?? null}`),
    ];
  }
}
