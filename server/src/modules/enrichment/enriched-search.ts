import type { EnrichedSearch } from "../catalog/engine-document.ts";
import type { VariationColours } from "./storage/enrichment-repository.ts";
import { measuredColourKeys } from "./image-stage.ts";
import { valueOf, type VocabularyLocale } from "./vocabulary.ts";

/*
 * What search gains from a product's enrichment: the colours its images show, named in the store's first locale,
 * become values of the colour facet and words it is found by, where the catalog's variations name no colour.
 *
 * Nothing else enrichment reads becomes searchable text. Its values' synonyms in every locale made every product
 * measured blue a match for "jeans" (German "jeansblau") and "denim", and made a query's results grow for the
 * twenty minutes enrichment takes after a first start. The words of the shopper's own locale are read at query
 * time instead (search/locale-words.ts), so a German shopper's "rot" still finds red, and an English shopper's
 * "jeans" finds jeans. Attributes the text stage reads are in the product's own text already.
 */

export function enrichedSearch(colours: readonly VariationColours[] | null, locales: readonly VocabularyLocale[]): EnrichedSearch {
  const first = locales[0] ?? "en";
  return { colours: colours ? measuredColourKeys(colours).map((key) => valueOf("colour", key)!.displayName[first]) : [] };
}
