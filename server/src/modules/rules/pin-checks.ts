import type { EngineSearchRequest, EngineSearchResult, SearchEngine } from "../../engine/types.ts";

/** Checks kept in all; past it the oldest go. A check holds a few pinned products' facet counts. */
const MAX_KEPT = 4_000;

/*
 * The rules' pin checks (which of the pinned products a request may show, and their facet counts: one engine
 * search each), kept while the store's engine content is unchanged. The same rules fire for the same queries and
 * filters search after search, and the check was most of what a rule with pins cost. `epochOf` (WriteEpochs)
 * moves with every write of the store in this process; a cluster written by another process (the reindex command)
 * is seen at this process's next write of the store.
 */
export class PinChecks {
  private readonly kept = new Map<string, Promise<EngineSearchResult>>();

  constructor(
    private readonly engine: SearchEngine,
    private readonly epochOf: (storeId: string) => number,
  ) {}

  search(storeId: string, request: EngineSearchRequest): Promise<EngineSearchResult> {
    const key = `${storeId}\u0000${this.epochOf(storeId)}\u0000${JSON.stringify(request)}`;
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
}
