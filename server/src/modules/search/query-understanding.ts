import { foldCase, foldPlural, queryWords, type QueryWord } from "../../text/normalize.ts";
import { muchMoreCommon } from "../../text/typo-vocabulary.ts";
import { MAX_PREFER_FILTERS, type EngineFilter, type EngineSort, type TextAlternative, type WordCorrection } from "../../engine/types.ts";
import type { VocabularyLocale } from "../enrichment/vocabulary.ts";
import { meaningAt, phrasesOf, type LocaleMeaning } from "./locale-words.ts";
import { readPricePhrases, type PriceBound, type PricePhrase } from "./price-phrases.ts";
import { phraseTokens, VOCABULARY_KEYS, type QueryVocabulary } from "./query-vocabulary.ts";
import { chooseCorrection } from "./spelling.ts";
import { ANCESTOR_MARK } from "../catalog/product-type.ts";

/*
 * A shopper's query read with the store's vocabulary (query-vocabulary.ts): which words name the product type,
 * a gender or age, a colour, a brand, a usage or a price, and what each asks of the result.
 * - A product type decides what the result holds: "jeans" finds jeans (products whose category says so, not every
 *   product whose text mentions jeans), "mens shirts" shirts and no T-shirts. Only the last type word is the type
 *   ("shirt dress" is a dress, "jeans jacket" a jacket); the others stay plain words. A type of several words
 *   ("casual shoes", "track pants", "kurta sets") is read as one when the catalog has it as a category.
 * - A gender or age word narrows to that gender (and unisex) and is not matched as text: catalogs say "Men" in
 *   a field, rarely "men's" in a name. "men"/"women" prefer adults' products; "boys"/"girls"/"kids" narrow to kids.
 *   The answer shows the narrowing as a selected facet (implied), which the shopper can take back.
 * - A price phrase ("under 1000", "between 500 and 1000", "cheap") narrows by price (price-phrases.ts).
 * - A colour, brand or usage ranks products that have it first, and still has to match as text. "for" before a
 *   gender or usage ("dress for party", "watches for men") only joins the words.
 * - A word the catalog does not use is read, in order, as a word of the shopper's locale that the attribute
 *   vocabulary knows ("kleid" is a dress for a German shopper; locale-words.ts), or as its spelling correction
 *   (spelling.ts), which then reads as any other word. Words a store synonym covers are neither: the synonym wins.
 * - Everything else is matched as text.
 * When nothing matches, the fallback drops the least informative terms first (dropOrder).
 */

export type Role = "type" | "gender" | "colour" | "brand" | "usage" | "price" | "word";

export interface QueryTerm {
  /** The words as typed (folded), space-separated. */
  typed: string;
  /** The words searched for them: the typed ones, their spelling correction, or their meaning in the store's words. */
  text: string;
  role: Role;
  /** For a word naming a product type: the type (a productType value). */
  type?: string;
  /** Filters that narrow the result. */
  filters: EngineFilter[];
  /** Filters that rank first without narrowing (the type's before all others'). */
  prefer: EngineFilter[];
  /** Whether `text` must match as text. */
  matched: boolean;
  /** Unknown to the index and without a look-alike: the first a fallback drops. */
  unknown: boolean;
  /** `text` is the spelling correction of `typed`. */
  corrected: boolean;
  /** Other wordings of `text` that match too (the store's words for a word of the shopper's locale). */
  alternatives: string[][];
  /** A facet selection the words make, which the answer shows as selected (gender, age group, price). */
  implied?: { key: string; values: string[] };
  /** "cheap": the price band is worked out from what the other terms find (understood-query.ts). */
  cheap?: boolean;
  /** A word the catalog has, read as its vocabulary meaning because as itself it found nothing with the rest. */
  reread?: boolean;
}

