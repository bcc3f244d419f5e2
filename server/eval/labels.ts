import type { Product } from "../src/modules/catalog/product-schema.ts";

/*
 * The catalog's own labels of a product, the only ground truth the judgments use (never a system's results):
 * article type (the converter's `type:` tag, from styles.csv's articleType or the name for Myntra rows), gender
 * and age group, colour (`color:` tags), brand and usage (`usage:` tags).
 */

export interface Labels {
  /** Article type slug, e.g. "kurtas", "casual-shoes"; undefined when the product has none we can tell. */
  type: string | undefined;
  gender: Product["gender"];
  kids: boolean;
  /** Colour slugs, e.g. "navy-blue". */
  colours: string[];
  brand: string | undefined;
  usages: string[];
}

const tagValues = (p: Product, prefix: string) => (p.tags ?? []).filter((t) => t.startsWith(prefix)).map((t) => t.slice(prefix.length));

/** Lower-cased words joined by single spaces; hyphens and other punctuation separate words. */
export const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .join(" ");

/**
 * `typeByPhrase` maps a type's query phrases (plural and singular, in `words` form) to its slug; it labels the few
 * products without a `type:` tag (Flipkart rows outside fashion) whose category path names one of our types.
 */
export function labelsOf(p: Product, typeByPhrase: ReadonlyMap<string, string>): Labels {
  let type = tagValues(p, "type:")[0];
  if (type === undefined) {
    for (const level of p.categories ?? []) type ??= typeByPhrase.get(words(level));
  }
  return {
    type,
    gender: p.gender,
    kids: p.ageGroup === "Kids",
    colours: tagValues(p, "color:"),
    brand: p.brand?.toLowerCase(),
    usages: tagValues(p, "usage:"),
  };
}
