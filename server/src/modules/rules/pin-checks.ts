import type { EngineSearchRequest, EngineSearchResult } from "../../engine/types.ts";
import type { WriteEpochs } from "../../engine/write-epochs.ts";

/** Checks kept in all; past it the oldest go. A check holds a few pinned products' facet counts. */
const MAX_KEPT = 4_000;
/** Pinned products' numbers kept in all. */
const MAX_KEPT_NUMBERS = 10_000;

/*
 * The rules' pin checks (which of the pinned products a request may show, and their facet counts: one engine
 * search each), kept while the store's engine content is unchanged. The same rules fire for the same queries and
 * filters search after search, and the check was most of what a rule with pins cost. The engine's write epoch
 * moves with every write of the store in this process; a cluster written by another process (the reindex command)
 * is seen at this process's next write of the store. The pinned products' numbers (for the price buckets) come
 * from the catalog, kept until the indexing worker next commits a batch of the store's catalog (catalogChanged).
 */
export class PinChecks {
  private readonly kept = new Map<string, Promise<EngineSearchResult>>();
  private readonly keptNumbers = new Map<string, Record<string, number> | null>();
  private readonly catalogEpochs = new Map<string, number>();

  constructor(private readonly engine: WriteEpochs) {}

  search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult> {
    const key = `${storeId}\u0000${this.engine.epoch(storeId)}\u0000${JSON.stringify(request)}`;
    let answer = this.kept.get(key);
    if (!answer) {
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      answer = this.engine.search(storeId, request);
      this.kept.set(key, answer);
      // A failed check is not kept: the next search asks the engine again.
      answer.catch(() => this.kept.delete(key));
    }
    return answer;
  }

  /** The indexing worker committed a batch of the store's catalog: numbers read before it are not used again. */
  catalogChanged(storeId: string): void {
    this.catalogEpochs.set(storeId, (this.catalogEpochs.get(storeId) ?? 0) + 1);
  }

  /**
   * A pinned product's numbers (price_min…) as `read` gives them from the catalog (null: gone), kept by store
   * generation and catalog epoch: parsing every pinned product on every search was much of what a pin cost.
   */
  async numbers(
    store: { id: string; createdAt: number },
    productId: string,
    read: () => Promise<Record<string, number> | null>,
  ): Promise<Record<string, number> | null> {
    const key = `${store.id}\u0000${store.createdAt}\u0000${this.catalogEpochs.get(store.id) ?? 0}\u0000${productId}`;
    let numbers = this.keptNumbers.get(key);
    if (numbers === undefined) {
      numbers = await read();
      if (this.keptNumbers.size >= MAX_KEPT_NUMBERS) this.keptNumbers.delete(this.keptNumbers.keys().next().value!);
      this.keptNumbers.set(key, numbers);
    }
    return numbers;
  }
}
