import { foldCase } from "../../text/normalize.ts";
import { attributeOf, VOCABULARY_LOCALES, type AttributeKey, type VocabularyAttribute } from "./vocabulary.ts";

/*
 * Finds an attribute's vocabulary phrases in text as whole words: "black" in "Black Shirt", never in "blackberry";
 * "silk" never in "shirtsilk". Text and phrases are folded alike (case, accents, ß), so "Ärmellos", "armellos" and
 * "ÄRMELLOS" meet. At each word the longest phrase wins, and a phrase claims its words: "rose gold" is one colour,
 * not pink and gold; "faux leather" is not leather. Blockers are phrases that claim their words and name nothing.
 */

const MARKED = /[ßæœø]/;

/** The words of a text as the vocabulary compares them. */
export function vocabularyWords(text: string): string[] {
  let folded = foldCase(text);
  if (MARKED.test(folded)) folded = folded.replace(/ß/g, "ss").replace(/æ/g, "ae").replace(/œ/g, "oe").replace(/ø/g, "o");
  return folded.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== "");
}

/** A run of words the matcher read as one phrase; `value` is null for a blocker. */
export interface PhraseMatch {
  value: string | null;
  at: number;
  length: number;
}

interface Phrase {
  words: string[];
  value: string | null;
  source: string;
}

export class PhraseMatcher {
  private readonly byFirst = new Map<string, Phrase[]>();

  /**
   * Adds a phrase; a hyphenated or elided one also in its joined form ("t-shirt" as "tshirt"). A phrase that
   * already names another value is a vocabulary error: which value the text means would be a guess.
   */
  add(phrase: string, value: string | null, source: string): void {
    const forms = [vocabularyWords(phrase)];
    if (/[-'’]/.test(phrase)) forms.push(vocabularyWords(phrase.replace(/[-'’]/g, "")));
    for (const words of forms) {
      if (words.length === 0) continue;
      const list = this.byFirst.get(words[0]!) ?? [];
      const same = list.find((p) => p.words.length === words.length && p.words.every((w, i) => w === words[i]));
      if (same) {
        if (same.value !== value)
          throw new Error(`vocabulary: "${phrase}" (${source}) also names ${same.value ?? "a blocker"} (${same.source})`);
        continue;
      }
      list.push({ words, value, source });
      list.sort((a, b) => b.words.length - a.words.length);
      this.byFirst.set(words[0]!, list);
    }
  }

  /** Every phrase in `words`, left to right, longest first at each word; blockers included (value null). */
  scan(words: readonly string[]): PhraseMatch[] {
    const out: PhraseMatch[] = [];
    for (let at = 0; at < words.length; ) {
      const hit = this.byFirst.get(words[at]!)?.find((p) => p.words.every((w, i) => words[at + i] === w));
      if (hit) {
        out.push({ value: hit.value, at, length: hit.words.length });
        at += hit.words.length;
      } else at++;
    }
    return out;
  }

  /** The values named in `words`, in order of first mention, each once. */
  values(words: readonly string[]): string[] {
    const out: string[] = [];
    for (const m of this.scan(words)) if (m.value !== null && !out.includes(m.value)) out.push(m.value);
    return out;
  }
}

export interface AttributeMatchers {
  /** For free text: English display names, every locale's synonyms, blockers. */
  text: PhraseMatcher;
  /** For a field that states the attribute (a tag, a "Fabric:" line): also the keys and every locale's display name. */
  field: PhraseMatcher;
  /** The attribute's field names as word lists ("Upper Material" -> ["upper", "material"]). */
  fieldNames: string[][];
}

/** Builds the matchers of one attribute; throws when its vocabulary names one phrase twice. */
export function buildMatchers(attribute: VocabularyAttribute): AttributeMatchers {
  const text = new PhraseMatcher();
  const field = new PhraseMatcher();
  const both = (phrase: string, value: string | null, source: string) => {
    text.add(phrase, value, source);
    field.add(phrase, value, source);
  };
  for (const blocker of attribute.blockers ?? []) both(blocker, null, "blocker");
  for (const v of attribute.values) {
    both(v.displayName.en, v.key, `${v.key} en display name`);
    for (const locale of VOCABULARY_LOCALES) for (const s of v.synonyms[locale]) both(s, v.key, `${v.key} ${locale} synonym`);
  }
  // Field values are short and say what they are, so keys and foreign display names are safe there only.
  for (const v of attribute.values) {
    field.add(v.key.replace(/-/g, " "), v.key, `${v.key} key`);
    for (const locale of VOCABULARY_LOCALES) field.add(v.displayName[locale], v.key, `${v.key} ${locale} display name`);
  }
  return { text, field, fieldNames: attribute.fieldNames.map(vocabularyWords) };
}

const built = new Map<AttributeKey, AttributeMatchers>();

/** The matchers of an attribute, built on first use. */
export function matchersOf(key: AttributeKey): AttributeMatchers {
  let m = built.get(key);
  if (!m) built.set(key, (m = buildMatchers(attributeOf(key))));
  return m;
}
