import type { TrendInputsRepository } from "./trend-inputs-repository.ts";
import type { Sql } from "../../../platform/postgres/connection.ts";

/** What trending values are computed from, on PostgreSQL. */
export class PostgresTrendInputsRepo implements TrendInputsRepository {
  constructor(private readonly sql: Sql) {}

  async queries(storeId: string, from: string, to: string, limit: number): Promise<{ query: string; n: number }[]> {
    return [
      ...(await this.sql<{ query: string; n: number }[]>`
        SELECT query, SUM(searches)::float8 AS n FROM report_queries WHERE store_id = ${storeId} AND day BETWEEN ${from} AND ${to} AND query != ''
        GROUP BY query ORDER BY n DESC, query LIMIT ${limit}`),
    ];
  }

  async clickedProducts(storeId: string, from: string, to: string, limit: number): Promise<{ attributes: string; n: number }[]> {
    return [
      ...(await this.sql<{ attributes: string; n: number }[]>`
        SELECT e.attributes AS attributes, c.n AS n FROM
          (SELECT product_id, SUM(clicks)::float8 AS n FROM report_products WHERE store_id = ${storeId} AND day BETWEEN ${from} AND ${to} AND clicks > 0
           GROUP BY product_id ORDER BY n DESC, product_id LIMIT ${limit}) c
        JOIN product_enrichment e ON e.store_id = ${storeId} AND e.product_id = c.product_id`),
    ];
  }
}
