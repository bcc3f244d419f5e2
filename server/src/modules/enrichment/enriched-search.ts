import type { VariationColours } from "../../db/enrichment-repository.ts";
import { tokenize } from "../../engine/text/normalize.ts";
import { measuredColourKeys } from "./image-stage.ts";
import { ATTRIBUTE_KEYS, VOCABULARY, valueOf, type AttributeKey, type VocabularyLocale } from "./vocabulary.ts";

/*
 * What search gains from a product's enrichment: the names and synonyms of its extracted values in the store's
 * locales become words it is found by ("jumper" finds a sweater whose text never says it, "rot" a red dress in a
 * German shop), and the colours its images show become values of the colour facet where the catalog's variations
 * name none. Only measured colours: a colour the text stage read is in the catalog's own words already.
 *
 * Gender and age group are left out of the words: query understanding already matches them against the catalog's
 * own fields. A multi-word synonym is left out when one of its words alone names another value of the same
 * attribute ("t shirt" holds "shirt", "kurta with palazzos" holds "kurta"): indexed, it would make a T-shirt a shirt.
 */

export interface EnrichedSearch {
  /** Phrases matched like the product's tags. */
  words: string[];
  /** Names (in the store's first locale) of the colours covering a good share of its images, for the colour facet. */
  colours: string[];
}

const UNSEARCHED: ReadonlySet<AttributeKey> = new Set(["gender", "ageGroup"]);

/** Per attribute and value key: the display name and synonyms safe to index (see above), per locale. */
const INDEXABLE = new Map<string, Record<VocabularyLocale, string[]>>();
for (const attribute of VOCABULARY) {
  const wordOwner = new Map<string, string>();
  for (const value of attribute.values) {
    for (const synonyms of Object.values(value.synonyms)) {
      for (const synonym of synonyms) {
        const words = tokenize(synonym);
        if (words.length === 1) wordOwner.set(words[0]!, value.key);
      }
    }
  }
  for (const value of attribute.values) {
    const safe = (synonym: string) => tokenize(synonym).every((w) => (wordOwner.get(w) ?? value.key) === value.key);
    const perLocale = Object.fromEntries(
      Object.entries(value.synonyms).map(([locale, synonyms]) => [locale, [value.displayName[locale as VocabularyLocale], ...synonyms].filter(safe)]),
    );
    INDEXABLE.set(`${attribute.key}\u0000${value.key}`, perLocale as Record<VocabularyLocale, string[]>);
  }
}

/** Bounds what one product adds to its document, whatever a vocabulary grows to. */
const MAX_WORDS = 200;

export function enrichedSearch(
  attributes: Readonly<Record<string, readonly string[]>>,
  colours: readonly VariationColours[] | null,
  locales: readonly VocabularyLocale[],
): EnrichedSearch {
  const words = new Set<string>();
  for (const attribute of ATTRIBUTE_KEYS) {
    if (UNSEARCHED.has(attribute)) continue;
    for (const key of attributes[attribute] ?? []) {
      const value = valueOf(attribute, key);
      if (!value) continue;
      const indexable = INDEXABLE.get(`${attribute}\u0000${key}`)!;
      for (const locale of locales) for (const phrase of indexable[locale]) words.add(phrase);
    }
  }
  const first = locales[0] ?? "en";
  const named = colours ? measuredColourKeys(colours).map((key) => valueOf("colour", key)!.displayName[first]) : [];
  return { words: [...words].slice(0, MAX_WORDS), colours: named };
}
