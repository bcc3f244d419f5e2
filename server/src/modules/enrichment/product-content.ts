import type { Product } from "../catalog/product-schema.ts";
import { generateContent, type ContentItem, type ContentParts } from "./generated-content.ts";
import { displayNameOf, type AttributeKey, type VocabularyLocale } from "./vocabulary.ts";
import type { ExtractedAttributes } from "./webhook-body.ts";

/** Attributes a description lists, in this order. */
const FEATURES: readonly AttributeKey[] = ["pattern", "material", "sleeve", "neckline", "fit", "length", "rise", "closure", "heelType"];

/**
 * A product's generated title and description in the store's locales: the extracted attributes' names in each
 * locale, the product's brand, and for the noun its article type (else the catalog's own leaf category, else its
 * name): only what the data says.
 */
export function productContent(product: Product, attributes: ExtractedAttributes, locales: readonly string[]): ContentItem[] {
  const first = (a: AttributeKey, locale: VocabularyLocale) => {
    const key = attributes[a]?.[0];
    return key ? displayNameOf(a, key, locale) : null;
  };
  return generateContent(
    locales,
    (locale): ContentParts => ({
      article: first("articleType", locale) ?? product.categories?.at(-1) ?? product.name,
      brand: product.brand ?? null,
      colour: first("colour", locale),
      material: first("material", locale),
      features: FEATURES.flatMap((a) => (attributes[a] ?? []).slice(0, 2).map((key) => displayNameOf(a, key, locale))),
      occasion: first("occasion", locale),
      season: first("season", locale),
    }),
  );
}
