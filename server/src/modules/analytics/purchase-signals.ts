import type { PurchaseCounts } from "./storage/purchase-counts-repository.ts";
import type { SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";

/*
 * Keeps the engine's `purchases` numbers (sortBy=purchase) in line with the service database's counts, which are the
 * source of truth: counted with the events, pushed after they commit, and pushed in full at start-up, so a
 * push lost in a crash is repaired by the next start.
 */
export class PurchaseSignals {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly signals: PurchaseCounts,
    private readonly engine: SearchEngine,
    private readonly log: Logger,
  ) {}

  /** Queues a push of these products' counts; pushes run one after another, in order. */
  changed(storeId: string, productIds: readonly string[]): void {
    if (productIds.length === 0) return;
    this.chain = this.chain
      .then(async () => {
        const counts = await this.signals.purchases(storeId, productIds);
        await this.engine.setNumbers(
          storeId,
          [...counts].map(([id, purchases]) => ({ id, numbers: { purchases } })),
        );
      })
      .catch((error: Error) => this.log.warn("purchase signal push failed; repaired at next start", { storeId, error: error.message }));
  }

  async syncAll(): Promise<void> {
    await this.sync(await this.signals.all());
  }

  /** Pushes one store's counts in full (after its index was rebuilt). */
  async syncStore(storeId: string): Promise<void> {
    await this.sync(await this.signals.all(storeId));
  }

  private async sync(rows: { storeId: string; productId: string; purchases: number }[]): Promise<void> {
    const byStore = new Map<string, { id: string; numbers: { purchases: number } }[]>();
    for (const row of rows) {
      const list = byStore.get(row.storeId) ?? [];
      list.push({ id: row.productId, numbers: { purchases: row.purchases } });
      byStore.set(row.storeId, list);
    }
    for (const [storeId, updates] of byStore) await this.engine.setNumbers(storeId, updates);
  }

  /** Resolves when every queued push has run. */
  drain(): Promise<void> {
    return this.chain;
  }
}
