/*
 * For you: how well a product matches a shopper's affinities (ranking's: brand, category, colour and price band
 * from their clicks, carts and purchases, decayed; recommendations.md). Each affinity weighs relative to the
 * shopper's strongest (2^(w - strongest): 1 for it, 1/2 for one half as strong); a product scores the sum, over
 * the facets, of the weights of its values (a product in three colours takes a third of each).
 */

export interface Affinity {
  facet: string;
  value: string;
  /** A log2 decayed sum (lib/decay.ts). */
  weight: number;
}

/** A product's values per facet, as the affinities name them. */
export type ProductTaste = Record<string, readonly string[]>;

export class TasteMatch {
  private readonly weights = new Map<string, number>();

  constructor(affinities: readonly Affinity[]) {
    const strongest = Math.max(...affinities.map((a) => a.weight));
    // A user's and their session's affinities to one value add up.
    for (const a of affinities) {
      const k = `${a.facet}\u0000${a.value}`;
      this.weights.set(k, (this.weights.get(k) ?? 0) + 2 ** (a.weight - strongest));
    }
  }

  get empty(): boolean {
    return this.weights.size === 0;
  }

  /** The strongest values of a facet, strongest first. */
  top(facet: string, n: number): string[] {
    return [...this.weights]
      .filter(([k]) => k.startsWith(`${facet}\u0000`))
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k]) => k.slice(facet.length + 1));
  }

  score(taste: ProductTaste): number {
    let sum = 0;
    for (const [facet, values] of Object.entries(taste))
      for (const value of values) sum += (this.weights.get(`${facet}\u0000${value}`) ?? 0) / values.length;
    return sum;
  }
}
