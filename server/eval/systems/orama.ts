import { create, insertMultiple, search, type Orama } from "@orama/orama";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { PEER_FIELDS, peerDocument, type SearchSystem } from "./system.ts";

/*
 * Orama 3 with its defaults (BM25, English tokenizer without stemming, threshold 1: documents matching any word)
 * plus what a developer tunes first: typo tolerance 1 and the same field boosts as MiniSearch.
 */
const SCHEMA = { name: "string", brand: "string", categories: "string", description: "string" } as const;
const BOOST = { name: 3, brand: 2, categories: 2 };
const TOLERANCE = 1;

export class OramaSystem implements SearchSystem {
  readonly name = "orama";
  readonly config = `Orama 3 over ${PEER_FIELDS.join(", ")}; tolerance ${TOLERANCE}, boost ${JSON.stringify(BOOST)}, default threshold and tokenizer`;
  private db: Orama<typeof SCHEMA> | undefined;

  async index(products: readonly Product[]): Promise<void> {
    this.db = create({ schema: SCHEMA });
    await insertMultiple(this.db, products.map(peerDocument), 1000);
  }

  async search(query: string, k: number): Promise<string[]> {
    if (!this.db) throw new Error("index first");
    const result = await search(this.db, { term: query, limit: k, tolerance: TOLERANCE, boost: BOOST, properties: [...PEER_FIELDS] });
    return result.hits.map((h) => h.id);
  }

  async close(): Promise<void> {}
}
