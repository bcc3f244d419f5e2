import type { CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { EnrichmentRepository, UnsyncedEnrichment } from "../enrichment/storage/enrichment-repository.ts";
import type { EngineDocument, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import { toEngineDocument } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { RankingInputs } from "./ranking-inputs.ts";
import type { StoreWriters } from "./store-writers.ts";

/*
 * Brings finished enrichment stages into search: the product's engine document is written again with the colours
 * its stage measured (engine-document.ts reads them through RankingInputs). Stage results are marked
 * in the database until applied, so a crash between a stage's commit and its search update is caught up after
 * the restart. Runs in batches shortly after stages commit: the demo's first start finishes thousands of text
 * stages a second, and one engine write per product would cost searches more than one per batch.
 */

const BATCH = 500;
/** Stages finishing in a burst share one batch. */
const GATHER_MS = 200;
/** After a failed engine write (a cluster node down). */
const RETRY_MS = 5_000;

export class EnrichedSearchSync {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly d: {
      repo: Pick<EnrichmentRepository, "unsynced" | "markSynced">;
      catalog: CatalogRepository;
      ranking: RankingInputs;
      engine: SearchEngine;
      /** A store's write runs alone, from reading its products to writing them (store-writers.ts). */
      writers: StoreWriters;
      log: Logger;
    },
  ) {}

  /** Applies what a previous run left (a crash), then whatever stages finish. */
  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  wake(): void {
    if (!this.stopped && !this.timer) this.schedule(GATHER_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.runAll().finally(() => (this.running = null));
    }, ms);
  }

  private async runAll(): Promise<void> {
    try {
      for (;;) {
        if (this.stopped) return;
        const { applied, deferred } = await this.batch();
        if (deferred) return this.schedule(RETRY_MS);
        if (applied < BATCH) return;
      }
    } catch (error) {
      this.d.log.warn("enrichment not yet applied to search; retrying", { error: (error as Error).message });
      if (!this.stopped) this.schedule(RETRY_MS);
    }
  }

  /**
   * One batch: how many results it applied, and whether some were left for later (their store's lease is
   * another replica's, which is applying its tasks).
   */
  private async batch(): Promise<{ applied: number; deferred: boolean }> {
    const rows = await this.d.repo.unsynced(BATCH);
    const applied: UnsyncedEnrichment[] = [];
    for (const storeId of new Set(rows.map((r) => r.storeId))) {
      const ofStore = rows.filter((r) => r.storeId === storeId);
      // The products are read under the store's turn: a deletion committed before it is seen, one after it waits.
      const written = await this.d.writers.exclusive(storeId, async () => {
        const docs = await this.documents(storeId, ofStore);
        if (docs.length) await this.d.engine.upsert(storeId, docs);
        return true;
      });
      if (written) applied.push(...ofStore);
    }
    await this.d.repo.markSynced(applied);
    return { applied: applied.length, deferred: applied.length < rows.length };
  }

  /**
   * The live products of `results` as engine documents, read in one call each for documents, versions and ranking
   * inputs (this runs in the store's turn, which the indexing worker waits for). No commit of the store can
   * come between the reads: commits take the same turn.
   */
  private async documents(storeId: string, results: readonly UnsyncedEnrichment[]): Promise<EngineDocument[]> {
    const ids = [...new Set(results.map((r) => r.productId))];
    const [live, states, context] = await Promise.all([
      this.d.catalog.liveDocs(storeId, ids),
      this.d.catalog.states(storeId, ids),
      this.d.ranking.forProducts(storeId, ids),
    ]);
    return [...live].map(([id, doc]) => toEngineDocument(JSON.parse(doc) as Product, states.get(id)!.version, context(id)));
  }
}