export interface UnderstandingContext {
  vocabulary: QueryVocabulary;
  /** The engine's spelling report for the query's words; null when time ran short (nothing is corrected). */
  corrections: readonly WordCorrection[] | null;
  /** Locales whose vocabulary words the shopper may type: their language and the store's own. */
  locales: readonly VocabularyLocale[];
  /** Tokens of the words a store synonym set covers: searched as typed, never corrected. */
  synonymTokens?: ReadonlySet<string>;
  /** False: no spelling correction is applied ("search instead for jeens"). */
  autocorrect?: boolean;
  /** How often shoppers searched a word and found products: spelling prefers the words they use. */
  shopperUses?: (word: string) => number;
  /**
   * Tokens of known words to read as their vocabulary meaning all the same: the fallback's first try when the words
   * as the catalog has them find nothing together ("nike running shoes": the store's Nike shoes say "sports").
   */
  byMeaning?: ReadonlySet<string>;
}

type Gender = "Men" | "Women";
/** Words for the catalog schema's gender and ageGroup values (a language's words, not a catalog's). */
const PEOPLE = new Map<string, { gender?: Gender; kids?: true }>([
  ...["men", "mens", "man", "gents", "gent", "male", "males", "gentlemen"].map((w) => [w, { gender: "Men" as const }] as const),
  ...["women", "womens", "woman", "ladies", "lady", "female", "females"].map((w) => [w, { gender: "Women" as const }] as const),
  ...["boy", "boys"].map((w) => [w, { gender: "Men" as const, kids: true as const }] as const),
  ...["girl", "girls"].map((w) => [w, { gender: "Women" as const, kids: true as const }] as const),
  ...["kid", "kids", "child", "children", "baby", "babies"].map((w) => [w, { kids: true as const }] as const),
]);
/** The people of the audience vocabulary's values, for a shopper's own language ("damen", "herren"). */
const PEOPLE_OF_VALUE: Record<string, { gender?: Gender; kids?: true }> = {
  men: { gender: "Men" },
  women: { gender: "Women" },
  kids: { kids: true },
};
const UNISEX = "Unisex";
const KIDS = "Kids";
const ADULTS = "Adults";

/** Words that only join a gender, usage or price to the rest ("dress for party", "watches for men"). */
const JOINERS = new Set(["for", "in"]);
/** Articles: never what a product is found by ("dress for a party", "the north face" as a brand still reads whole). */
const ARTICLES = new Set(["a", "an", "the"]);
/** Words a usage may carry after it ("party wear", "office wear"): part of it, not matched on their own. */
const USAGE_TAILS = new Set(["wear", "wears", "outfit", "outfits", "look", "occasion", "occasions"]);

/**
 * A word counts as a product type only when at least this share of the products holding the word are of that
 * type: "shorts" (202 of 1,511 products saying "short", most of them "short sleeve") counts; "cotton", the type
 * of one odd category, would not.
 */
const MIN_TYPE_SHARE = 0.05;
/**
 * A type of several words narrows the result when it holds at least this share of its head word's type: "casual
 * shoes" (a third of the shoes) are that category, but "formal shirts" (a few products filed so among thousands of
 * shirts) are shirts that say formal, the few filed so first.
 */
const PHRASE_SHARE = 0.2;

/** Price fields: a product is within a price when its lowest price is (as the price facet counts it). */
const PRICE_FIELD = "price_min";
/** Added to an inclusive upper bound, as filters are half-open: a cent, which single-precision prices still hold. */
const INCLUSIVE = 0.01;

