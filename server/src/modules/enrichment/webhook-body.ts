import type { Product } from "../catalog/product-schema.ts";
import { serviceProductId } from "../catalog/search-product.ts";
import { attributeOf, displayNameOf, keyOf, valueOf, type AttributeKey, type VocabularyLocale } from "./vocabulary.ts";
import type { ContentItem } from "./generated-content.ts";

/*
 * The content-generation webhook's body, in the spec's shapes: attributes as a map from attribute key to
 * { displayName, attributesValues: [{ <valueKey>: { displayName, synonyms: [{ <synonymKey>: { displayName } }],
 * trending } }] }, each name per locale of the store (those the vocabulary has).
 */

export type ExtractedAttributes = Partial<Record<AttributeKey, string[]>>;

type Names = Partial<Record<VocabularyLocale, string>>;

export interface WebhookBodyInput {
  storeId: string;
  product: Product;
  productVersion: number;
  attributes: ExtractedAttributes;
  content: ContentItem[];
  locales: readonly VocabularyLocale[];
  trending: (attribute: AttributeKey, value: string) => boolean;
}

const namesIn = (locales: readonly VocabularyLocale[], name: (l: VocabularyLocale) => string): Names =>
  Object.fromEntries(locales.map((l) => [l, name(l)]));

/** Synonyms as single-key objects, one per distinct phrase, with the locales that use it. */
function synonymsOf(attribute: AttributeKey, key: string, locales: readonly VocabularyLocale[]): Record<string, { displayName: Names }>[] {
  const byKey = new Map<string, Names>();
  const value = valueOf(attribute, key);
  for (const locale of locales) {
    for (const phrase of value?.synonyms[locale] ?? []) {
      const k = keyOf(phrase);
      if (!k || k === key) continue;
      byKey.set(k, { ...byKey.get(k), [locale]: phrase });
    }
  }
  return [...byKey].map(([k, displayName]) => ({ [k]: { displayName } }));
}

export function webhookBody(i: WebhookBodyInput): string {
  const attributes: Record<string, unknown> = {};
  for (const [attribute, values] of Object.entries(i.attributes) as [AttributeKey, string[]][]) {
    if (!values.length) continue;
    attributes[attribute] = {
      displayName: namesIn(i.locales, (l) => attributeOf(attribute).displayName[l]),
      attributesValues: values.map((key) => ({
        [key]: {
          displayName: namesIn(i.locales, (l) => displayNameOf(attribute, key, l)),
          synonyms: synonymsOf(attribute, key, i.locales),
          trending: i.trending(attribute, key),
        },
      })),
    };
  }
  return JSON.stringify({
    id: serviceProductId(i.storeId, i.product.id),
    productId: i.product.id,
    category: (i.product.categories ?? []).join(" > "),
    attributes,
    productVersion: i.productVersion,
    generatedContent: i.content,
  });
}
