import { paidPrices } from "../../src/modules/catalog/price-range.ts";
import type { Product } from "../../src/modules/catalog/product-schema.ts";

/** One search system under evaluation: it indexes the products once, then answers queries with product ids. */
export interface SearchSystem {
  readonly name: string;
  /** Its configuration in one line, printed with the tables. */
  readonly config: string;
  index(products: readonly Product[]): Promise<void>;
  /** Ids of the best `k` products, best first. */
  search(query: string, k: number): Promise<string[]>;
  /** Ids of every product the query matches (the whole result a shopper can page, sort and filter), in any order. */
  matchSet(query: string): Promise<string[]>;
  /** The first `k` of the query's products by price ascending, as a shopper sorting "Price: low to high" sees them. */
  cheapest(query: string, k: number): Promise<string[]>;
  /** Queries whose last answer held no match of their words but products recovered by meaning (ours only). */
  readonly recovered?: ReadonlySet<string>;
  close(): Promise<void>;
}

/**
 * The text every peer indexes: the fields a developer would index for product search. Our engine gets the whole
 * Product through its API, as a store sends it.
 */
export interface PeerDocument {
  id: string;
  name: string;
  brand: string;
  categories: string;
  description: string;
}

export const PEER_FIELDS = ["name", "brand", "categories", "description"] as const;

export function peerDocument(p: Product): PeerDocument {
  return { id: p.id, name: p.name, brand: p.brand ?? "", categories: (p.categories ?? []).join(" > "), description: p.description ?? "" };
}

/** A product's price as the price sort and facet read it: the lowest price a shopper pays for one of its SKUs. */
export function priceOf(p: Product): number {
  return Math.min(...paidPrices(p.skus), Infinity);
}

/**
 * The first `k` of `ids` by price ascending (products without a price last, ties by id): how a peer's match set is
 * sorted by price, as a developer would sort the library's results.
 */
export function cheapestOf(ids: readonly string[], prices: ReadonlyMap<string, number>, k: number): string[] {
  return [...ids].sort((a, b) => (prices.get(a) ?? Infinity) - (prices.get(b) ?? Infinity) || (a < b ? -1 : 1)).slice(0, k);
}
