/**
 * What complete-the-look keeps per store: the looks it curated for a product (each look: product ids), shown
 * before the composed ones, and the evidence learned from events that two products go together (written by
 * event ingest). The interface both durable stores implement (looks-repo.ts, postgres/looks-repo.ts),
 * held to the same behaviour by server/test/repository-conformance.test.ts.
 */
export interface LooksRepository {
  pinned(storeId: string, productId: string): Promise<string[][] | null>;
  putPinned(storeId: string, productId: string, looks: string[][], at: number): Promise<void>;
  deletePinned(storeId: string, productId: string): Promise<boolean>;
  /** The evidence of each product paired with this one. */
  partners(storeId: string, productId: string): Promise<Map<string, number>>;
}
