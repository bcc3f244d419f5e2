import { boundedMemo } from "../../bounded-memo.ts";
import { foldCase, foldPlural } from "../../engine/text/normalize.ts";

/*
 * What kind of product a catalog says a product is, learned from its own category path rather than from any list
 * of types: the head noun of the deepest category ("Casual Shoes" -> shoe, "Wrist Watches" -> watch, "T-Shirts"
 * -> tshirt). Parts joined by "&", "and" or a comma each name a type ("Kurtas & Kurtis" -> kurta, kurti). Folded
 * as search tokens are, so a query word is compared with them directly. Search uses them to tell a query's
 * product type ("mens shirts") from a word that merely appears in a product's text (a "T-shirt" is not a shirt).
 */

const PARTS = /\s*(?:&|\+|,|\/|\band\b)\s*/iu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** The last word of a category name as a token; hyphenated words stay one ("T-Shirts" -> tshirt). */
function head(part: string): string | null {
  const last = foldCase(part).trim().split(/\s+/).at(-1)?.replace(NOT_WORD, "");
  return last ? foldPlural(last) : null;
}

/** Types by category leaf, kept: a catalog has a few hundred leaves, and this runs for every product indexed. */
const typesOfLeaf = boundedMemo(10_000, (leaf): readonly string[] => {
  const out = new Set<string>();
  for (const part of leaf.split(PARTS)) {
    const h = head(part);
    if (h && !/^\d+$/.test(h)) out.add(h);
  }
  return [...out];
});

export function productTypes(categories: readonly string[] | undefined): readonly string[] {
  const leaf = categories?.at(-1);
  return leaf ? typesOfLeaf(leaf) : [];
}
