import MiniSearch from "minisearch";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { cheapestOf, PEER_FIELDS, peerDocument, priceOf, type PeerDocument, type SearchSystem } from "./system.ts";

/*
 * MiniSearch 7 as its README suggests for a search box: the peer fields, prefix search, fuzzy 0.2 (one edit per
 * five letters), words ORed, and field boosts name 3, brand 2, categories 2 (description 1): a product's name says
 * what it is, its description mentions many other things.
 */
const SEARCH_OPTIONS = { boost: { name: 3, brand: 2, categories: 2 }, fuzzy: 0.2, prefix: true, combineWith: "OR" } as const;

export class MiniSearchSystem implements SearchSystem {
  readonly name = "minisearch";
  readonly config = `MiniSearch 7 over ${PEER_FIELDS.join(", ")}; ${JSON.stringify(SEARCH_OPTIONS)}`;
  private readonly engine = new MiniSearch<PeerDocument>({ fields: [...PEER_FIELDS], searchOptions: SEARCH_OPTIONS });

  private readonly prices = new Map<string, number>();

  async index(products: readonly Product[]): Promise<void> {
    for (const p of products) this.prices.set(p.id, priceOf(p));
    this.engine.addAll(products.map(peerDocument));
  }

  async search(query: string, k: number): Promise<string[]> {
    return this.engine
      .search(query)
      .slice(0, k)
      .map((r) => String(r.id));
  }

  async matchSet(query: string): Promise<string[]> {
    return this.engine.search(query).map((r) => String(r.id));
  }

  async cheapest(query: string, k: number): Promise<string[]> {
    return cheapestOf(await this.matchSet(query), this.prices, k);
  }

  async close(): Promise<void> {}
}
