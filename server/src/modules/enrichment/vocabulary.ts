import {
  ATTRIBUTE_KEYS,
  VOCABULARY_LOCALES,
  type AttributeKey,
  type VocabularyAttribute,
  type VocabularyLocale,
  type VocabularyValue,
} from "./vocabulary/define.ts";
import { ARTICLE_TYPE } from "./vocabulary/article-type.ts";
import { AGE_GROUP, GENDER } from "./vocabulary/audience.ts";
import { COLOUR } from "./vocabulary/colour.ts";
import { CLOSURE, FIT, HEEL_TYPE, LENGTH, NECKLINE, RISE, SLEEVE } from "./vocabulary/garment-details.ts";
import { MATERIAL } from "./vocabulary/material.ts";
import { OCCASION, SEASON } from "./vocabulary/occasion-season.ts";
import { PATTERN } from "./vocabulary/pattern.ts";

/*
 * The attribute vocabulary: what the enrichment stages may say about a product, as typed data in the repository,
 * so every value a store receives has a stable key and a shopper-facing name in each supported locale. The text
 * stage matches catalog text against the synonyms; image analysis names colours by the colour values' hex; content
 * generation and webhooks send the keys and display names. Extending it means editing the data files under
 * vocabulary/ (one per attribute group); server/test/text-attributes.test.ts checks every rule stated below.
 */

export { ATTRIBUTE_KEYS, VOCABULARY_LOCALES, type AttributeKey, type VocabularyAttribute, type VocabularyLocale, type VocabularyValue };

/** The store's locales (its `locales` setting) the vocabulary has names for, in the store's order; English when none. */
export function vocabularyLocales(storeLocales: readonly string[]): VocabularyLocale[] {
  const served = storeLocales.filter((l): l is VocabularyLocale => (VOCABULARY_LOCALES as readonly string[]).includes(l));
  return served.length ? served : ["en"];
}

export const VOCABULARY: readonly VocabularyAttribute[] = [
  COLOUR,
  PATTERN,
  MATERIAL,
  SLEEVE,
  NECKLINE,
  FIT,
  LENGTH,
  RISE,
  CLOSURE,
  HEEL_TYPE,
  OCCASION,
  SEASON,
  GENDER,
  AGE_GROUP,
  ARTICLE_TYPE,
];

const BY_KEY = new Map(VOCABULARY.map((a) => [a.key, a]));
const VALUES = new Map(VOCABULARY.map((a) => [a.key, new Map(a.values.map((v) => [v.key, v]))]));

export function attributeOf(key: AttributeKey): VocabularyAttribute {
  return BY_KEY.get(key)!;
}

/** A value of an attribute by key; undefined for a key the vocabulary does not know (an unknown article type). */
export function valueOf(attribute: AttributeKey, key: string): VocabularyValue | undefined {
  return VALUES.get(attribute)?.get(key);
}

/**
 * What to show for an extracted value. The text stage may return an article type the vocabulary does not list,
 * keyed by the catalog's own category word ("car-sun-shades"); it has no translations, so every locale shows that
 * word, re-capitalised ("Car sun shades"). Callers that keep the product can show its category leaf instead.
 */
export function displayNameOf(attribute: AttributeKey, key: string, locale: VocabularyLocale): string {
  const value = valueOf(attribute, key);
  if (value) return value.displayName[locale];
  const words = key.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The canonical form of a key: what the catalog's own word for an unknown article type becomes. */
export function keyOf(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
