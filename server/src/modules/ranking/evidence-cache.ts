import type { AffinityRow, BehaviourRepository, EvidenceLogs } from "./storage/behaviour-repository.ts";
import type { ChangeFeed } from "../../platform/change-feed.ts";

/*
 * Ranking evidence as search reads it, kept between the behaviour learner's writes. Read from SQLite, a relevance
 * search of a store with evidence spent about 0.5 ms on it (a query's few hundred rows and its 60 results' rows),
 * half of the engine's own search. Only the learner writes evidence: after its batch it names each (store, query,
 * product) it wrote, and only those entries are read again, so a search sees evidence as soon as it is committed.
 * Entries are per store generation (its creation time), so a store deleted and created again by the stores CLI
 * in another process never sees the old store's evidence. The raw log sums are kept; decay stays the reader's.
 * Shoppers' affinities (their taste) are kept the same way: the learner names the shoppers whose affinities it
 * wrote, and a shopper's erasure drops the store's. Read from the database, a returning shopper's taste cost every
 * one of their searches a query of all their affinity rows.
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

/** Per store, each shopper's ("u:…", "s:…") affinity rows, and an epoch as StoreEvidence keeps one. */
interface StoreTastes {
  epoch: number;
  shoppers: Map<string, AffinityRow[]>;
}

export class EvidenceCache {
  private readonly stores = new Map<string, StoreEvidence>();
  private readonly tastes = new Map<string, StoreTastes>();
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

  /** The affinity rows of these shoppers ("u:…", "s:…"), as BehaviourRepository.affinitiesOf reads them. */
  async affinitiesOf(storeId: string, shoppers: readonly string[]): Promise<AffinityRow[]> {
    let store = this.tastes.get(storeId);
    if (!store) this.tastes.set(storeId, (store = { epoch: 0, shoppers: new Map() }));
    const out: AffinityRow[] = [];
    // One shopper at a time (a search names at most a user and a session), so each one's rows are kept apart.
    for (const shopper of shoppers) {
      let rows = store.shoppers.get(shopper);
      if (!rows) {
        const epoch = store.epoch;
        rows = await this.repo.affinitiesOf(storeId, [shopper]);
        if (store.epoch === epoch) {
          this.hold(rows.length + 1);
          store.shoppers.set(shopper, rows);
        }
      }
      out.push(...rows);
    }
    return out;
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
  written(storeId: string, keys: Iterable<{ query: string; productId: string }>, shoppers: readonly string[] = []): void {
    this.drop(storeId, keys);
    const tastes = this.tastes.get(storeId);
    if (tastes && shoppers.length) {
      tastes.epoch++;
      for (const shopper of shoppers) tastes.shoppers.delete(shopper);
    }
    void this.feed?.publish("behaviour", storeId).catch(() => {});
  }

  /** A shopper of the store was erased: its tastes are read again here, and on other replicas. */
  erased(storeId: string): void {
    this.drop(storeId, null);
    void this.feed?.publish("behaviour", storeId).catch(() => {});
  }

  /** Drops these entries of the store; null: all of them (another replica wrote, it did not say which). */
  private drop(storeId: string, keys: Iterable<{ query: string; productId: string }> | null): void {
    if (keys === null) {
      const tastes = this.tastes.get(storeId);
      if (tastes) tastes.epoch++;
      this.tastes.delete(storeId);
    }
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
    for (const tastes of this.tastes.values()) tastes.epoch++;
    this.stores.clear();
    this.tastes.clear();
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
      for (const tastes of this.tastes.values()) tastes.shoppers.clear();
      this.held = 0;
    }
    this.held += entries;
  }
}
