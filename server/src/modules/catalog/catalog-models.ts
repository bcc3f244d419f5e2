import { setTimeout as sleep, setImmediate as yieldToEventLoop } from "node:timers/promises";
import { liveProductsIn, livePages, type CatalogRepository } from "./storage/catalog-repository.ts";
import type { Product } from "./product-schema.ts";

/*
 * Each store's in-memory model of its catalog (similar products, looks), read from the catalog on the first
 * request that needs it (a page of products per turn of the event loop: about 2 s for the demo catalog, while
 * the server keeps answering) and kept current from the catalog's changed rows after the indexing worker
 * applied a batch.
 */

/** The main colour (hex) of each colour variation's image, where image analysis ran: what a model reads beside a product. */
export type MeasuredColours = ReadonlyMap<string, string>;

/** What a model does with the catalog's rows. */
export interface CatalogModel {
  put(product: Product, measured?: MeasuredColours): void;
  remove(id: string): void;
}

/** Several models fed by one read of the catalog: each row is parsed once for all of them. */
export class ModelSet<M extends Record<string, CatalogModel>> implements CatalogModel {
  constructor(readonly models: M) {}

  put(product: Product, measured?: MeasuredColours): void {
    for (const model of Object.values(this.models)) model.put(product, measured);
  }

  remove(id: string): void {
    for (const model of Object.values(this.models)) model.remove(id);
  }
}

const PAGE = 1000;
/** How often a preload held back by indexing work checks again (ms). */
const PRELOAD_RECHECK_MS = 500;

interface Held<M> {
  /** The store's generation (its creation time): a store deleted and created again starts a new model. */
  generation: number;
  ready: Promise<M>;
  /** When the last read of the catalog started (ms): rows updated since then are read at the next request. */
  readSince: number;
  stale: boolean;
  /** Products whose catalog row did not change but what the model reads beside it did (their images' colours). */
  redo: Set<string>;
}

export class CatalogModels<M extends CatalogModel> {
  private readonly held = new Map<string, Held<M>>();
  private stopped = false;

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly now: () => number,
    private readonly create: (storeId: string) => M,
    /** What the model is, for the error of a build the service stopped ("similar products"). */
    private readonly what: string,
    /** The measured colours of those of a store's products that image analysis ran for. */
    private readonly measuredOf: (storeId: string, ids: readonly string[]) => Promise<Map<string, MeasuredColours>> = async () => new Map(),
  ) {}

  /**
   * Builds the stores' models one after the other, ahead of their first request. While `busy()` (acknowledged
   * indexing work waiting) it waits: reading a catalog in the middle of a bulk slows the bulk (about a fifth of
   * the demo catalog's indexing rate) and reads a catalog that is about to change anyway.
   */
  async preload(stores: readonly { id: string; createdAt: number }[], busy: () => boolean = () => false): Promise<void> {
    for (const store of stores) {
      while (busy() && !this.stopped) await sleep(PRELOAD_RECHECK_MS);
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

  /** What a model reads beside a product's catalog row changed (image analysis finished): put it again. */
  productChanged(storeId: string, id: string): void {
    this.held.get(storeId)?.redo.add(id);
  }

  async of(storeId: string, generation: number): Promise<M> {
    let held = this.held.get(storeId);
    if (!held || held.generation !== generation) {
      const readSince = this.now();
      const fresh: Held<M> = { generation, ready: this.build(storeId), readSince, stale: false, redo: new Set() };
      this.held.set(storeId, fresh);
      fresh.ready.catch(() => this.held.get(storeId) === fresh && this.held.delete(storeId));
      held = fresh;
    }
    const model = await held.ready;
    if (held.stale) {
      held.stale = false;
      const since = held.readSince;
      held.readSince = this.now();
      const rows = await this.catalog.changedSince(storeId, since);
      const measured = await this.measuredOf(
        storeId,
        rows.filter((r) => r.doc !== null).map((r) => r.id),
      );
      for (const row of rows) {
        held.redo.delete(row.id);
        if (row.doc === null) model.remove(row.id);
        else model.put(JSON.parse(row.doc) as Product, measured.get(row.id));
      }
    }
    if (held.redo.size) {
      // Taken before the reads: what is marked meanwhile waits for the next request.
      const redo = [...held.redo];
      held.redo.clear();
      const [products, measured] = await Promise.all([liveProductsIn(this.catalog, storeId, redo), this.measuredOf(storeId, redo)]);
      for (const [id, product] of products) model.put(product, measured.get(id));
    }
    return model;
  }

  private async build(storeId: string): Promise<M> {
    const model = this.create(storeId);
    const stopped = () => new Error(`the service stopped while ${this.what} were being indexed`);
    if (this.stopped) throw stopped();
    for await (const rows of livePages(this.catalog, storeId, PAGE)) {
      const measured = await this.measuredOf(
        storeId,
        rows.map((r) => r.id),
      );
      for (const row of rows) model.put(JSON.parse(row.doc) as Product, measured.get(row.id));
      await yieldToEventLoop();
      if (this.stopped) throw stopped();
    }
    return model;
  }
}
