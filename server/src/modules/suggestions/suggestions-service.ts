import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Suggestion, SuggestionsResponse } from "@storefront-search/contract";
import type { ImportedQuery, SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import { queryWords } from "../../text/normalize.ts";
import type { SearchEngine } from "../../engine/types.ts";
import { normalizeQuery } from "../../text/normalize.ts";
import { MIN_SUGGESTION_SHOPPERS, suggestableQuery } from "../search-log/suggestable-query.ts";
import { candidate, matchScore, typedWords, type Candidate, type TypedWords } from "./suggestion-matcher.ts";

/*
 * Typeahead: past queries that had results and enough distinct shoppers (most searched first) and catalog
 * terms (category levels), plus
 * brands. Candidates are rebuilt at most every few seconds per store, so a keystroke costs a scan of
 * in-memory lists, not a database or engine query.
 */

interface StoreCandidates {
  builtAt: number;
  terms: Candidate[];
  designers: Candidate[];
}

const CACHE_MS = 30_000;
const MAX_PAST_QUERIES = 5_000;

export class SuggestionsService {
  private readonly cache = new Map<string, StoreCandidates>();

  constructor(
    private readonly engine: SearchEngine,
    /** How many products searching a text finds, as search reads it (SearchService.count). */
    private readonly countOf: (storeId: string, text: string) => Promise<number>,
    private readonly searchLog: SearchLogRepository,
    private readonly now: () => number,
    /** Told after an import: what imported queries led to is evidence of their meaning (modules/meaning). */
    private readonly imported: (storeId: string) => void = () => {},
  ) {}

  private async candidates(storeId: string): Promise<StoreCandidates> {
    const cached = this.cache.get(storeId);
    if (cached && this.now() - cached.builtAt < CACHE_MS) return cached;
    const all = await this.engine.search(storeId, {
      text: "",
      matching: { typos: false, prefixLast: false },
      filters: [],
      facets: ["designer", "category.lvl*"],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 0,
    });
    // A past query's logged result count may come from a filtered search: its count is taken when first shown.
    const past = (await this.searchLog.popularQueries(storeId, MIN_SUGGESTION_SHOPPERS, MAX_PAST_QUERIES)).map((q) =>
      candidate("q", q.query, UNCOUNTED, q.searches + q.resultCount / 1e9, 1),
    );
    // One term per meaning: "Kurtas" is not offered beside the past query "kurta".
    const seen = new Set(past.map((c) => sameTerm(c.label)));
    const categoryTerms: Candidate[] = [];
    for (const [key, values] of Object.entries(all.facets)) {
      if (!key.startsWith("category.")) continue;
      for (const v of values) {
        const label = v.value.split(" > ").at(-1)!;
        if (seen.has(sameTerm(label))) continue;
        seen.add(sameTerm(label));
        // The count a shopper sees is what searching the term gives; it is counted when first shown.
        categoryTerms.push(candidate("c", label, UNCOUNTED, v.count));
      }
    }
    const designers = (all.facets.designer ?? []).map((v) => candidate("d", v.value, v.count, v.count));
    const built = { builtAt: this.now(), terms: [...past, ...categoryTerms], designers };
    this.cache.set(storeId, built);
    return built;
  }

  async suggest(storeId: string, query: string, limit: number): Promise<SuggestionsResponse> {
    const typed = typedWords(query);
    if (typed.words.length === 0) return { suggestions: [], designers: [], query };
    const { terms, designers } = await this.candidates(storeId);
    const suggestions: Candidate[] = [];
    for (const c of ranked(typed, terms)) {
      if (suggestions.length === limit) break;
      if (c.count === UNCOUNTED) c.count = await this.countOf(storeId, c.label);
      // A term that no longer finds anything (the catalog changed) is not offered.
      if (c.count > 0) suggestions.push(c);
    }
    return { suggestions: suggestions.map(shown), designers: ranked(typed, designers).slice(0, limit).map(shown), query };
  }

  /**
   * Adds past queries from elsewhere (a previous search provider, the demo's query log), counting their results
   * now. Queries that could never be suggested (suggestable-query.ts) are skipped and counted.
   */
  async importQueries(
    storeId: string,
    queries: { query: string; searches: number; categories?: string[] }[],
  ): Promise<{ withResults: number; skipped: number }> {
    const rows: ImportedQuery[] = [];
    for (const q of queries) {
      const query = normalizeQuery(q.query);
      if (!suggestableQuery(query)) continue;
      rows.push({
        query,
        searches: q.searches,
        resultCount: await this.countOf(storeId, q.query),
        ...(q.categories?.length ? { ledTo: q.categories } : {}),
      });
      // A count can take milliseconds on a large store: every store's searches and /health take turns with the import.
      await yieldToEventLoop();
    }
    await this.searchLog.importQueries(storeId, rows, this.now());
    this.cache.delete(storeId);
    this.imported(storeId);
    return { withResults: rows.filter((r) => r.resultCount > 0).length, skipped: queries.length - rows.length };
  }
}

const UNCOUNTED = -1;

const sameTerm = (label: string) =>
  queryWords(label)
    .map((w) => w.token)
    .join(" ");

const shown = (c: Candidate): Suggestion => ({ id: c.id, label: c.label, count: c.count });

/** The candidates that match what was typed, best first. */
function ranked(typed: TypedWords, candidates: Candidate[]): Candidate[] {
  const matched: { c: Candidate; score: number }[] = [];
  for (const c of candidates) {
    const score = matchScore(typed, c);
    if (score !== null) matched.push({ c, score });
  }
  matched.sort((a, b) => b.score - a.score || b.c.priority - a.c.priority || b.c.weight - a.c.weight || (a.c.label < b.c.label ? -1 : 1));
  return matched.map(({ c }) => c);
}
