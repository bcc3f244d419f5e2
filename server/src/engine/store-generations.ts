import type { EngineDocument, EngineKind, EngineSearchRequest, PreparedDocument, SearchEngine } from "./types.ts";

/*
 * A store can be deleted and created again with the same id (the stores CLI, in another process) while the server
 * runs. The engine would still hold the old store's index (in memory, or an open file the CLI unlinked), so the new
 * store would show the old products and its own writes would go to a file nobody reopens. This wrapper remembers
 * which generation of each store (its creation time) the engine holds, and drops the engine's copy the first time
 * it sees a newer one, before any read or write of the new store. The service's database is the one that knows.
 */
export class StoreGenerationGuard implements SearchEngine {
  readonly kind: EngineKind;
  private readonly held = new Map<string, number>();
  /** A drop under way per store: calls arriving meanwhile wait for it instead of using the old index. */
  private readonly dropping = new Map<string, Promise<void>>();

  constructor(
    private readonly inner: SearchEngine,
    /** The store's current generation, or null when it does not exist. */
    private readonly generationOf: (storeId: string) => Promise<number | null>,
  ) {
    this.kind = inner.kind;
  }

  private async current(storeId: string): Promise<void> {
    const generation = await this.generationOf(storeId);
    const held = this.held.get(storeId);
    if (generation !== null && held !== undefined && held !== generation && !this.dropping.has(storeId)) {
      this.dropping.set(
        storeId,
        this.inner.dropStore(storeId).finally(() => this.dropping.delete(storeId)),
      );
    }
    if (generation !== null) this.held.set(storeId, generation);
    await this.dropping.get(storeId);
  }

  async upsert(storeId: string, docs: readonly EngineDocument[]): Promise<void> {
    await this.current(storeId);
    return this.inner.upsert(storeId, docs);
  }

  async upsertPrepared(storeId: string, docs: readonly PreparedDocument[]): Promise<void> {
    await this.current(storeId);
    return this.inner.upsertPrepared(storeId, docs);
  }

  async remove(storeId: string, ids: readonly string[]): Promise<void> {
    await this.current(storeId);
    return this.inner.remove(storeId, ids);
  }

  async setNumbers(storeId: string, updates: readonly { id: string; numbers: Record<string, number | null> }[]): Promise<void> {
    await this.current(storeId);
    return this.inner.setNumbers(storeId, updates);
  }

  async search(storeId: string, request: EngineSearchRequest) {
    await this.current(storeId);
    return this.inner.search(storeId, request);
  }

  async corrections(storeId: string, text: string) {
    await this.current(storeId);
    return this.inner.corrections(storeId, text);
  }

  async count(storeId: string) {
    await this.current(storeId);
    return this.inner.count(storeId);
  }

  async versions(storeId: string, ids: readonly string[]) {
    await this.current(storeId);
    return this.inner.versions(storeId, ids);
  }

  async preload(storeIds: readonly string[]): Promise<void> {
    for (const storeId of storeIds) await this.current(storeId);
    await this.inner.preload?.(storeIds);
  }

  async dropStore(storeId: string): Promise<void> {
    this.held.delete(storeId);
    return this.inner.dropStore(storeId);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
