import type { Database } from "bun:sqlite";
import { toAffinity, toLogs, type AffinityRow, type BehaviourRepository, type EvidenceLogs } from "./behaviour-repository.ts";

/** Ranking evidence and shopper affinities on SQLite, as search reads them. */
export class SqliteBehaviourRepo implements BehaviourRepository {
  constructor(private readonly db: Database) {}

  async hasEvidence(storeId: string): Promise<boolean> {
    return this.db.query("SELECT 1 FROM behaviour_scores WHERE store_id = ? LIMIT 1").get(storeId) !== null;
  }

  async forQuery(storeId: string, query: string, limit: number): Promise<(EvidenceLogs & { productId: string })[]> {
    return (
      this.db
        .query(
          "SELECT product_id AS productId, evidence, clicks, conversions FROM behaviour_scores WHERE store_id = ? AND query = ? LIMIT ?",
        )
        .all(storeId, query, limit) as (EvidenceLogs & { productId: string })[]
    ).map(toLogs);
  }

  async forProducts(storeId: string, productIds: readonly string[]): Promise<Map<string, EvidenceLogs>> {
    const rows = this.db
      .query(
        `SELECT product_id AS productId, evidence, clicks, conversions FROM behaviour_scores
         WHERE store_id = ? AND query = '' AND product_id IN (SELECT value FROM json_each(?))`,
      )
      .all(storeId, JSON.stringify(productIds)) as (EvidenceLogs & { productId: string })[];
    return new Map(rows.map(({ productId, ...logs }) => [productId, toLogs(logs)]));
  }

  async affinitiesOf(storeId: string, shoppers: readonly string[]): Promise<AffinityRow[]> {
    const rows = this.db
      .query("SELECT facet, value, weight FROM shopper_affinities WHERE store_id = ? AND shopper IN (SELECT value FROM json_each(?))")
      .all(storeId, JSON.stringify(shoppers)) as AffinityRow[];
    return rows.map(toAffinity);
  }
}
