import { toAffinity, toLogs, type AffinityRow, type BehaviourRepository, type EvidenceLogs } from "./behaviour-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** Ranking evidence and shopper affinities on PostgreSQL, as search reads them. */
export class PostgresBehaviourRepo implements BehaviourRepository {
  constructor(private readonly sql: Sql) {}

  async hasEvidence(storeId: string): Promise<boolean> {
    return (await this.sql`SELECT 1 FROM behaviour_scores WHERE store_id = ${storeId} LIMIT 1`).length > 0;
  }

  async forQuery(storeId: string, query: string, limit: number): Promise<(EvidenceLogs & { productId: string })[]> {
    const rows = await this.sql<(EvidenceLogs & { productId: string })[]>`
      SELECT product_id AS "productId", evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ${storeId} AND query = ${query} LIMIT ${limit}`;
    return rows.map(toLogs);
  }

  async forProducts(storeId: string, productIds: readonly string[]): Promise<Map<string, EvidenceLogs>> {
    const rows = await this.sql<(EvidenceLogs & { productId: string })[]>`
      SELECT product_id AS "productId", evidence, clicks, conversions FROM behaviour_scores
      WHERE store_id = ${storeId} AND query = '' AND product_id = ANY(${productIds as string[]}::text[])`;
    return new Map(rows.map(({ productId, ...logs }) => [productId, toLogs(logs)]));
  }

  async affinitiesOf(storeId: string, shoppers: readonly string[]): Promise<AffinityRow[]> {
    const rows = await this.sql<AffinityRow[]>`
      SELECT facet, value, weight FROM shopper_affinities WHERE store_id = ${storeId} AND shopper = ANY(${shoppers as string[]}::text[])`;
    return rows.map(toAffinity);
  }
}
