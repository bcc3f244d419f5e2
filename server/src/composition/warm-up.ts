import type { Logger } from "../log.ts";
import type { ServicePart } from "./lifecycle.ts";
import type { CatalogRepository } from "../modules/catalog/storage/catalog-repository.ts";
import type { StoreRow } from "../modules/stores/storage/stores-repository.ts";

/** After the stores' search indexes are loaded, how long product pages' models wait before they are built. */
const PAGE_MODELS_PRELOAD_DELAY_MS = 5_000;

export interface WarmUpParts {
  engine: { preload(storeIds: readonly string[]): Promise<void> };
  stores: { list(): Promise<StoreRow[]> };
  catalog: Pick<CatalogRepository, "liveProductsAfter">;
  pageModels: { preload(stores: readonly StoreRow[], busy: () => boolean): Promise<void>; stop(): void };
  indexingBusy: () => boolean;
  /** Product enrichment: its stages and their search updates. */
  enrichment: readonly { start(): void; stop(): Promise<void> }[];
  /** What learns from a store's whole catalog (learned meaning, hybrid vectors): told of every store once loaded. */
  learners: readonly { changed(storeId: string): void }[];
  log: Logger;
}

/**
 * What a start does in the background, as one part of the service. The first searches after a restart should not
 * wait for a store's in-memory index, so the indexes load in the background. Product enrichment resumes the stages
 * queued before a stop or crash once they are loaded: its stages and their search updates run on the thread that
 * loads them, and a restart in the middle of a first start's enrichment (tens of thousands of stages queued) held
 * the first search back by seconds. Product pages' models (similar products and looks, from one read of the
 * catalog) follow a little later, so that they do not slow the stores' first searches either; a product page
 * opened before then waits for its store's (about 3 s for 50k products). Only catalogs found at start: one indexed
 * while the service runs gets its models from the first product page that needs them. What learns from a whole
 * catalog (learned meaning, hybrid vectors) starts once the indexes are loaded too: at a million products the index's
 * load takes about half a minute, and the meaning's read of every product competed with it for this thread.
 */
export function warmUp(o: WarmUpParts): ServicePart {
  let stopping = false;
  let pageModelsTimer: ReturnType<typeof setTimeout> | undefined;
  const startBackground = (storeIds: readonly string[]) => {
    if (stopping) return;
    for (const part of o.enrichment) part.start();
    for (const storeId of storeIds) for (const learner of o.learners) learner.changed(storeId);
  };
  return {
    name: "warm-up and enrichment",
    async start() {
      const stores = await o.stores.list();
      const withCatalog: StoreRow[] = [];
      for (const store of stores) if ((await o.catalog.liveProductsAfter(store.id, "", 1)).length > 0) withCatalog.push(store);
      const storeIds = stores.map((s) => s.id);
      o.engine
        .preload(storeIds)
        .finally(() => startBackground(storeIds))
        .then(() => {
          if (stopping) return;
          pageModelsTimer = setTimeout(() => {
            o.pageModels
              .preload(withCatalog, o.indexingBusy)
              .catch((error: Error) => o.log.error("preloading similar products and looks failed", { error: error.message }));
          }, PAGE_MODELS_PRELOAD_DELAY_MS);
          pageModelsTimer.unref?.();
        })
        .catch((error: Error) => o.log.error("preloading the search index failed", { error: error.message }));
    },
    async stop() {
      stopping = true;
      clearTimeout(pageModelsTimer);
      o.pageModels.stop();
      for (const part of o.enrichment) await part.stop();
    },
  };
}
