import { foldCase } from "../../text/normalize.ts";
import { lowestPaidPrice } from "./price-range.ts";
import type { Product } from "./product-schema.ts";

/*
 * What a shopper's taste is made of, per product: its brand, category leaf, colours and price band, folded. The
 * behaviour learner learns affinities from them; search, similar products and looks compare them with a taste.
 */

/** What personalisation learns a shopper's taste from, per product: facet -> values. */
export type Facts = Record<Facet, string[]>;
export const FACETS = ["brand", "category", "colour", "priceBand"] as const;
export type Facet = (typeof FACETS)[number];

/**
 * A price band: half an octave of price (x1.41 per band), so "around 40" and "around 55" differ while 40 and
 * 45 do not, in any currency and without the store's price distribution.
 */
export const priceBand = (price: number): string => `b${Math.floor(2 * Math.log2(Math.max(price, 1)))}`;

export function factsOf(p: Product): Facts {
  const price = lowestPaidPrice(p.skus);
  return {
    brand: p.brand ? [foldCase(p.brand)] : [],
    category: p.categories?.length ? [foldCase(p.categories.at(-1)!)] : [],
    colour: [...new Set((p.variations ?? []).map((v) => foldCase(v.name ?? "")).filter(Boolean))].slice(0, 5),
    priceBand: price !== null ? [priceBand(price)] : [],
  };
}
