import type { BehaviourRepository } from "./storage/behaviour-repository.ts";
import { shopperKeysOf } from "../analytics/storage/shopper-erasure-repository.ts";
import { AFFINITY_HALF_LIFE_DAYS } from "./half-lives.ts";
import { decayed } from "../../lib/decay.ts";
import { FACETS, type Facet, type Facts, type ProductFacts } from "./product-facts.ts";

/*
 * A shopper's taste, read from the affinities the behaviour learner keeps per user id and session id: how much of
 * their (decayed) weight in a facet went to each value. A product's liking weighs its best value's share per
 * facet, brand most: fifteen purchases of one brand give that brand a share of 1, while the colours and price
 * bands they spread over share theirs. One taste serves search's re-rank, similar products and looks.
 */

/** How much each facet weighs in a liking (they sum to 1). */
export const FACET_WEIGHTS: Record<Facet, number> = { brand: 0.5, category: 0.2, colour: 0.15, priceBand: 0.15 };

export interface Liking {
  /** 0 to 1: how much of the shopper's taste the product meets, less the least liked of the products compared. */
  boost: number;
  /** Per facet, the product's value the shopper likes best (when they like any). */
  matched: Partial<Record<Facet, string>>;
}

export interface Shopper {
  userId?: string | null;
  sessionId?: string | null;
}

export class Taste {
  constructor(private readonly shares: ReadonlyMap<Facet, ReadonlyMap<string, number>>) {}

  /** The weighted share of the shopper's taste a product's facts meet (0 to 1), and the values that meet it. */
  of(facts: Facts | null): { liking: number; matched: Partial<Record<Facet, string>> } {
    const matched: Partial<Record<Facet, string>> = {};
    if (!facts) return { liking: 0, matched };
    let liking = 0;
    for (const facet of FACETS) {
      let best = 0;
      for (const value of facts[facet]) {
        const share = this.shares.get(facet)?.get(value) ?? 0;
        if (share > best) {
          best = share;
          matched[facet] = value;
        }
      }
      liking += FACET_WEIGHTS[facet] * best;
    }
    return { liking, matched };
  }

  /**
   * Each product's liking relative to the others': what they all share (the category searched for, the source's
   * brand) lifts nothing, so only what sets a product apart in the shopper's eyes moves it.
   */
  among(storeId: string, facts: ProductFacts, ids: readonly string[]): Liking[] {
    const likings = ids.map((id) => this.of(facts.of(storeId, id)));
    const least = Math.min(...likings.map((l) => l.liking));
    return likings.map((l) => ({ boost: l.liking - least, matched: l.matched }));
  }
}

export class ShopperTaste {
  constructor(
    private readonly repo: Pick<BehaviourRepository, "affinitiesOf">,
    private readonly facts: ProductFacts,
    private readonly now: () => number,
  ) {}

  /** The shopper's taste (their user id's and session id's together); null for a shopper without any. */
  async of(storeId: string, shopper: Shopper): Promise<Taste | null> {
    const keys = shopperKeysOf(shopper);
    if (keys.length === 0) return null;
    const now = this.now();
    const sums = new Map<Facet, Map<string, number>>();
    for (const row of await this.repo.affinitiesOf(storeId, keys)) {
      const facet = row.facet as Facet;
      if (!FACETS.includes(facet)) continue;
      const values = sums.get(facet) ?? new Map<string, number>();
      values.set(row.value, (values.get(row.value) ?? 0) + decayed(row.weight, now, AFFINITY_HALF_LIFE_DAYS));
      sums.set(facet, values);
    }
    if (sums.size === 0) return null;
    for (const values of sums.values()) {
      const total = [...values.values()].reduce((a, b) => a + b, 0);
      for (const [value, weight] of values) values.set(value, weight / total);
    }
    return new Taste(sums);
  }

  /**
   * The shopper's liking of each of `ids`, relative to the others (Taste.among); null when the shopper has no
   * taste, so that their answer is exactly everyone's.
   */
  async likings(storeId: string, shopper: Shopper, ids: readonly string[]): Promise<Map<string, Liking> | null> {
    const taste = await this.of(storeId, shopper);
    if (!taste || ids.length === 0) return null;
    await this.facts.load(storeId, ids);
    const likings = taste.among(storeId, this.facts, ids);
    return new Map(ids.map((id, i) => [id, likings[i]!]));
  }
}
