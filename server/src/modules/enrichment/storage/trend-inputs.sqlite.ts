import type { Database } from "bun:sqlite";
import type { TrendInputsRepository } from "./trend-inputs-repository.ts";

/** What trending values are computed from, on SQLite. */
export class SqliteTrendInputsRepo implements TrendInputsRepository {
  constructor(private readonly db: Database) {}

  async queries(storeId: string, from: string, to: string, limit: number): Promise<{ query: string; n: number }[]> {
    return this.db
      .query(
        `SELECT query, SUM(searches) AS n FROM report_queries WHERE store_id = ? AND day BETWEEN ? AND ? AND query != ''
         GROUP BY query ORDER BY n DESC, query LIMIT ?`,
      )
      .all(storeId, from, to, limit) as { query: string; n: number }[];
  }

  async clickedProducts(storeId: string, from: string, to: string, limit: number): Promise<{ attributes: string; n: number }[]> {
    return this.db
      .query(
        `SELECT e.attributes AS attributes, c.n AS n FROM
           (SELECT product_id, SUM(clicks) AS n FROM report_products WHERE store_id = ?1 AND day BETWEEN ?2 AND ?3 AND clicks > 0
            GROUP BY product_id ORDER BY n DESC, product_id LIMIT ?4) c
         JOIN product_enrichment e ON e.store_id = ?1 AND e.product_id = c.product_id`,
      )
      .all(storeId, from, to, limit) as { attributes: string; n: number }[];
  }
}
