import { foldCase } from "../../text/normalize.ts";
import { VOCABULARY, type AttributeKey, type VocabularyLocale, type VocabularyValue } from "../enrichment/vocabulary.ts";
import { phraseTokens } from "./query-vocabulary.ts";

/*
 * The attribute vocabulary (enrichment/vocabulary.ts) read backwards, for query understanding: which attribute
 * value a shopper's word or phrase names in their locale ("kleid" is a dress in German, "jumper" a sweater in
 * English). Search consults it only for words the store's own catalog does not use, and only in the shopper's
 * locale and the store's own: a German word finds nothing for an English shopper, and "running", which the
 * catalog says itself, keeps the catalog's meaning rather than becoming every sports product.
 */

export interface LocaleMeaning {
  attribute: AttributeKey;
  value: VocabularyValue;
}

/** Phrases longer than this are not looked up (the vocabulary's longest useful ones have three words). */
const MAX_WORDS = 4;

interface Entry {
  tokens: string[];
  meaning: LocaleMeaning;
}

/** Per locale: the vocabulary's phrases by their first token, longest first. */
const BY_LOCALE = new Map<VocabularyLocale, Map<string, Entry[]>>();

function index(locale: VocabularyLocale): Map<string, Entry[]> {
  let byFirst = BY_LOCALE.get(locale);
  if (byFirst) return byFirst;
  byFirst = new Map();
  for (const attribute of VOCABULARY) {
    for (const value of attribute.values) {
      for (const phrase of [value.displayName[locale], ...value.synonyms[locale]]) {
        const tokens = phraseTokens(phrase);
        if (tokens.length === 0 || tokens.length > MAX_WORDS) continue;
        const list = byFirst.get(tokens[0]!) ?? [];
        // The first attribute to claim a phrase keeps it (colours before article types, as the vocabulary lists them).
        if (list.some((e) => e.tokens.join(" ") === tokens.join(" "))) continue;
        list.push({ tokens, meaning: { attribute: attribute.key, value } });
        list.sort((a, b) => b.tokens.length - a.tokens.length);
        byFirst.set(tokens[0]!, list);
      }
    }
  }
  BY_LOCALE.set(locale, byFirst);
  return byFirst;
}

/** The longest vocabulary phrase of one of `locales` starting at `at` in `tokens`, with how many tokens it takes. */
export function meaningAt(
  locales: readonly VocabularyLocale[],
  tokens: readonly string[],
  at: number,
): { length: number; meaning: LocaleMeaning } | null {
  let best: { length: number; meaning: LocaleMeaning } | null = null;
  for (const locale of locales) {
    for (const entry of index(locale).get(tokens[at]!) ?? []) {
      if (best && entry.tokens.length <= best.length) break;
      if (entry.tokens.every((t, i) => tokens[at + i] === t)) best = { length: entry.tokens.length, meaning: entry.meaning };
    }
  }
  return best;
}

/** The phrases a value is written with in `locale`, display name first: as written (folded) and as query tokens. */
export function phrasesOf(value: VocabularyValue, locale: VocabularyLocale): { written: string; tokens: string[] }[] {
  const out: { written: string; tokens: string[] }[] = [];
  for (const phrase of [value.displayName[locale], ...value.synonyms[locale]]) {
    const tokens = phraseTokens(phrase);
    if (tokens.length > 0 && !out.some((o) => o.tokens.join(" ") === tokens.join(" "))) out.push({ written: foldCase(phrase), tokens });
  }
  return out;
}
