import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import type { SearchEngine } from "../../engine/types.ts";
import { suggestableQuery } from "../search-log/suggestable-query.ts";

/*
 * What a shopper is offered where search would otherwise end (the empty search box, a query that finds nothing):
 * the store's most searched queries that find products, from its own search log, and its largest categories.
 * Served inside the widget configuration unless the store named its own popular queries there. Read per store at
 * most once a minute.
 */

export interface PopularCategory {
  /** The category path as the facet holds it ("Apparel > Topwear"). */
  key: string;
  /** Its last level, as shoppers read it. */
  name: string;
  count: number;
}

export interface PopularContent {
  popularQueries: string[];
  popularCategories: PopularCategory[];
}

const QUERIES = 8;
const CATEGORIES = 6;
/** The category level offered: below the departments, above the leaves (Topwear, Shoes, Bags). */
const CATEGORY_KEY = "category.lvl1";
const MAX_AGE_MS = 60_000;

export class PopularContentService {
  private readonly cache = new Map<string, { at: number; content: Promise<PopularContent> }>();

  constructor(
    private readonly engine: SearchEngine,
    private readonly log: Pick<SearchLogRepository, "popularQueries">,
    private readonly now: () => number,
  ) {}

  of(storeId: string): Promise<PopularContent> {
    const held = this.cache.get(storeId);
    if (held && this.now() - held.at <= MAX_AGE_MS) return held.content;
    const content = this.read(storeId);
    this.cache.set(storeId, { at: this.now(), content });
    content.catch(() => this.cache.delete(storeId));
    return content;
  }

  private async read(storeId: string): Promise<PopularContent> {
    const queries = (await this.log.popularQueries(storeId, 1, QUERIES * 4)).filter((q) => q.resultCount > 0 && suggestableQuery(q.query));
    const categories = await this.engine.search(storeId, {
      text: "",
      matching: { typos: false, prefixLast: false },
      filters: [],
      facets: [CATEGORY_KEY],
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: 0,
    });
    return {
      popularQueries: queries.slice(0, QUERIES).map((q) => q.query),
      popularCategories: (categories.facets[CATEGORY_KEY] ?? [])
        .slice(0, CATEGORIES)
        .map((v) => ({ key: v.value, name: v.value.split(" > ").at(-1)!, count: v.count })),
    };
  }
}
