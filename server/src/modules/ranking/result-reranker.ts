import type { BehaviourRepository, EvidenceLogs } from "./storage/behaviour-repository.ts";
import type { EvidenceCache } from "./evidence-cache.ts";
import { AFFINITY_HALF_LIFE_DAYS, BEHAVIOUR_HALF_LIFE_DAYS } from "./half-lives.ts";
import { decayed } from "../../lib/decay.ts";
import { FACETS, type Facet, type ProductFacts } from "./product-facts.ts";

/*
 * A bounded re-rank of the first results. Text relevance decides what matches and the engine's order; then a
 * result may rise at most MAX_BEHAVIOUR_RISE places for what shoppers clicked, carted and bought, at most
 * MAX_PERSONAL_RISE for the shopper's own taste, and at most MAX_SEMANTIC_RISE for being close to the query's
 * meaning (hybrid search's vectors) (so others move down by at most as much). Only results within RERANK_WINDOW
 * move, so later pages keep the engine's order and pagination stays consistent.
 */

export const RERANK_WINDOW = 60;
export const MAX_BEHAVIOUR_RISE = 5;
export const MAX_PERSONAL_RISE = 3;
export const MAX_SEMANTIC_RISE = 3;
/** A query's evidence counts only from this much (decayed, de-duplicated): Algolia's dynamic re-ranking uses the like. */
export const MIN_QUERY_CLICKS = 20;
export const MIN_QUERY_CONVERSIONS = 2;
/** A product's evidence across queries counts from this much. */
export const MIN_PRODUCT_CLICKS = 10;
export const MIN_PRODUCT_CONVERSIONS = 2;
/** Evidence at which a boost is half its most: little evidence moves little. */
const HALF_BOOST_EVIDENCE = 8;
/** Values per facet a shopper's profile keeps. */
const TOP_VALUES = 5;
/** Rows of a query's evidence read. */
const MAX_QUERY_ROWS = 5_000;
/** How much of the behaviour boost the query's own evidence gives (the rest: the product's, across queries). */
const QUERY_SHARE = 0.7;

export interface RerankParts {
  engineRank: number;
  behaviour: { queryEvidence: number; productEvidence: number; boost: number };
  personalisation: { boost: number; matched: Partial<Record<Facet, string>> };
  /** With hybrid search: the result's cosine to the query's vector, and the boost it gives among these results. */
  semantic?: { similarity: number; boost: number };
}

export interface RerankRequest {
  storeId: string;
  /** The store's generation (creation time): evidence is read per generation. */
  generation: number;
  /** The normalized query; "" on a collection page. */
  query: string;
  behaviour: boolean;
  personalisation: boolean;
  userId: string | null;
  sessionId: string | null;
  /** Hybrid search: each result's closeness to the query's meaning (cosine); absent: off. */
  semantic?: (ids: readonly string[]) => Promise<Map<string, number>>;
}

const boost = (evidence: number) => evidence / (evidence + HALF_BOOST_EVIDENCE);

interface Decayed {
  evidence: number;
  clicks: number;
  conversions: number;
}

export class ResultReranker {
  constructor(
    private readonly repo: Pick<BehaviourRepository, "affinitiesOf">,
    private readonly evidence: EvidenceCache,
    private readonly facts: ProductFacts,
    private readonly now: () => number,
  ) {}

  /** What moves results for this search; null when nothing can (then the engine's order is the answer). */
  async plan(r: RerankRequest): Promise<RerankPlan | null> {
    const now = this.now();
    const down = (e: EvidenceLogs): Decayed => ({
      evidence: decayed(e.evidence, now, BEHAVIOUR_HALF_LIFE_DAYS),
      clicks: decayed(e.clicks, now, BEHAVIOUR_HALF_LIFE_DAYS),
      conversions: decayed(e.conversions, now, BEHAVIOUR_HALF_LIFE_DAYS),
    });
    let queryEvidence = new Map<string, number>();
    let products: ((ids: readonly string[]) => Promise<Map<string, Decayed>>) | null = null;
    if (r.behaviour && (await this.evidence.hasEvidence(r.storeId, r.generation))) {
      if (r.query) {
        const rows = (await this.evidence.forQuery(r.storeId, r.generation, r.query, MAX_QUERY_ROWS)).map((row) => ({
          id: row.productId,
          ...down(row),
        }));
        const clicks = rows.reduce((s, x) => s + x.clicks, 0);
        const conversions = rows.reduce((s, x) => s + x.conversions, 0);
        if (clicks >= MIN_QUERY_CLICKS || conversions >= MIN_QUERY_CONVERSIONS)
          queryEvidence = new Map(rows.map((x) => [x.id, x.evidence]));
      }
      products = async (ids) =>
        new Map([...(await this.evidence.forProducts(r.storeId, r.generation, ids))].map(([id, e]) => [id, down(e)]));
    }
    const taste = r.personalisation ? await this.taste(r, now) : null;
    if (!products && !taste && !r.semantic) return null;
    return new RerankPlan(r.storeId, r.query !== "", queryEvidence, products, taste, this.facts, r.semantic ?? null);
  }