const possessive = (typed: string) => typed.replace(/['’]s?$/, "").replace(/\W+$/, "");

const term = (typed: string, role: Role, extra: Partial<QueryTerm> = {}): QueryTerm => ({
  typed,
  text: typed,
  role,
  filters: [],
  prefer: [],
  matched: true,
  unknown: false,
  corrected: false,
  alternatives: [],
  ...extra,
});

/** The filter of a type: products filed as it, and for a group, those filed under a category of its name. */
const typeFilter = (type: string, v: QueryVocabulary): EngineFilter => ({
  kind: "terms",
  key: VOCABULARY_KEYS.type,
  values: v.groups.has(type) ? [type, ANCESTOR_MARK + type] : [type],
});

function peopleTerm(typed: string, person: { gender?: Gender; kids?: true } | undefined, v: QueryVocabulary): QueryTerm | null {
  if (!person) return null;
  const filters: EngineFilter[] = [];
  const prefer: EngineFilter[] = [];
  let implied: QueryTerm["implied"];
  if (person.gender) {
    if (!v.genders.has(person.gender)) return null;
    const values = v.genders.has(UNISEX) ? [person.gender, UNISEX] : [person.gender];
    filters.push({ kind: "terms", key: VOCABULARY_KEYS.gender, values });
    implied = { key: VOCABULARY_KEYS.gender, values };
  }
  if (person.kids) {
    if (!v.ageGroups.has(KIDS)) return null;
    filters.push({ kind: "terms", key: VOCABULARY_KEYS.ageGroup, values: [KIDS] });
    implied ??= { key: VOCABULARY_KEYS.ageGroup, values: [KIDS] };
  } else if (v.ageGroups.has(ADULTS)) {
    prefer.push({ kind: "terms", key: VOCABULARY_KEYS.ageGroup, values: [ADULTS] });
  }
  return term(typed, "gender", { filters, prefer, matched: false, ...(implied ? { implied } : {}) });
}

function personOf(typed: string) {
  const word = possessive(typed);
  return PEOPLE.get(word) ?? PEOPLE.get(word.replace(/\W/g, ""));
}

function priceTerm(phrase: PricePhrase): QueryTerm {
  if (!phrase.bound) return term(phrase.text, "price", { matched: false, cheap: true });
  return withPriceBound(term(phrase.text, "price", { matched: false }), phrase.bound);
}

/** A price term narrowed to `bound`, shown as the price facet's range "lb-ub" (either side may be open). */
export function withPriceBound(t: QueryTerm, bound: PriceBound): QueryTerm {
  const filter: EngineFilter = { kind: "range", field: PRICE_FIELD };
  if (bound.min !== undefined) filter.min = bound.min;
  if (bound.max !== undefined) filter.max = bound.max + INCLUSIVE;
  return { ...t, filters: [filter], implied: { key: "price", values: [`${bound.min ?? ""}-${bound.max ?? ""}`] } };
}

/** A word of the query as read before its role is decided: corrected, or standing for a locale word's meaning. */
interface ReadWord {
  word: QueryWord;
  /** As typed, when `word` is its correction. */
  typed?: string;
  /** A phrase of the shopper's locale starting here: how many words it takes and what it means. */
  meaning?: { length: number; meaning: LocaleMeaning };
  unknown: boolean;
  /** The meaning stands for words the catalog has (UnderstandingContext.byMeaning). */
  reread?: boolean;
}

/**
 * Each word with what the catalog does not know about it settled: a phrase of the shopper's locale whose words
 * the catalog does not use stands for its meaning; any other unknown word is replaced by its best correction.
 */
function readWords(words: readonly QueryWord[], ctx: UnderstandingContext): ReadWord[] {
  const correctionOf = new Map((ctx.corrections ?? []).map((c) => [c.word, c]));
  const tokens = words.map((w) => w.token);
  const unknownAt = (i: number) => {
    const c = correctionOf.get(words[i]!.typed);
    return c !== undefined && (!c.known || strayWord(c)) && !ctx.synonymTokens?.has(words[i]!.token);
  };
  const out: ReadWord[] = [];
  /** The phrase at `i` read as its meaning, its later words carried along; where the phrase ends. */
  const readMeaning = (i: number, meaning: NonNullable<ReadWord["meaning"]>, reread: boolean) => {
    out.push({ word: words[i]!, meaning, unknown: false, ...(reread ? { reread } : {}) });
    for (let k = 1; k < meaning.length; k++) out.push({ word: words[i + k]!, unknown: false });
    return i + meaning.length - 1;
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const reread = ctx.byMeaning?.has(word.token) ? meaningAt(ctx.locales, tokens, i) : null;
    if (reread) {
      i = readMeaning(i, reread, true);
      continue;
    }
    if (!unknownAt(i)) {
      const stray =
        ctx.autocorrect === false ? undefined : strayBeforeType(word, correctionOf.get(word.typed), tokens.slice(i + 1), ctx.vocabulary);
      const [corrected] = stray ? queryWords(stray) : [];
      out.push(corrected ? { word: corrected, typed: word.typed, unknown: false } : { word, unknown: false });
      continue;
    }
    const meaning = meaningAt(ctx.locales, tokens, i);
    if (meaning && Array.from({ length: meaning.length }, (_, k) => i + k).every(unknownAt)) {
      i = readMeaning(i, meaning, false);
      continue;
    }
    const correction = correctionOf.get(word.typed)!;
    // The last word may be one the shopper has not finished ("sneak"): it completes instead (understood-query.ts).
    if (i === words.length - 1 && completesRather(correction)) {
      out.push({ word, unknown: false });
      continue;
    }
    // A look-alike that names a type with the word before or after it ("flip fops": flops) is likelier.
    const inPhrase = (token: string) =>
      !!(i > 0 && ctx.vocabulary.typePhrases.longestAt([tokens[i - 1]!, token], 0)?.length === 2) ||
      !!ctx.vocabulary.typePhrases.longestAt([token, ...tokens.slice(i + 1, i + 2)], 0);
    const chosen =
      ctx.autocorrect === false ? undefined : chooseCorrection(word.typed, correction, ctx.vocabulary, ctx.shopperUses, inPhrase);
    if (chosen) {
      const [corrected] = queryWords(chosen);
      if (corrected) {
        out.push({ word: corrected, typed: word.typed, unknown: false });
        continue;
      }
    }
    out.push({ word, unknown: correction.candidates.length === 0 });
  }
  return out;
}

/**
 * Whether an unknown last word is rather the start of a longer word than a misspelling: its most common completion
 * is more than COMPLETION_ODDS times as common as its most common look-alike one edit away ("sneak": sneakers; but
 * "dres" is dress, not also DressBerry; "jea", too short for a look-alike, completes).
 */
export function completesRather(correction: WordCorrection): boolean {
  if (!correction.completion) return false;
  const close = Math.max(0, ...correction.candidates.filter((c) => (c.distance ?? 1) <= 1).map((c) => c.docs));
  return correction.completion.docs > COMPLETION_ODDS * close;
}
const COMPLETION_ODDS = 2;

/**
 * A word a single product has (often a typo of the catalog's own) while a look-alike is far more common: read as
 * misspelt ("shors" is shorts; the one product saying "shors" is still one "search instead" away).
 */
const strayWord = (c: WordCorrection) => c.docs === 1 && c.candidates.some((k) => muchMoreCommon(k.docs, 1));

/**
 * A word the catalog has in a few products that, as a far more common look-alike, names a type with the words
 * after it: "spots shoes" (spots: a polka-dot print of a few products) is "sports shoes", a category of thousands.
 */
function strayBeforeType(
  word: QueryWord,
  report: WordCorrection | undefined,
  after: readonly string[],
  v: QueryVocabulary,
): string | undefined {
  if (!report?.known || after.length === 0) return undefined;
  for (const c of report.candidates) {
    if (!muchMoreCommon(c.docs, report.docs)) continue;
    const token = foldPlural(foldCase(c.word));
    if (token !== word.token && v.typePhrases.longestAt([token, ...after], 0)) return c.word;
  }
  return undefined;
}

/** The term a locale word's meaning gives, in the store's own words; null when the store has nothing of it. */
function meaningTerm(typed: string, { attribute, value }: LocaleMeaning, v: QueryVocabulary): QueryTerm | null {
  const phrases = phrasesOf(value, "en");
  if (attribute === "articleType") {
    const found = phrases.find((p) => v.types.has(p.tokens.join(" ")));
    if (found) return term(typed, "type", { type: found.tokens.join(" "), text: found.written });
  }
  if (attribute === "colour") {
    const values = v.colours.valuesWith(phrases[0]!.tokens);
    if (values.length)
      return term(typed, "colour", { text: phrases[0]!.written, prefer: [{ kind: "terms", key: VOCABULARY_KEYS.colour, values }] });
  }
  if (attribute === "occasion") {
    const usage = v.usages.get(value.key);
    if (usage) return term(typed, "usage", { text: value.key, prefer: [{ kind: "terms", key: VOCABULARY_KEYS.usage, values: [usage] }] });
  }
  if (attribute === "gender" || attribute === "ageGroup") return peopleTerm(typed, PEOPLE_OF_VALUE[value.key], v);
  // Any other attribute matches the words the store's own locale has for the value.
  return term(typed, "word", { text: phrases[0]!.written, alternatives: phrases.slice(1, 8).map((p) => p.tokens) });
}

export function interpretQuery(query: string, ctx: UnderstandingContext): QueryTerm[] {
  const v = ctx.vocabulary;
  const { rest, phrases } = readPricePhrases(query);
  const read = readWords(queryWords(rest), ctx);
  const tokens = read.map((r) => r.word.token);
  const docsOf = new Map((ctx.corrections ?? []).map((c) => [foldCase(c.word), c.docs]));
  const isType = (token: string, typed: string) => {
    const typedCount = v.types.get(token);
    const docs = docsOf.get(typed);
    return typedCount !== undefined && (docs === undefined || typedCount >= MIN_TYPE_SHARE * docs);
  };
  const terms: QueryTerm[] = [];
  const typeCandidates: number[] = [];
  /** Where narrow type phrases end (the head word's index), with the phrase. */
  const narrowPhrases = new Map<number, string>();
  let joiner = "";
  const push = (t: QueryTerm) => {
    if (joiner) t.typed = `${joiner} ${t.typed}`;
    joiner = "";
    terms.push(t);
  };
  /** The words from `from` as typed, and as searched (corrected). */
  const typedOf = (from: number, length: number) =>
    read
      .slice(from, from + length)
      .map((r) => r.typed ?? r.word.typed)
      .join(" ");
  const textOf = (from: number, length: number) =>
    read
      .slice(from, from + length)
      .map((r) => r.word.typed)
      .join(" ");
  /** A term of several words is corrected when any of its words is. */
  const correctedIn = (from: number, length: number) =>
    read.slice(from, from + length).some((r) => r.typed !== undefined) ? { corrected: true } : {};
  for (let i = 0; i < read.length; i++) {
    const { word: w, typed: misspelt, meaning, reread } = read[i]!;
    const corrected = correctedIn(i, 1);
    if (meaning) {
      const t = meaningTerm(typedOf(i, meaning.length), meaning.meaning, v);
      i += meaning.length - 1;
      if (t) {
        if (reread) t.reread = true;
        if (t.role === "type") typeCandidates.push(terms.length);
        push(t);
        continue;
      }
    }
    const people = peopleTerm(misspelt ?? w.typed, personOf(w.typed), v);
    if (people) {
      push(people);
      continue;
    }
    // "dress for a party": an article between words joins nothing (unless it starts a brand, "the north face").
    if (ARTICLES.has(w.token) && read.length > 1 && !v.brands.longestAt(tokens, i)) {
      if (joiner) joiner = `${joiner} ${w.typed}`;
      continue;
    }
    const next = read[i + 1]?.word;
    // "for men", "for party", "in red": the joiner goes with the next term (its chip reads "for men").
    const joined = read.slice(i + 1).find((r) => !ARTICLES.has(r.word.token))?.word;
    if (
      JOINERS.has(w.token) &&
      !joiner &&
      ((!joined && terms.length > 0) ||
        (joined && (personOf(joined.typed) || v.usages.has(joined.token) || v.colours.valuesWith([joined.token]).length)))
    ) {
      joiner = w.typed;
      continue;
    }
    // "t shirt" typed apart still names the type "tshirt".
    const pair = next && !w.parts && !next.parts ? foldPlural(w.typed + next.typed) : null;
    if (pair && v.types.has(pair)) {
      typeCandidates.push(terms.length);
      push(term(typedOf(i, 2), "word", { type: pair, text: textOf(i, 2) }));
      i++;
      continue;
    }
    const brand = v.brands.longestAt(tokens, i);
    if (brand && brand.length > 1) {
      push(
        term(typedOf(i, brand.length), "brand", {
          ...correctedIn(i, brand.length),
          text: textOf(i, brand.length),
          prefer: [{ kind: "terms", key: VOCABULARY_KEYS.brand, values: [brand.value] }],
        }),
      );
      i += brand.length - 1;
      continue;
    }
    const typePhrase = v.typePhrases.longestAt(tokens, i);
    const phraseEnd = typePhrase ? i + typePhrase.length - 1 : -1;
    if (typePhrase && (v.types.get(typePhrase.value) ?? 0) >= PHRASE_SHARE * (v.types.get(typePhrase.value.split(" ").at(-1)!) ?? 0)) {
      // Its other words still rank what has them first: "casual shoes" are casual shoes, the casual ones first.
      const modifiers = read.slice(i, phraseEnd).flatMap(({ word }): EngineFilter[] => {
        const usage = v.usages.get(word.token);
        const colours = v.colours.valuesWith([word.token]);
        return usage
          ? [{ kind: "terms", key: VOCABULARY_KEYS.usage, values: [usage] }]
          : colours.length
            ? [{ kind: "terms", key: VOCABULARY_KEYS.colour, values: colours }]
            : [];
      });
      typeCandidates.push(terms.length);
      push(
        term(typedOf(i, typePhrase.length), "word", {
          ...correctedIn(i, typePhrase.length),
          type: typePhrase.value,
          text: textOf(i, typePhrase.length),
          prefer: modifiers,
        }),
      );
      i = phraseEnd;
      continue;
    }
    // A narrow phrase ("formal shirts", a few products filed so among thousands of shirts) ranks its products
    // first among the head type's, its other words read as usual.
    if (typePhrase) narrowPhrases.set(phraseEnd, typePhrase.value);
    if (isType(w.token, w.typed)) {
      typeCandidates.push(terms.length);
      const phrase = narrowPhrases.get(i);
      push(
        term(misspelt ?? w.typed, "word", {
          ...corrected,
          type: w.token,
          text: w.typed,
          prefer: phrase ? [{ kind: "terms", key: VOCABULARY_KEYS.type, values: [phrase] }] : [],
        }),
      );
      continue;
    }
    const colour = colourRun(
      read.map((r) => r.word),
      i,
      v,
    );
    if (colour) {
      push(
        term(typedOf(i, colour.length), "colour", {
          ...correctedIn(i, colour.length),
          text: colour.text,
          prefer: [{ kind: "terms", key: VOCABULARY_KEYS.colour, values: colour.values }],
        }),
      );
      i += colour.length - 1;
      continue;
    }
    if (brand) {
      push(
        term(misspelt ?? w.typed, "brand", {
          ...corrected,
          text: w.typed,
          prefer: [{ kind: "terms", key: VOCABULARY_KEYS.brand, values: [brand.value] }],
        }),
      );
      continue;
    }
    const usage = v.usages.get(w.token);
    if (usage) {
      const tail = read[i + 1] && USAGE_TAILS.has(read[i + 1]!.word.token) ? 1 : 0;
      push(
        term(typedOf(i, 1 + tail), "usage", {
          ...corrected,
          text: w.typed,
          prefer: [{ kind: "terms", key: VOCABULARY_KEYS.usage, values: [usage] }],
        }),
      );
      i += tail;
      continue;
    }
    push(term(misspelt ?? w.typed, "word", { ...corrected, text: w.typed, unknown: read[i]!.unknown }));
  }
  // A joiner with nothing after it ("shoes for" once "under 1000" is read) joins nothing.
  if (joiner) terms.push(term(joiner, "word", { matched: false }));
  // The last type word is the product type; earlier ones describe it ("shirt dress", "watch strap"), as text.
  // The type's words are matched as text too: every product of the type has them in its categories, and where
  // else it has them (its name) ranks it.
  const typeAt = typeCandidates.at(-1);
  if (typeAt !== undefined) {
    const t = terms[typeAt]!;
    t.role = "type";
    t.filters = [typeFilter(t.type!, v)];
    // Its own type first (a narrow phrase's, when it has one: all results are of the head type anyway), then the
    // phrase's other words.
    const first = t.prefer[0];
    if (!(first?.kind === "terms" && first.key === VOCABULARY_KEYS.type))
      t.prefer = [{ kind: "terms", key: VOCABULARY_KEYS.type, values: [t.type!] }, ...t.prefer];
  }
  for (const at of typeCandidates) if (at !== typeAt) terms[at]!.prefer = [];
  for (const phrase of phrases) terms.push(priceTerm(phrase));
  return terms;
}

/**
 * The terms with the product type ranking first instead of narrowing, and its words matched as text: what a
 * search falls back to when the type alone finds too few (a store with two tiaras still shows them first, then
 * the products that only mention tiaras).
 */
export function typeAsPreference(terms: readonly QueryTerm[]): QueryTerm[] | null {
  const at = terms.findIndex((t) => t.role === "type");
  if (at < 0) return null;
  return terms.map((t, i) => (i === at ? { ...t, filters: [] } : t));
}

/** Consecutive colour words from `at` ("navy blue"), as the colour values holding all of them. */
function colourRun(words: readonly QueryWord[], at: number, v: QueryVocabulary): { text: string; length: number; values: string[] } | null {
  let values: string[] = [];
  let length = 0;
  while (at + length < words.length && length < 3) {
    const next = v.colours.valuesWith(words.slice(at, at + length + 1).map((w) => w.token));
    if (next.length === 0) break;
    values = next;
    length++;
  }
  return length
    ? {
        text: words
          .slice(at, at + length)
          .map((w) => w.typed)
          .join(" "),
        length,
        values,
      }
    : null;
}

/** The query's text, filters and preferences once some terms are left out. */
export interface TermsRequest {
  text: string;
  filters: EngineFilter[];
  /** Preferences in order of importance: the product type's first, then the other terms' in query order. */
  prefer: EngineFilter[];
  /** Other wordings of some of the text's words. */
  alternatives: TextAlternative[];
}

export function requestOf(terms: readonly QueryTerm[]): TermsRequest {
  const ordered = [...terms.filter((t) => t.role === "type"), ...terms.filter((t) => t.role !== "type")];
  const matched = terms.filter((t) => t.matched);
  return {
    text: matched.map((t) => t.text).join(" "),
    filters: terms.flatMap((t) => t.filters),
    prefer: ordered.flatMap((t) => t.prefer).slice(0, MAX_PREFER_FILTERS),
    alternatives: matched.filter((t) => t.alternatives.length).map((t) => ({ words: phraseTokens(t.text), alternatives: t.alternatives })),
  };
}

/** The words a shopper would read as the query actually searched (its corrections, not its typos). */
export const termsText = (terms: readonly QueryTerm[]) => terms.map((t) => (t.corrected || t.reread ? t.text : t.typed)).join(" ");

/** Plain words the catalog has that the vocabulary gives a meaning too: what the meaning fallback reads again. */
export function meaningfulWords(terms: readonly QueryTerm[], locales: readonly VocabularyLocale[]): Set<string> {
  const out = new Set<string>();
  for (const t of terms) {
    if (t.role !== "word" || !t.matched || t.corrected || t.alternatives.length) continue;
    const tokens = phraseTokens(t.text);
    if (tokens.length === 1 && meaningAt(locales, tokens, 0)) out.add(tokens[0]!);
  }
  return out;
}

/** The query as typed, in the same form: what "search instead for" offers when a correction was applied. */
export const typedText = (terms: readonly QueryTerm[]) => terms.map((t) => t.typed).join(" ");

/**
 * Preferences refine relevance, so they apply when relevance orders the result; under an explicit order (price,
 * newness) they would only break ties, and a cluster engine has room for three sort fields.
 */
export function withPreferences(sorts: readonly EngineSort[], prefer: EngineFilter[]): EngineSort[] {
  // Also before a merchandising rule's boosts and buries (weighted): they order within the product type the query
  // names, never across it (a boosted brand's jacket does not pass the shirts a shopper searched for).
  const first = sorts.find((s) => s.kind !== "weighted");
  return prefer.length > 0 && first?.kind === "relevance" ? [{ kind: "prefer", filters: prefer }, ...sorts] : [...sorts];
}

const DROP_RANK: Record<Role, number> = { word: 0, usage: 1, colour: 2, price: 3, brand: 4, gender: 5, type: 6 };

/**
 * Which terms a fallback drops first: unknown words, then plain words from the last (shoppers put the main noun
 * early), then usage, colour, price, brand and gender; the product type last.
 */
export function dropOrder(terms: readonly QueryTerm[]): number[] {
  return terms
    .map((t, i) => ({ i, t }))
    .sort((a, b) => Number(b.t.unknown) - Number(a.t.unknown) || DROP_RANK[a.t.role] - DROP_RANK[b.t.role] || b.i - a.i)
    .map(({ i }) => i);
}
