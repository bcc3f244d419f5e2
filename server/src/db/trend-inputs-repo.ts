import type { Database } from "bun:sqlite";

/** What trending values are computed from: a period's most searched queries and most clicked products. */
export class TrendInputsRepo {
  constructor(private readonly db: Database) {}

  queries(storeId: string, from: string, to: string, limit: number): { query: string; n: number }[] {
    return this.db
      .query(
        `SELECT query, SUM(searches) AS n FROM report_queries WHERE store_id = ? AND day BETWEEN ? AND ? AND query != ''
         GROUP BY query ORDER BY n DESC LIMIT ?`,
      )
      .all(storeId, from, to, limit) as { query: string; n: number }[];
  }

  /** Clicked products with the attributes enrichment found for them. */
  clickedProducts(storeId: string, from: string, to: string, limit: number): { attributes: string; n: number }[] {
    return this.db
      .query(
        `SELECT e.attributes AS attributes, c.n AS n FROM
           (SELECT product_id, SUM(clicks) AS n FROM report_products WHERE store_id = ?1 AND day BETWEEN ?2 AND ?3 AND clicks > 0
            GROUP BY product_id ORDER BY n DESC LIMIT ?4) c
         JOIN product_enrichment e ON e.store_id = ?1 AND e.product_id = c.product_id`,
      )
      .all(storeId, from, to, limit) as { attributes: string; n: number }[];
  }
}
