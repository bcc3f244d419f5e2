import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { Product } from "../catalog/product-schema.ts";
import { factsOf, type Facts } from "../catalog/taste-facts.ts";

export { FACETS, type Facet, type Facts } from "../catalog/taste-facts.ts";

/** Products' facts kept per store; a store's are dropped when its catalog changes. */
const MAX_PER_STORE = 200_000;

/**
 * Facts of catalog products, read from the catalog a batch at a time (load) and cached until the store's catalog
 * changes; of() answers from what was loaded, so the scoring that reads it stays synchronous.
 */
export class ProductFacts {
  private readonly stores = new Map<string, Map<string, Facts | null>>();

  constructor(private readonly catalog: Pick<CatalogRepository, "liveDocs">) {}

  /** Reads the facts of those of `ids` not cached yet. */
  async load(storeId: string, ids: readonly string[]): Promise<void> {
    let cache = this.stores.get(storeId);
    if (!cache) this.stores.set(storeId, (cache = new Map()));
    const missing = [...new Set(ids)].filter((id) => !cache.has(id));
    if (missing.length === 0) return;
    const docs = await this.catalog.liveDocs(storeId, missing);
    if (cache.size + missing.length > MAX_PER_STORE) cache.clear();
    for (const id of missing) {
      const doc = docs.get(id);
      cache.set(id, doc ? factsOf(JSON.parse(doc) as Product) : null);
    }
  }

  /** The facts of a product load() read; null when it is not in the catalog (or was not loaded). */
  of(storeId: string, productId: string): Facts | null {
    return this.stores.get(storeId)?.get(productId) ?? null;
  }

  changed(storeId: string): void {
    this.stores.delete(storeId);
  }
}
