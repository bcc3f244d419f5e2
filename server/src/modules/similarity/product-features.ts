import type { Oklab } from "culori";
import { tokenize } from "../../text/normalize.ts";
import { lowestPaidPrice } from "../catalog/price-range.ts";
import type { Product } from "../catalog/product-schema.ts";
import { DEFAULT_COLOR_ID } from "../catalog/search-product.ts";
import { productInStock, variationAvailable } from "../catalog/product-stock.ts";
import { colourOf } from "../catalog/colours.ts";

/*
 * What the similar-products model reads of a product: only what the catalog states. Its words (name twice,
 * features, description) become term counts, weighted by rarity when compared (similarity-index.ts). Colour
 * and brand words are left out of them: each is compared as itself, and "navy" in a name must not outweigh
 * the red variant a shopper is looking at, nor a brand name in every title outweigh what the product is.
 */

export interface ProductFeatures {
  id: string;
  gender?: string;
  ageGroup?: string;
  /** Category path prefixes, top first: ["Apparel", "Apparel > Topwear", "Apparel > Topwear > Shirts"]. */
  paths: string[];
  brand: string;
  /** Brand and name without colour words (its variations' names, and known colours): variants of one design sold as separate products share it. */
  line: string;
  /** Per variation: its colour, and whether a size of it can be bought (no stock data: yes). */
  colours: { variationId?: string; colour: Oklab | null; available: boolean }[];
  /** log of the lowest price a shopper pays, or null without prices. */
  logPrice: number | null;
  inStock: boolean;
  /** Words and how often each occurs. */
  terms: Map<string, number>;
}

/** Words of a description counted at most: a long one says more than the name, not hundreds of times more. */
const MAX_DESCRIPTION_WORDS = 200;
/**
 * What one product brings at most, so that a catalog's extreme product (1,000 variations, 500 long features)
 * cannot make each ranking compare thousands of colours or words: its most frequent words, its first colours.
 */
const MAX_TERMS = 120;
const MAX_COLOURS = 24;

/**
 * `measured`: the main colour of each variation's image (variation id, or DEFAULT_COLOR_ID for a product without
 * variations, to a CSS colour), where image analysis ran. A variation's name is the store's own statement and
 * wins; the image's colour stands in where the name is none ("Multi", "Midnight", or no variations at all).
 */
export function productFeatures(p: Product, measured?: ReadonlyMap<string, string>): ProductFeatures {
  const paths: string[] = [];
  for (const category of p.categories ?? []) paths.push(paths.length ? `${paths.at(-1)} > ${category}` : category);
  const terms = new Map<string, number>();
  const brandWords = new Set(tokenize(p.brand ?? ""));
  const count = (words: string[], weight: number) => {
    for (const w of words) if (w.length > 1 && !brandWords.has(w) && !colourOf(w)) terms.set(w, (terms.get(w) ?? 0) + weight);
  };
  const nameWords = tokenize(p.name);
  count(nameWords, 2);
  count(tokenize((p.features ?? []).join("\n")), 1);
  count(tokenize(p.description ?? "").slice(0, MAX_DESCRIPTION_WORDS), 1);
  const brand = (p.brand ?? "").trim().toLowerCase();
  // A variant's name says its colour as the catalog writes it ("Off-White & Black", "Navy & Golden").
  const variationWords = new Set((p.variations ?? []).flatMap((v) => tokenize(v.name ?? "")));
  const price = lowestPaidPrice(p.skus);
  return {
    id: p.id,
    gender: p.gender,
    ageGroup: p.ageGroup,
    paths,
    brand,
    // Joined rather than a template: one flat string, not a rope holding its parts, for each product the model keeps.
    line: [brand, nameWords.filter((w) => !variationWords.has(w) && !colourOf(w)).join(" ")].join("|"),
    colours: p.variations?.length
      ? p.variations.slice(0, MAX_COLOURS).map((v) => ({
          variationId: v.id,
          colour: colourOf(v.name) ?? colourOf(measured?.get(v.id)),
          available: variationAvailable(p, v.id),
        }))
      : measured?.has(DEFAULT_COLOR_ID)
        ? [{ colour: colourOf(measured.get(DEFAULT_COLOR_ID)), available: productInStock(p) }]
        : [],
    logPrice: price === null ? null : Math.log(price),
    inStock: productInStock(p),
    terms: terms.size > MAX_TERMS ? new Map([...terms].sort((a, b) => b[1] - a[1]).slice(0, MAX_TERMS)) : terms,
  };
}
