import type { EngineDocument, EngineKind, EngineSearchRequest, PreparedDocument, SearchEngine } from "./types.ts";

/*
 * How many times this process wrote each store's engine content: a cache of engine answers keyed by it (the
 * rules' pin checks) is never read after a write, wherever in the process the write came from (indexing, the
 * enrichment sync, purchase signals). The count moves when a write ends, so an answer read while a write was under
 * way is kept under the count from before it, which is never asked for again.
 */
export class WriteEpochs implements SearchEngine {
  readonly kind: EngineKind;
  private readonly epochs = new Map<string, number>();

  constructor(private readonly inner: SearchEngine) {
    this.kind = inner.kind;
  }

  epoch(storeId: string): number {
    return this.epochs.get(storeId) ?? 0;
  }

  private async writing(storeId: string, write: Promise<void>): Promise<void> {
    try {
      await write;
    } finally {
      this.epochs.set(storeId, this.epoch(storeId) + 1);
    }
  }

  upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    return this.writing(storeId, this.inner.upsert(storeId, docs));
  }

  upsertPrepared(storeId: string, docs: readonly PreparedDocument[]): Promise<void> {
    return this.writing(storeId, this.inner.upsertPrepared(storeId, docs));
  }

  remove(storeId: string, ids: readonly string[]): Promise<void> {
    return this.writing(storeId, this.inner.remove(storeId, ids));
  }

  setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void> {
    return this.writing(storeId, this.inner.setNumbers(storeId, updates));
  }

  dropStore(storeId: string): Promise<void> {
    return this.writing(storeId, this.inner.dropStore(storeId));
  }

  search(storeId: string, request: EngineSearchRequest) {
    return this.inner.search(storeId, request);
  }

  corrections(storeId: string, text: string) {
    return this.inner.corrections(storeId, text);
  }

  count(storeId: string) {
    return this.inner.count(storeId);
  }

  versions(storeId: string, ids: readonly string[]) {
    return this.inner.versions(storeId, ids);
  }

  async preload(storeIds: readonly string[]): Promise<void> {
    await this.inner.preload?.(storeIds);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
