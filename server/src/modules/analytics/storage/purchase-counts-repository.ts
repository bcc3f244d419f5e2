/**
 * The purchase counts event ingest keeps per product (sortBy=purchase, ranking inputs): the read side both
 * durable stores implement (purchase-counts.sqlite.ts, purchase-counts.postgres.ts), held to the same behaviour by
 * server/test/repository-conformance.test.ts.
 */
export interface PurchaseCounts {
  /** The counts of those of `productIds` that have one. */
  purchases(storeId: string, productIds: readonly string[]): Promise<Map<string, number>>;
  /** The counts of every store (or one), for bringing the engine up to date at start-up or after a reindex. */
  all(storeId?: string): Promise<{ storeId: string; productId: string; purchases: number }[]>;
}

/** A product of an order as purchase counts take it. */
export interface OrderLine {
  productId: string;
  qty: number;
}
