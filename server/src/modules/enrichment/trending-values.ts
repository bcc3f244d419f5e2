import type { TrendInputsRepository } from "./storage/trend-inputs-repository.ts";
import { dayOf } from "../analytics/event-facts.ts";
import type { Product } from "../catalog/product-schema.ts";

/*
 * Trending attribute values: a value is trending when its share of the store's searches and clicks in the last
 * PERIOD_DAYS rose by RISE against the period before, with at least MIN_EVIDENCE searches and clicks behind it.
 * A search counts for the values its query names (read like a product name by the text stage); a click for the
 * values enrichment found in the clicked product. Computed per store from the report aggregates (the top queries
 * and products of each period, so the cost is bounded) and kept for CACHE_MS.
 */

const DAY_MS = 86_400_000;
const PERIOD_DAYS = 7;
const RISE = 1.25;
const MIN_EVIDENCE = 5;
const TOP = 2_000;
const CACHE_MS = 10 * 60_000;

type Attributes = Partial<Record<string, string[]>>;

export class TrendingValues {
  private readonly cache = new Map<string, { at: number; trending: Set<string> }>();

  constructor(
    private readonly repo: TrendInputsRepository,
    private readonly readText: (product: Product) => Attributes,
    private readonly now: () => number,
  ) {}

  /** Whether attribute=value is trending in the store now. */
  async of(storeId: string): Promise<(attribute: string, value: string) => boolean> {
    const now = this.now();
    let held = this.cache.get(storeId);
    if (!held || now - held.at > CACHE_MS) {
      held = { at: now, trending: await this.compute(storeId, now) };
      this.cache.set(storeId, held);
    }
    const trending = held.trending;
    return (attribute, value) => trending.has(`${attribute}=${value}`);
  }

  private async compute(storeId: string, now: number): Promise<Set<string>> {
    const recent = await this.shares(storeId, dayOf(now - (PERIOD_DAYS - 1) * DAY_MS), dayOf(now));
    const before = await this.shares(storeId, dayOf(now - (2 * PERIOD_DAYS - 1) * DAY_MS), dayOf(now - PERIOD_DAYS * DAY_MS));
    const out = new Set<string>();
    for (const [value, n] of recent.counts) {
      if (n < MIN_EVIDENCE) continue;
      const share = n / recent.total;
      const earlier = (before.counts.get(value) ?? 0) / Math.max(before.total, 1);
      if (share >= earlier * RISE && share > earlier) out.add(value);
    }
    return out;
  }

  private async shares(storeId: string, from: string, to: string): Promise<{ counts: Map<string, number>; total: number }> {
    const counts = new Map<string, number>();
    let total = 0;
    const add = (attributes: Attributes, n: number) => {
      total += n;
      for (const [attribute, values] of Object.entries(attributes)) {
        for (const value of values ?? []) counts.set(`${attribute}=${value}`, (counts.get(`${attribute}=${value}`) ?? 0) + n);
      }
    };
    for (const q of await this.repo.queries(storeId, from, to, TOP)) add(this.readText({ id: "query", name: q.query } as Product), q.n);
    for (const p of await this.repo.clickedProducts(storeId, from, to, TOP)) add(JSON.parse(p.attributes) as Attributes, p.n);
    return { counts, total };
  }
}
