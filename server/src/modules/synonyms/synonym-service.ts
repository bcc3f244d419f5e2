import type { Deleted, SynonymBody, SynonymImportReport, SynonymList, SynonymSet } from "@storefront-search/contract";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { StoreCache, type ChangeFeed } from "../../platform/change-feed.ts";
import type { SynonymsRepository } from "./storage/synonyms-repository.ts";
import { readImport, writeExport, type SynonymFormat } from "./synonym-formats.ts";
import { SynonymMatcher } from "./synonym-matcher.ts";

/** Errors an import answer lists; `errorCount` counts them all. */
export const MAX_REPORTED_ERRORS = 100;
import { checkSynonymId, MAX_SYNONYM_SETS } from "./synonym-schema.ts";

/*
 * A store's synonym sets: kept in the service's database, applied to searches as alternatives of the query's
 * words (EngineSearchRequest.alternatives), which both engines match and rank as the words they stand for.
 */

/** The store a search runs for: its id and creation time (StoreRow has both). */
export type StoreRef = { id: string; createdAt: number };

export class SynonymService {
  /**
   * Per store, its sets as a SynonymMatcher, built on the store's first search and changed with its sets (a store
   * with the most sets, 100,000 phrases, takes about half a second to build), with the store's creation time: a
   * store deleted and created again under its id (by the CLI, another process) starts without sets.
   */
  private readonly matchers: StoreCache<SynonymMatcher>;

  constructor(
    private readonly repo: SynonymsRepository,
    private readonly now: () => number,
    /** Other replicas' changes: their stores' matchers are built again on the next search. */
    private readonly feed: ChangeFeed,
  ) {
    this.matchers = new StoreCache(feed, "synonyms");
  }

  async get(storeId: string, id: string): Promise<SynonymSet> {
    checkSynonymId(id);
    const set = await this.repo.get(storeId, id);
    if (!set) throw new NotFoundError(`No synonym set "${id}"`);
    return set;
  }

  async list(storeId: string, from: number, limit: number): Promise<SynonymList> {
    const [synonyms, total] = await Promise.all([this.repo.list(storeId, from, limit), this.repo.count(storeId)]);
    return { synonyms, total };
  }

  async put(storeId: string, id: string, body: SynonymBody): Promise<SynonymSet> {
    checkSynonymId(id);
    if (!(await this.repo.existing(storeId, [id])).has(id) && (await this.repo.count(storeId)) >= MAX_SYNONYM_SETS) {
      throw new ValidationError(
        `path.id is a new synonym set, and the store holds ${MAX_SYNONYM_SETS}, the most it may; delete some first`,
        [{ path: "path.id", problem: `is a new set beyond the limit of ${MAX_SYNONYM_SETS} per store` }],
      );
    }
    await this.repo.put(storeId, [{ id, body }], this.now());
    await this.changed(storeId, (matcher) => matcher.put({ id, ...body }));
    return (await this.repo.get(storeId, id))!;
  }

  async delete(storeId: string, id: string): Promise<Deleted> {
    checkSynonymId(id);
    if (!(await this.repo.delete(storeId, id))) throw new NotFoundError(`No synonym set "${id}"`);
    await this.changed(storeId, (matcher) => matcher.remove(id));
    return { id, deleted: true };
  }

  /** Imports what an export holds (replacing sets of the same id); items that cannot be read are reported. */
  async import(storeId: string, body: unknown, format: SynonymFormat): Promise<SynonymImportReport> {
    const { items, errors } = readImport(body, format);
    let room = MAX_SYNONYM_SETS - (await this.repo.count(storeId));
    const held = await this.repo.existing(
      storeId,
      items.map((item) => item.id),
    );
    const accepted = items.filter((item) => {
      if (held.has(item.id)) return true;
      if (room > 0) return (room--, true);
      errors.push({ index: item.index, id: item.id, message: `the store would hold more than ${MAX_SYNONYM_SETS} synonym sets` });
      return false;
    });
    await this.repo.put(storeId, accepted, this.now());
    await this.changed(storeId, (matcher) => accepted.forEach((item) => matcher.put({ id: item.id, ...item.body })));
    // The first errors show what is wrong with an export; the count says how much of it.
    return {
      imported: accepted.length,
      errors: errors.sort((a, b) => a.index - b.index).slice(0, MAX_REPORTED_ERRORS),
      errorCount: errors.length,
    };
  }

  async export(storeId: string, format: SynonymFormat): Promise<unknown> {
    return writeExport(await this.repo.list(storeId, 0, null), format);
  }

  /** The store's sets as a matcher, for a search to widen its words and explain what matched. */
  matcher(store: StoreRef): Promise<SynonymMatcher> {
    return this.matchers.get(store, async () => new SynonymMatcher(await this.repo.list(store.id, 0, null)));
  }

  /** A change committed here: this replica's matcher takes it at once, the others hear of it through the feed. */
  private async changed(storeId: string, apply: (matcher: SynonymMatcher) => void): Promise<void> {
    await this.matchers.current(storeId)?.then(apply, () => {});
    await this.feed.publish("synonyms", storeId);
  }
}
