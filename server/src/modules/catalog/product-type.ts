import { boundedMemo } from "../../lib/bounded-memo.ts";
import { foldCase, foldPlural } from "../../text/normalize.ts";

/*
 * What kind of product a catalog says a product is, learned from its own category path rather than from any list
 * of types. Each part of a category name (parts joined by "&", "and", a comma or a slash each name a type:
 * "Kurtas & Kurtis") gives its head noun ("Casual Shoes" -> shoe, "T-Shirts" -> tshirt) and, when it has more
 * than one word, the whole name as a phrase ("casual shoe"), folded as search tokens are so a query's words
 * compare with them directly. The deepest category gives the product's own types; the levels above it give
 * ANCESTOR_MARK-ed types, which query understanding counts only for words that are some leaf's type as well: a
 * handbag is a bag ("Bags > Handbags"), heels are shoes ("Shoes > Heels"), but "Western Wear" makes nothing a "wear".
 * Search uses them to tell a query's product type ("mens shirts") from a word that merely appears in a product's
 * text (a "T-shirt" is not a shirt; "Pepe Jeans" is a brand, not jeans).
 */

/** Prefix of the types a product has through a category above its own. */
export const ANCESTOR_MARK = "^";

const PARTS = /\s*(?:&|\+|,|\/|\band\b)\s*/iu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/** A category part's words as tokens; hyphenated words stay one ("T-Shirts" -> tshirt). */
function words(part: string): string[] {
  return foldCase(part)
    .trim()
    .split(/\s+/)
    .map((w) => foldPlural(w.replace(NOT_WORD, "")))
    .filter((w) => w && !/^\d+$/.test(w));
}

/** The types a category name gives: each part's head noun, and its whole name when it has more words. */
const typesOfName = boundedMemo(10_000, (name): readonly string[] => {
  const out = new Set<string>();
  for (const part of name.split(PARTS)) {
    const w = words(part);
    const head = w.at(-1);
    if (!head) continue;
    out.add(head);
    // Phrases of up to four words: longer category names are descriptions, never typed as a query's type.
    if (w.length > 1 && w.length <= 4) out.add(w.join(" "));
  }
  return [...out];
});

/** A product's types (its deepest category's) and, marked, those of the categories above it. */
export function productTypes(categories: readonly string[] | undefined): readonly string[] {
  if (!categories?.length) return [];
  const own = typesOfName(categories.at(-1)!);
  if (categories.length === 1) return own;
  const out = new Set(own);
  // A category above that names several kinds ("Shirts Tops & Tunics", "Dresses & Skirts") files each product
  // under one of them, not under all: only one that names one kind ("Bags", "Shoes") gives its type.
  for (const name of categories.slice(0, -1))
    if (name.split(PARTS).length === 1) for (const type of typesOfName(name)) if (!out.has(type)) out.add(ANCESTOR_MARK + type);
  return [...out];
}
