import type { TypoVocabulary } from "../../text/typo-vocabulary.ts";

/*
 * Typesense has no API for its vocabulary, so each server replica keeps a TypoVocabulary per store in memory:
 * built from an export of the store's collection (only `id` and the compact `vocab` field) on first use, kept
 * in step with this replica's own upserts and removes, and rebuilt from a fresh export every refresh interval
 * so words indexed by another replica (the one running the indexing worker) show up within that interval.
 * The rebuild runs in the background behind the current vocabulary; it is tracked and awaited by close().
 */

type Pairs = readonly [string, string][];

interface Entry {
  vocabulary: TypoVocabulary;
  loadedAt: number;
}

export interface VocabularyCacheOptions {
  /** Builds a store's vocabulary from an export (empty for a store without a collection). */
  load: (storeId: string) => Promise<TypoVocabulary>;
  refreshMs: number;
  now: () => number;
}

export class VocabularyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();
  private readonly refreshing = new Map<string, Promise<void>>();
  /** Local writes per store: a build that overlapped one may have missed it. */
  private readonly writes = new Map<string, number>();
  /** The last background refresh failure per store (kept for diagnostics; the next call retries). */
  readonly refreshErrors = new Map<string, Error>();

  constructor(private readonly o: VocabularyCacheOptions) {}

  async get(storeId: string): Promise<TypoVocabulary> {
    const entry = this.entries.get(storeId);
    if (!entry) return (await this.firstLoad(storeId)).vocabulary;
    if (this.o.now() - entry.loadedAt >= this.o.refreshMs && !this.refreshing.has(storeId)) this.startRefresh(storeId, entry);
    return entry.vocabulary;
  }

  private firstLoad(storeId: string): Promise<Entry> {
    let pending = this.loading.get(storeId);
    if (!pending) {
      pending = (async () => {
        let vocabulary: TypoVocabulary;
        // A write that lands while the export runs may be missing from it: build again (a few times at most).
        for (let attempt = 0; ; attempt++) {
          const before = this.writes.get(storeId) ?? 0;
          vocabulary = await this.o.load(storeId);
          if ((this.writes.get(storeId) ?? 0) === before || attempt >= 2) break;
        }
        const entry = { vocabulary, loadedAt: this.o.now() };
        this.entries.set(storeId, entry);
        return entry;
      })().finally(() => this.loading.delete(storeId));
      this.loading.set(storeId, pending);
    }
    return pending;
  }

  private startRefresh(storeId: string, entry: Entry): void {
    const before = this.writes.get(storeId) ?? 0;
    const run = this.o
      .load(storeId)
      .then((vocabulary) => {
        // Overlapping local writes: this replica is writing, its incremental vocabulary is the fresher one.
        if ((this.writes.get(storeId) ?? 0) === before && this.entries.get(storeId) === entry) entry.vocabulary = vocabulary;
        entry.loadedAt = this.o.now();
        this.refreshErrors.delete(storeId);
      })
      .catch((error: Error) => {
        this.refreshErrors.set(storeId, error);
      })
      .finally(() => this.refreshing.delete(storeId));
    this.refreshing.set(storeId, run);
  }

  /** This replica's own writes, applied at once: the old documents' words out, the new ones in. */
  apply(storeId: string, removed: readonly Pairs[], added: readonly Pairs[]): void {
    this.writes.set(storeId, (this.writes.get(storeId) ?? 0) + 1);
    const entry = this.entries.get(storeId);
    if (!entry) return;
    for (const pairs of removed) entry.vocabulary.count(pairs, -1);
    for (const pairs of added) entry.vocabulary.count(pairs, 1);
  }

  /** After a reindex: the vocabulary built while importing replaces the cached one. */
  replace(storeId: string, vocabulary: TypoVocabulary): void {
    this.writes.set(storeId, (this.writes.get(storeId) ?? 0) + 1);
    this.entries.set(storeId, { vocabulary, loadedAt: this.o.now() });
  }

  forget(storeId: string): void {
    this.writes.set(storeId, (this.writes.get(storeId) ?? 0) + 1);
    this.entries.delete(storeId);
  }

  /** Waits for background refreshes, so nothing runs after the engine is closed. */
  async close(): Promise<void> {
    await Promise.all([...this.refreshing.values(), ...[...this.loading.values()].map((p) => p.catch(() => undefined))]);
  }
}
