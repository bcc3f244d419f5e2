import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import { foldCase } from "../../text/normalize.ts";

/*
 * The words a store's shoppers search with and find products by: how many searches of the store's popular queries
 * (those with results, from the search log) used each word. Spelling weighs a look-alike by them beside the
 * catalog's own counts (spelling.ts), so a correction goes to the word shoppers use. Read per store at most once a
 * minute: a correction's prior need not follow every search.
 */

/** Popular queries read per store. */
const QUERIES = 2_000;
const MAX_AGE_MS = 60_000;

export class ShopperWords {
  private readonly cache = new Map<string, { at: number; words: Promise<ReadonlyMap<string, number>> }>();

  constructor(
    private readonly log: Pick<SearchLogRepository, "popularQueries">,
    private readonly now: () => number,
  ) {}

  /** How often shoppers of `storeId` searched each word and found something. */
  async of(storeId: string): Promise<(word: string) => number> {
    let held = this.cache.get(storeId);
    if (!held || this.now() - held.at > MAX_AGE_MS) {
      held = { at: this.now(), words: this.read(storeId) };
      this.cache.set(storeId, held);
      held.words.catch(() => this.cache.get(storeId) === held && this.cache.delete(storeId));
    }
    const words = await held.words.catch(() => new Map<string, number>());
    return (word) => words.get(word) ?? 0;
  }

  private async read(storeId: string): Promise<ReadonlyMap<string, number>> {
    const words = new Map<string, number>();
    for (const q of await this.log.popularQueries(storeId, 1, QUERIES)) {
      if (q.resultCount === 0) continue;
      for (const word of new Set(foldCase(q.query).split(/[^\p{L}\p{N}]+/u)))
        if (word) words.set(word, (words.get(word) ?? 0) + q.searches);
    }
    return words;
  }
}
