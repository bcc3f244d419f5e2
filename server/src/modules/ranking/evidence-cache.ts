import type { BehaviourRepository, EvidenceLogs } from "./storage/behaviour-repository.ts";
import type { ChangeFeed } from "../../platform/change-feed.ts";

/*
 * Ranking evidence as search reads it, kept between the behaviour learner's writes. Read from SQLite, a relevance
 * search of a store with evidence spent about 0.5 ms on it (a query's few hundred rows and its 60 results' rows),
 * half of the engine's own search. Only the learner writes evidence: after its batch it names each (store, query,
 * product) it wrote, and only those entries are read again, so a search sees evidence as soon as it is committed.
 * Entries are per store generation (its creation time), so a store deleted and created again by the stores CLI
 * in another process never sees the old store's evidence. The raw log sums are kept; decay stays the reader's.
 * Another replica's learner is heard through the change feed ("behaviour"): the store's entries are dropped.
 */

export type QueryEvidenceRow = EvidenceLogs & { productId: string };

/** Rows and products kept in all; past it every entry is dropped and read again as searches need it. */
const MAX_ENTRIES = 200_000;

interface StoreEvidence {
  /** Bumped by every write heard of: a read that started before one is not kept. */
  epoch: number;
  any: boolean | null;
  queries: Map<string, QueryEvidenceRow[]>;
  products: Map<string, EvidenceLogs | null>;
}

export class EvidenceCache {
  private readonly stores = new Map<string, StoreEvidence>();
  private held = 0;

  constructor(
    private readonly repo: BehaviourRepository,
    private readonly feed?: ChangeFeed,
  ) {
    feed?.subscribe("behaviour", (storeId) => (storeId === null ? this.clear() : this.drop(storeId, null)));
  }

  async hasEvidence(storeId: string, generation: number): Promise<boolean> {
    const store = this.store(storeId, generation);
    if (store.any !== null) return store.any;
    const epoch = store.epoch;
    const any = await this.repo.hasEvidence(storeId);
    if (store.epoch === epoch) store.any = any;
    return any;
  }

  /** The query's rows (as BehaviourRepository.forQuery reads them, `limit` at most). */
  async forQuery(storeId: string, generation: number, query: string, limit: number): Promise<QueryEvidenceRow[]> {
    const store = this.store(storeId, generation);
    const kept = store.queries.get(query);
    if (kept) return kept;
    const epoch = store.epoch;
    const rows = await this.repo.forQuery(storeId, query, limit);
    if (store.epoch === epoch) {
      this.hold(rows.length + 1);
      store.queries.set(query, rows);
    }
    return rows;
  }

  /** Per-product evidence of those of `ids` that have any. */
  async forProducts(storeId: string, generation: number, ids: readonly string[]): Promise<Map<string, EvidenceLogs>> {
    const store = this.store(storeId, generation);
    const missing = ids.filter((id) => !store.products.has(id));
    if (missing.length) {
      const epoch = store.epoch;
      const read = await this.repo.forProducts(storeId, missing);
      if (store.epoch !== epoch) {
        // A write was heard meanwhile: what was read is answered, not kept.
        const out = this.known(store, ids);
        for (const [id, logs] of read) out.set(id, logs);
        return out;
      }
      this.hold(missing.length);
      for (const id of missing) store.products.set(id, read.get(id) ?? null);
    }
    return this.known(store, ids);
  }

  private known(store: StoreEvidence, ids: readonly string[]): Map<string, EvidenceLogs> {
    const out = new Map<string, EvidenceLogs>();
    for (const id of ids) {
      const logs = store.products.get(id);
      if (logs) out.set(id, logs);
    }
    return out;
  }

  /**
   * The learner of this process committed evidence for these (query "" is a product's evidence across queries):
   * they are read again here, and other replicas are told (they drop the store's entries).
   */
  written(storeId: string, keys: Iterable<{ query: string; productId: string }>): void {
    this.drop(storeId, keys);
    void this.feed?.publish("behaviour", storeId).catch(() => {});
  }

  /** Drops these entries of the store; null: all of them (another replica wrote, it did not say which). */
  private drop(storeId: string, keys: Iterable<{ query: string; productId: string }> | null): void {
    for (const [key, store] of this.stores) {
      if (!key.startsWith(`${storeId}\u0000`)) continue;
      store.epoch++;
      if (keys === null) {
        this.stores.delete(key);
        continue;
      }
      store.any = true;
      for (const { query, productId } of keys) {
        if (query === "") store.products.delete(productId);
        else store.queries.delete(query);
      }
    }
  }

  /** Evidence was deleted (pruned): everything is read again. */
  clear(): void {
    for (const store of this.stores.values()) store.epoch++;
    this.stores.clear();
    this.held = 0;
  }

  private store(storeId: string, generation: number): StoreEvidence {
    const key = `${storeId}\u0000${generation}`;
    let store = this.stores.get(key);
    if (!store) this.stores.set(key, (store = { epoch: 0, any: null, queries: new Map(), products: new Map() }));
    return store;
  }

  private hold(entries: number): void {
    if (this.held + entries > MAX_ENTRIES) {
      for (const store of this.stores.values()) {
        store.queries.clear();
        store.products.clear();
      }
      this.held = 0;
    }
    this.held += entries;
  }
}
