/* The vocabulary's shapes (vocabulary.ts holds the data and its lookups). */

export const VOCABULARY_LOCALES = ["en", "de", "fr", "es"] as const;
export type VocabularyLocale = (typeof VOCABULARY_LOCALES)[number];

export const ATTRIBUTE_KEYS = [
  "colour",
  "pattern",
  "material",
  "sleeve",
  "neckline",
  "fit",
  "length",
  "rise",
  "closure",
  "heelType",
  "occasion",
  "season",
  "gender",
  "ageGroup",
  "articleType",
] as const;
export type AttributeKey = (typeof ATTRIBUTE_KEYS)[number];

export interface VocabularyValue {
  /** Stable identifier sent to stores: lower-case ASCII words joined by hyphens ("round-neck"). */
  key: string;
  /** What shoppers see, per locale. */
  displayName: Record<VocabularyLocale, string>;
  /**
   * Words and phrases shoppers and catalogs use for the value, per locale ("crew neck", "Rundhals"). Matched as
   * whole words in any text, whatever the text's language, so a word that means something else in common catalog
   * text (French "été" is also "been") is left out or only listed inside a longer phrase ("d'été").
   */
  synonyms: Record<VocabularyLocale, string[]>;
  /** Colour values only: a representative colour, so an image colour is named by the nearest one (OKLab). */
  hex?: string;
}

export interface VocabularyAttribute {
  key: AttributeKey;
  displayName: Record<VocabularyLocale, string>;
  values: VocabularyValue[];
  /**
   * Names under which catalogs state the attribute as a field: tag prefixes ("color:red"), customUserData keys and
   * specification lines ("Fabric: Cotton"). A value found there is the catalog's own statement and wins over text.
   */
  fieldNames: string[];
  /**
   * Phrases in which a value's word means something else ("olive oil", "solid wood", "rouge à lèvres"): matched
   * like synonyms, they claim their words so the shorter synonym inside them is not read.
   */
  blockers?: string[];
}

/*
 * Compact authoring of the vocabulary data: display names in locale order (en, de, fr, es) and synonyms as "a|b|c"
 * strings, so a value reads on a few lines. A locale with no synonyms still gets its (empty) list, so every value
 * has an entry per locale.
 */

export function value(
  key: string,
  displayName: readonly [en: string, de: string, fr: string, es: string],
  synonyms: Partial<Record<VocabularyLocale, string>>,
  hex?: string,
): VocabularyValue {
  const [en, de, fr, es] = displayName;
  const out: VocabularyValue = {
    key,
    displayName: { en, de, fr, es },
    synonyms: { en: split(synonyms.en), de: split(synonyms.de), fr: split(synonyms.fr), es: split(synonyms.es) },
  };
  if (hex !== undefined) out.hex = hex;
  return out;
}

export function names(en: string, de: string, fr: string, es: string): Record<VocabularyLocale, string> {
  return { en, de, fr, es };
}

/** "a|b|c" as a list; a phrase list of blockers is written the same way. */
export function split(list: string | undefined): string[] {
  return list
    ? list
        .split("|")
        .map((w) => w.trim())
        .filter(Boolean)
    : [];
}
