import type { Product } from "../../src/modules/catalog/product-schema.ts";

/** One search system under evaluation: it indexes the products once, then answers queries with product ids. */
export interface SearchSystem {
  readonly name: string;
  /** Its configuration in one line, printed with the tables. */
  readonly config: string;
  index(products: readonly Product[]): Promise<void>;
  /** Ids of the best `k` products, best first. */
  search(query: string, k: number): Promise<string[]>;
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