  /** The shopper's top values per facet, each scaled by the facet's strongest (1 = their favourite). */
  private async taste(r: RerankRequest, now: number): Promise<Map<Facet, Map<string, number>> | null> {
    const shoppers = [r.userId ? `u:${r.userId}` : null, r.sessionId ? `s:${r.sessionId}` : null].filter((s): s is string => s !== null);
    if (shoppers.length === 0) return null;
    const sums = new Map<string, number>();
    for (const row of await this.repo.affinitiesOf(r.storeId, shoppers)) {
      const key = `${row.facet}\u0000${row.value}`;
      sums.set(key, (sums.get(key) ?? 0) + decayed(row.weight, now, AFFINITY_HALF_LIFE_DAYS));
    }
    if (sums.size === 0) return null;
    const taste = new Map<Facet, Map<string, number>>();
    for (const facet of FACETS) {
      const values = [...sums]
        .filter(([k]) => k.startsWith(`${facet}\u0000`))
        .map(([k, w]) => [k.slice(facet.length + 1), w] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, TOP_VALUES);
      if (values.length) taste.set(facet, new Map(values.map(([v, w]) => [v, w / values[0]![1]])));
    }
    return taste;
  }
}

export class RerankPlan {
  constructor(
    private readonly storeId: string,
    private readonly hasQuery: boolean,
    private readonly queryEvidence: ReadonlyMap<string, number>,
    private readonly products: ((ids: readonly string[]) => Promise<Map<string, Decayed>>) | null,
    private readonly taste: Map<Facet, Map<string, number>> | null,
    private readonly facts: ProductFacts,
    private readonly semantic: ((ids: readonly string[]) => Promise<Map<string, number>>) | null,
  ) {}

  /** The engine results to ask for so that page [from, from + size) can be re-ranked; null: the page as is. */
  window(from: number, size: number): number | null {
    return from < RERANK_WINDOW ? Math.min(RERANK_WINDOW, from + size + MAX_BEHAVIOUR_RISE + MAX_PERSONAL_RISE + MAX_SEMANTIC_RISE) : null;
  }

  /** The ids (the engine's first results, in its order) re-ranked, and each one's score parts. */
  async apply(ids: readonly string[]): Promise<{ ids: string[]; parts: Map<string, RerankParts> }> {
    const moving = ids.slice(0, RERANK_WINDOW);
    if (this.taste) await this.facts.load(this.storeId, moving);
    const productEvidence = (await this.products?.(moving)) ?? new Map<string, Decayed>();
    const closeness = (await this.semantic?.(moving)) ?? new Map<string, number>();
    // Closeness counts relative to the other results too: an embedding model's cosines sit in a narrow band.
    const close = relativeTo([...closeness.values()]);
    const parts = new Map<string, RerankParts>();
    // Taste counts relative to the other results: what they all share (the category searched for) moves nothing.
    const tastes = moving.map((id) => this.personal(id));
    const liked = relativeTo(tastes.map((t) => t.boost));
    const keyed = moving.map((id, rank) => {
      const p = productEvidence.get(id);
      const productEligible = p && (p.clicks >= MIN_PRODUCT_CLICKS || p.conversions >= MIN_PRODUCT_CONVERSIONS);
      const q = this.queryEvidence.get(id) ?? 0;
      const bp = productEligible ? boost(p.evidence) : 0;
      const behaviour = this.hasQuery ? QUERY_SHARE * boost(q) + (1 - QUERY_SHARE) * bp : bp;
      const personal = liked(tastes[rank]!.boost);
      const similarity = closeness.get(id);
      const semantic = similarity === undefined ? 0 : close(similarity);
      parts.set(id, {
        engineRank: rank + 1,
        behaviour: { queryEvidence: round(q), productEvidence: round(p?.evidence ?? 0), boost: round(behaviour) },
        personalisation: { boost: round(personal), matched: tastes[rank]!.matched },
        ...(similarity === undefined ? {} : { semantic: { similarity: round(similarity), boost: round(semantic) } }),
      });
      return { id, rank, key: rank - MAX_BEHAVIOUR_RISE * behaviour - MAX_PERSONAL_RISE * personal - MAX_SEMANTIC_RISE * semantic };
    });
    keyed.sort((a, b) => a.key - b.key || a.rank - b.rank);
    return { ids: [...keyed.map((k) => k.id), ...ids.slice(RERANK_WINDOW)], parts };
  }

  /** The mean over facets of how much the shopper likes the product's value (its best one when it has several). */
  private personal(id: string): { boost: number; matched: Partial<Record<Facet, string>> } {
    const matched: Partial<Record<Facet, string>> = {};
    if (!this.taste) return { boost: 0, matched };
    const facts = this.facts.of(this.storeId, id);
    if (!facts) return { boost: 0, matched };
    let sum = 0;
    for (const facet of FACETS) {
      let best = 0;
      for (const value of facts[facet]) {
        const liking = this.taste.get(facet)?.get(value) ?? 0;
        if (liking > best) {
          best = liking;
          matched[facet] = value;
        }
      }
      sum += best;
    }
    return { boost: sum / FACETS.length, matched };
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** A value's place between the least and the most of `values`, 0 to 1 (0 for all when they are equal). */
function relativeTo(values: readonly number[]): (value: number) => number {
  const least = Math.min(...values);
  const spread = Math.max(...values) - least;
  return (value) => (spread > 0 ? (value - least) / spread : 0);
}
