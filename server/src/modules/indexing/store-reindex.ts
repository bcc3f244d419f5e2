import { chunked } from "../../lib/chunked.ts";
import { livePages, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { TasksRepository } from "./storage/tasks-repository.ts";
import type { EngineDocument, SearchEngine } from "../../engine/types.ts";
import { toEngineDocument } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { RankingInputs } from "./ranking-inputs.ts";
import type { PurchaseSignals } from "../analytics/purchase-signals.ts";

/*
 * Rebuilds a store's search index from the catalog (the source of truth) while the service keeps running.
 *
 * The engine builds the new index beside the live one and switches when it is complete. The indexing worker
 * keeps writing meanwhile, through the live index: a product it changes after this run read the product, but
 * before the switch, is missing from the new index. So after the switch this waits for the worker's batch in
 * flight (if any) to commit, then applies every catalog row changed since the run started again (the
 * engine's version guard makes repeats harmless), and pushes the store's purchase counts again.
 */

export type ReindexableEngine = SearchEngine & Required<Pick<SearchEngine, "reindexStore">>;

export function canReindex(engine: SearchEngine): engine is ReindexableEngine {
  return typeof engine.reindexStore === "function";
}

export interface StoreReindexDeps {
  catalog: CatalogRepository;
  tasks: TasksRepository;
  ranking: RankingInputs;
  purchases: PurchaseSignals;
  engine: ReindexableEngine;
  now: () => number;
}

export interface ReindexReport {
  index: string;
  documents: number;
  /** Catalog changes made while the index was built, applied after the switch. */
  caughtUp: number;
  /** False when the worker's batch in flight at the switch did not commit within the wait: run it again. */
  settled: boolean;
}

/** Products read per catalog batch (one purchase-count lookup each). */
const BATCH = 1000;
/** Changes this long before the start are applied again too: the CLI and the worker may run on machines whose clocks differ a little. */
const CLOCK_MARGIN_MS = 60_000;
/** How long to wait for the worker's batch in flight at the switch. */
const SETTLE_TIMEOUT_MS = 60_000;

export class StoreReindex {
  constructor(private readonly d: StoreReindexDeps) {}

  async run(storeId: string, onProgress: (documents: number) => void = () => {}): Promise<ReindexReport> {
    const startedAt = this.d.now();
    const { index, documents } = await this.d.engine.reindexStore(storeId, this.catalogDocuments(storeId, onProgress));
    const settled = await this.workerSettled(storeId, this.d.now());
    const caughtUp = await this.catchUp(storeId, startedAt - CLOCK_MARGIN_MS);
    await this.d.purchases.syncStore(storeId);
    return { index, documents, caughtUp, settled };
  }

  private async *catalogDocuments(storeId: string, onProgress: (documents: number) => void): AsyncGenerator<EngineDocument> {
    let done = 0;
    for await (const rows of livePages(this.d.catalog, storeId, BATCH)) {
      yield* await this.documents(storeId, rows);
      onProgress((done += rows.length));
    }
  }

  private async documents(storeId: string, rows: readonly { id: string; version: number; doc: string }[]): Promise<EngineDocument[]> {
    const context = await this.d.ranking.forProducts(
      storeId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => toEngineDocument(JSON.parse(r.doc) as Product, r.version, context(r.id)));
  }

  /**
   * Whether the batch the worker may have had in flight for the store at `switchedAt` has committed. A batch
   * always holds its store's oldest pending task, and committing (or failing) it updates that task's row; a
   * task waiting for a retry has no batch in flight.
   */
  private async workerSettled(storeId: string, switchedAt: number): Promise<boolean> {
    const [head] = await this.d.tasks.pendingOf(storeId, 1);
    if (!head || head.nextRunAt > switchedAt) return true;
    for (const deadline = switchedAt + SETTLE_TIMEOUT_MS; this.d.now() < deadline; await Bun.sleep(50)) {
      const task = await this.d.tasks.get(head.storeId, head.id);
      if (task?.status !== "pending" || task.updatedAt > switchedAt || task.cursor !== head.cursor) return true;
    }
    return false;
  }

  private async catchUp(storeId: string, since: number): Promise<number> {
    const changed = await this.d.catalog.changedSince(storeId, since);
    const live = changed.filter((r): r is { id: string; version: number; doc: string } => r.doc !== null);
    for (const rows of chunked(live, BATCH)) await this.d.engine.upsert(storeId, await this.documents(storeId, rows));
    const removed = changed.filter((r) => r.doc === null).map((r) => r.id);
    if (removed.length) await this.d.engine.remove(storeId, removed);
    return changed.length;
  }
}
