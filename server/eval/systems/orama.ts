import { create, insertMultiple, search, type Orama } from "@orama/orama";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { cheapestOf, PEER_FIELDS, peerDocument, priceOf, type SearchSystem } from "./system.ts";

/*
 * Orama 3 with its defaults (BM25, English tokenizer without stemming, threshold 1: documents matching any word)
 * plus what a developer tunes first: typo tolerance 1 and the same field boosts as MiniSearch.
 */
const SCHEMA = { name: "string", brand: "string", categories: "string", description: "string" } as const;
const BOOST = { name: 3, brand: 2, categories: 2 };
const TOLERANCE = 1;

export class OramaSystem implements SearchSystem {
  readonly name = "orama";
  readonly config =
    `Orama 3 over ${PEER_FIELDS.join(", ")}; tolerance ${TOLERANCE}, boost ${JSON.stringify(BOOST)}, default threshold and tokenizer`;
  private db: Orama<typeof SCHEMA> | undefined;

  private readonly prices = new Map<string, number>();

  async index(products: readonly Product[]): Promise<void> {
    for (const p of products) this.prices.set(p.id, priceOf(p));
    this.db = create({ schema: SCHEMA });
    await insertMultiple(this.db, products.map(peerDocument), 1000);
  }

  async search(query: string, k: number): Promise<string[]> {
    if (!this.db) throw new Error("index first");
    const result = await search(this.db, { term: query, limit: k, tolerance: TOLERANCE, boost: BOOST, properties: [...PEER_FIELDS] });
    return result.hits.map((h) => h.id);
  }

  async matchSet(query: string): Promise<string[]> {
    return this.search(query, this.prices.size);
  }

  async cheapest(query: string, k: number): Promise<string[]> {
    return cheapestOf(await this.matchSet(query), this.prices, k);
  }

  async close(): Promise<void> {}
}
