import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { CatalogRepo } from "../../db/catalog-repo.ts";
import type { Product } from "../catalog/product-schema.ts";
import { productFeatures } from "./product-features.ts";
import { SimilarityIndex } from "./similarity-index.ts";

/*
 * Each store's SimilarityIndex, read from the catalog on the first similarity request (a page of products per
 * turn of the event loop: about 2 s for the demo catalog, while the server keeps answering) and kept current
 * from the catalog's changed rows after the indexing worker applied a batch.
 */

const PAGE = 1000;

interface Held {
  /** The store's generation (its creation time): a store deleted and created again starts a new index. */
  generation: number;
  ready: Promise<SimilarityIndex>;
  /** When the last read of the catalog started (ms): rows updated since then are read at the next request. */
  readSince: number;
  stale: boolean;
}

export class SimilarityIndexes {
  private readonly held = new Map<string, Held>();
  private stopped = false;

  constructor(
    private readonly catalog: CatalogRepo,
    private readonly now: () => number,
  ) {}

  /** Builds the stores' indexes one after the other, ahead of their first similarity request. */
  async preload(stores: readonly { id: string; createdAt: number }[]): Promise<void> {
    for (const store of stores) {
      if (this.stopped) return;
      await this.of(store.id, store.createdAt).catch((error: unknown) => {
        if (!this.stopped) throw error;
      });
    }
  }

  /** The service is stopping: a build under way ends at its next page (its database is about to close). */
  stop(): void {
    this.stopped = true;
  }

  /** The store's catalog changed (the indexing worker applied a batch). */
  changed(storeId: string): void {
    const held = this.held.get(storeId);
    if (held) held.stale = true;
  }

  async of(storeId: string, generation: number): Promise<SimilarityIndex> {
    let held = this.held.get(storeId);
    if (!held || held.generation !== generation) {
      const readSince = this.now();
      held = { generation, ready: this.build(storeId), readSince, stale: false };
      this.held.set(storeId, held);
      held.ready.catch(() => this.held.get(storeId) === held && this.held.delete(storeId));
    }
    const index = await held.ready;
    if (held.stale) {
      held.stale = false;
      const since = held.readSince;
      held.readSince = this.now();
      for (const row of this.catalog.changedSince(storeId, since)) {
        if (row.doc === null) index.remove(row.id);
        else index.put(productFeatures(JSON.parse(row.doc) as Product));
      }
    }
    return index;
  }

  private async build(storeId: string): Promise<SimilarityIndex> {
    const index = new SimilarityIndex();
    for (let after = ""; ; await yieldToEventLoop()) {
      if (this.stopped) throw new Error("the service stopped while similar products were being indexed");
      const rows = this.catalog.liveProductsAfter(storeId, after, PAGE);
      for (const row of rows) index.put(productFeatures(JSON.parse(row.doc) as Product));
      if (rows.length < PAGE) return index;
      after = rows.at(-1)!.id;
    }
  }
}
