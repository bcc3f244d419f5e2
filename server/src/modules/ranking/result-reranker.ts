import type { EvidenceLogs } from "./storage/behaviour-repository.ts";
import type { EvidenceCache } from "./evidence-cache.ts";
import { BEHAVIOUR_HALF_LIFE_DAYS } from "./half-lives.ts";
import { decayed } from "../../lib/decay.ts";
import type { Facet, ProductFacts } from "./product-facts.ts";
import type { ShopperTaste, Taste } from "./shopper-taste.ts";

/*
 * The first RERANK_WINDOW results of the relevance order, re-ranked. Text relevance decides what matches and the
 * engine's order (its rank r); then each result's key is
 *
 *   key = r · exp(−B·b − P·p) − S·s
 *
 * and the window is sorted by key (ties: engine order). b (0 to 1) is what shoppers clicked, carted and bought:
 * 0.7·q/(q + H) + 0.3·e/(e + H), q the evidence for this query, e the product's across queries, each counted once
 * per shopper, product, query and kind a day. B = ln RERANK_WINDOW: the strongest evidence can carry the
 * window's last result to the top, and evidence moves a product by a factor of its rank, so lifting the second
 * result to first takes as much as lifting the 50th to 25th. p (0 to 1) is how much more the shopper likes the
 * result than the least liked of the window (shopper-taste.ts); P = ln PERSONAL_FACTOR bounds it to a factor.
 * s (0 to 1) is closeness to the query's meaning (hybrid search), worth at most S = MAX_SEMANTIC_RISE places.
 * The window is always the same first results, whatever page is asked, so a product is on one page only.
 */

export const RERANK_WINDOW = 60;
/** B: the behaviour part's reach, as a log of the factor of rank it can lift a product by. */
export const BEHAVIOUR_REACH = Math.log(RERANK_WINDOW);
/**
 * H: evidence at which a part of b is half its most (about 6 shoppers who each click at 25, cart and buy). Most
 * products of a store have a few shoppers' evidence, below H: there b grows nearly in proportion to it, so those
 * few shoppers already reorder the first places (the learning quality figures, docs/evaluation.md).
 */
export const HALF_EVIDENCE = 100;
/** The factor of rank the shopper's taste can lift a product by, at most. */
export const PERSONAL_FACTOR = 8;
export const MAX_SEMANTIC_RISE = 3;
/** A query's evidence counts only from this much (decayed, de-duplicated): Algolia's dynamic re-ranking uses the like. */
export const MIN_QUERY_CLICKS = 20;
export const MIN_QUERY_CONVERSIONS = 2;
/** A product's evidence across queries counts from this much. */
export const MIN_PRODUCT_CLICKS = 10;
export const MIN_PRODUCT_CONVERSIONS = 2;
/**
 * The thresholds count decayed events, forgiving a day's decay: two purchases made a minute ago are two (decayed
 * by that minute, just under 2), and still count the next day.
 */
const reaches = (count: number, threshold: number) => count >= threshold * 2 ** (-1 / BEHAVIOUR_HALF_LIFE_DAYS);
/** Rows of a query's evidence read. */
const MAX_QUERY_ROWS = 5_000;
/** How much of the behaviour part the query's own evidence gives (the rest: the product's, across queries). */
const QUERY_SHARE = 0.7;

export interface RerankParts {
  engineRank: number;
  /** Each part's value and the places it moved the result (up: positive), applied in this order. */
  behaviour: { queryEvidence: number; productEvidence: number; boost: number; moved: number };
  personalisation: { boost: number; matched: Partial<Record<Facet, string>>; moved: number };
  /** With hybrid search: the result's cosine to the query's vector, and the boost it gives among these results. */
  semantic?: { similarity: number; boost: number; moved: number };
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

/** A part of b: 0 without evidence, a half at HALF_EVIDENCE, towards 1 with much more. */
export const saturation = (evidence: number) => evidence / (evidence + HALF_EVIDENCE);

interface Decayed {
  evidence: number;
  clicks: number;
  conversions: number;
}

export class ResultReranker {
  constructor(
    private readonly evidence: EvidenceCache,
    private readonly tastes: ShopperTaste,
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
        if (reaches(clicks, MIN_QUERY_CLICKS) || reaches(conversions, MIN_QUERY_CONVERSIONS))
          queryEvidence = new Map(rows.map((x) => [x.id, x.evidence]));
      }
      products = async (ids) =>
        new Map([...(await this.evidence.forProducts(r.storeId, r.generation, ids))].map(([id, e]) => [id, down(e)]));
    }
    const taste = r.personalisation ? await this.tastes.of(r.storeId, r) : null;
    if (!products && !taste && !r.semantic) return null;
    return new RerankPlan(r.storeId, r.query !== "", queryEvidence, products, taste, this.facts, r.semantic ?? null);
  }
}

