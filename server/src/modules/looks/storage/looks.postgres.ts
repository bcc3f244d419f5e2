import type { LooksRepository } from "./looks-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Curated looks and learned pairs on PostgreSQL. */
export class PostgresLooksRepo implements LooksRepository {
  constructor(private readonly sql: Sql) {}

  async pinned(storeId: string, productId: string): Promise<string[][] | null> {
    const [row] = await this.sql<
      { looks: string }[]
    >`SELECT looks FROM pinned_looks WHERE store_id = ${storeId} AND product_id = ${productId}`;
    return row ? (JSON.parse(row.looks) as string[][]) : null;
  }

  async putPinned(storeId: string, productId: string, looks: string[][], at: number): Promise<void> {
    await this.sql`
      INSERT INTO pinned_looks (store_id, product_id, looks, updated_at) VALUES (${storeId}, ${productId}, ${JSON.stringify(looks)}, ${at})
      ON CONFLICT (store_id, product_id) DO UPDATE SET looks = excluded.looks, updated_at = excluded.updated_at`;
  }

  async deletePinned(storeId: string, productId: string): Promise<boolean> {
    return (await this.sql`DELETE FROM pinned_looks WHERE store_id = ${storeId} AND product_id = ${productId}`).count > 0;
  }

  async partners(storeId: string, productId: string): Promise<Map<string, number>> {
    const rows = await this.sql<{ id: string; evidence: number }[]>`
      SELECT other_id AS id, evidence FROM look_pairs WHERE store_id = ${storeId} AND product_id = ${productId}`;
    return new Map(rows.map((r) => [r.id, r.evidence]));
  }
}
