/*
 * What trending values are computed from: a period's most searched queries and most clicked products (the report
 * aggregates). Both durable stores implement it (trend-inputs-repo.ts, postgres/trend-inputs-repo.ts).
 */
export interface TrendInputsRepository {
  queries(storeId: string, from: string, to: string, limit: number): Promise<{ query: string; n: number }[]>;
  /** Clicked products with the attributes enrichment found for them (JSON). */
  clickedProducts(storeId: string, from: string, to: string, limit: number): Promise<{ attributes: string; n: number }[]>;
}
