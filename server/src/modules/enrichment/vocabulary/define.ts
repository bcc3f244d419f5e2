import type { VocabularyLocale, VocabularyValue } from "../vocabulary.ts";

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