export class RerankPlan {
  constructor(
    private readonly storeId: string,
    private readonly hasQuery: boolean,
    private readonly queryEvidence: ReadonlyMap<string, number>,
    private readonly products: ((ids: readonly string[]) => Promise<Map<string, Decayed>>) | null,
    private readonly taste: Taste | null,
    private readonly facts: ProductFacts,
    private readonly semantic: ((ids: readonly string[]) => Promise<Map<string, number>>) | null,
  ) {}

  /**
   * The engine results to ask for so that page [from, from + size) can be re-ranked: the whole window (any of
   * its results may rise onto the page), and the page's end past it; null: past the window, the page as is.
   */
  window(from: number, size: number): number | null {
    return from < RERANK_WINDOW ? Math.max(RERANK_WINDOW, from + size) : null;
  }

  /** The ids (the engine's first results, in its order) re-ranked, and each one's score parts. */
  async apply(ids: readonly string[]): Promise<{ ids: string[]; parts: Map<string, RerankParts> }> {
    const moving = ids.slice(0, RERANK_WINDOW);
    if (this.taste) await this.facts.load(this.storeId, moving);
    const productEvidence = (await this.products?.(moving)) ?? new Map<string, Decayed>();
    const closeness = (await this.semantic?.(moving)) ?? new Map<string, number>();
    // Closeness counts relative to the other results: an embedding model's cosines sit in a narrow band.
    const close = relativeTo([...closeness.values()]);
    const likings = this.taste?.among(this.storeId, this.facts, moving) ?? null;
    const scored = moving.map((id, i) => {
      const rank = i + 1;
      const p = productEvidence.get(id);
      const productEligible = p && (reaches(p.clicks, MIN_PRODUCT_CLICKS) || reaches(p.conversions, MIN_PRODUCT_CONVERSIONS));
      const q = this.queryEvidence.get(id) ?? 0;
      const bp = productEligible ? saturation(p.evidence) : 0;
      const behaviour = this.hasQuery ? QUERY_SHARE * saturation(q) + (1 - QUERY_SHARE) * bp : bp;
      const personal = likings?.[i]?.boost ?? 0;
      const similarity = closeness.get(id);
      const semantic = similarity === undefined ? 0 : close(similarity);
      // The keys with the parts added one after another: explain says how many places each moved the result.
      const byBehaviour = rank * Math.exp(-BEHAVIOUR_REACH * behaviour);
      const byTaste = byBehaviour * PERSONAL_FACTOR ** -personal;
      const keys = [rank, byBehaviour, byTaste, byTaste - MAX_SEMANTIC_RISE * semantic];
      return { id, q, p, behaviour, personal, similarity, semantic, keys };
    });
    const positions = [0, 1, 2, 3].map((k) => positionsBy(scored.map((s) => s.keys[k]!)));
    const parts = new Map<string, RerankParts>();
    scored.forEach((s, i) => {
      const moved = (k: number) => positions[k - 1]![i]! - positions[k]![i]!;
      parts.set(s.id, {
        engineRank: i + 1,
        behaviour: { queryEvidence: round(s.q), productEvidence: round(s.p?.evidence ?? 0), boost: round(s.behaviour), moved: moved(1) },
        personalisation: { boost: round(s.personal), matched: likings?.[i]?.matched ?? {}, moved: moved(2) },
        ...(s.similarity === undefined ? {} : { semantic: { similarity: round(s.similarity), boost: round(s.semantic), moved: moved(3) } }),
      });
    });
    const order = scored.map((s, i) => ({ id: s.id, at: positions[3]![i]! })).sort((a, b) => a.at - b.at);
    return { ids: [...order.map((o) => o.id), ...ids.slice(RERANK_WINDOW)], parts };
  }
}

/** Each key's 1-based position when sorted by key, ties in the engine's order. */
function positionsBy(keys: readonly number[]): number[] {
  const order = keys.map((key, i) => ({ key, i })).sort((a, b) => a.key - b.key || a.i - b.i);
  const positions = new Array<number>(keys.length);
  order.forEach((o, at) => {
    positions[o.i] = at + 1;
  });
  return positions;
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** A value's place between the least and the most of `values`, 0 to 1 (0 for all when they are equal). */
function relativeTo(values: readonly number[]): (value: number) => number {
  const least = Math.min(...values);
  const spread = Math.max(...values) - least;
  return (value) => (spread > 0 ? (value - least) / spread : 0);
}
