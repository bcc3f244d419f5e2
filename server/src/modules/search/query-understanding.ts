import { foldCase, foldPlural, queryWords, type QueryWord } from "../../engine/text/normalize.ts";
import { MAX_PREFER_FILTERS, type EngineFilter, type EngineSort, type WordCorrection } from "../../engine/types.ts";
import { muchMoreCommon } from "../../engine/text/typo-vocabulary.ts";
import { VOCABULARY_KEYS, type QueryVocabulary } from "./query-vocabulary.ts";

/*
 * A shopper's query read with the store's vocabulary (query-vocabulary.ts): which words name the product type,
 * a gender or age, a colour, a brand or a usage, and what each asks of the result.
 * - Products of the named type rank before everything else: "mens shirts" lists shirts before the T-shirts that
 *   merely contain the word "shirt", and "kurta" kurtas before kurta sets (which still follow: a shopper may
 *   want one). Only the last type word is the type ("shirt dress" is a dress); the others stay plain words.
 * - A gender or age word narrows to that gender (and unisex) and is not matched as text: catalogs say "Men" in
 *   a field, rarely "men's" in a name. "men"/"women" prefer adults' products; "boys"/"girls"/"kids" narrow to kids.
 * - A colour, brand or usage ranks products that have it first, and still has to match as text.
 * - Everything else is matched as text, as before.
 * When nothing matches, the fallback drops the least informative terms first (dropOrder).
 */

export type Role = "type" | "gender" | "colour" | "brand" | "usage" | "word";

export interface QueryTerm {
  /** The words as typed (folded), space-separated. */
  text: string;
  role: Role;
  /** For a word naming a product type: the type token (a productType value). */
  type?: string;
  /** Filters that narrow the result. */
  filters: EngineFilter[];
  /** Filters that rank first without narrowing (the type's before all others'). */
  prefer: EngineFilter[];
  /** Whether the words must match as text. */
  matched: boolean;
  /** Unknown to the index and without a look-alike: the first a fallback drops. */
  unknown: boolean;
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
const UNISEX = "Unisex";
const KIDS = "Kids";
const ADULTS = "Adults";

/**
 * A word counts as a product type only when at least this share of the products holding the word are of that
 * type: "shorts" (202 of 1,511 products saying "short", most of them "short sleeve") counts; "cotton", the type
 * of one odd category, would not.
 */
const MIN_TYPE_SHARE = 0.05;

const possessive = (typed: string) => typed.replace(/['’]s?$/, "").replace(/\W+$/, "");

function peopleTerm(typed: string, v: QueryVocabulary): QueryTerm | null {
  const word = possessive(typed);
  const person = PEOPLE.get(word) ?? PEOPLE.get(word.replace(/\W/g, ""));
  if (!person) return null;
  const filters: EngineFilter[] = [];
  const prefer: EngineFilter[] = [];
  if (person.gender) {
    if (!v.genders.has(person.gender)) return null;
    filters.push({ kind: "terms", key: VOCABULARY_KEYS.gender, values: v.genders.has(UNISEX) ? [person.gender, UNISEX] : [person.gender] });
  }
  if (person.kids) {
    if (!v.ageGroups.has(KIDS)) return null;
    filters.push({ kind: "terms", key: VOCABULARY_KEYS.ageGroup, values: [KIDS] });
  } else if (v.ageGroups.has(ADULTS)) {
    prefer.push({ kind: "terms", key: VOCABULARY_KEYS.ageGroup, values: [ADULTS] });
  }
  return { text: typed, role: "gender", filters, prefer, matched: false, unknown: false };
}

const term = (text: string, role: Role, extra: Partial<QueryTerm> = {}): QueryTerm => ({ text, role, filters: [], prefer: [], matched: true, unknown: false, ...extra });

export function interpretQuery(query: string, v: QueryVocabulary, corrections: readonly WordCorrection[] | null): QueryTerm[] {
  const words = queryWords(query);
  const tokens = words.map((w) => w.token);
  const correctionOf = new Map((corrections ?? []).map((c) => [c.word, c]));
  const isType = (token: string, docs: number | undefined) => {
    const typed = v.types.get(token);
    return typed !== undefined && (docs === undefined || typed >= MIN_TYPE_SHARE * docs);
  };
  const terms: QueryTerm[] = [];
  const typeCandidates: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const correction = correctionOf.get(w.typed);
    const people = peopleTerm(w.typed, v);
    if (people) {
      terms.push(people);
      continue;
    }
    // "t shirt" typed apart still names the type "tshirt".
    const next = words[i + 1];
    const joined = next && !w.parts && !next.parts ? foldPlural(w.typed + next.typed) : null;
    if (joined && v.types.has(joined)) {
      typeCandidates.push(terms.length);
      terms.push(term(`${w.typed} ${next!.typed}`, "word", { type: joined }));
      i++;
      continue;
    }
    const brand = v.brands.longestAt(tokens, i);
    if (brand && brand.length > 1) {
      terms.push(term(words.slice(i, i + brand.length).map((x) => x.typed).join(" "), "brand", { prefer: [{ kind: "terms", key: VOCABULARY_KEYS.brand, values: [brand.value] }] }));
      i += brand.length - 1;
      continue;
    }
    if (isType(w.token, correction?.docs)) {
      typeCandidates.push(terms.length);
      terms.push(term(w.typed, "word", { type: w.token }));
      continue;
    }
    // A misspelt word (unknown, or known from one stray product while a look-alike is far more common) whose
    // look-alikes include a product type means that type, and is searched as it ("sare" -> saree, "shors" -> shoes).
    const stray = correction?.docs === 1 && correction.candidates[0] !== undefined && muchMoreCommon(correction.candidates[0].docs, 1);
    const misspelt = correction && (!correction.known || stray);
    const typoType = misspelt ? likeliestType(w.typed, correction!, v) : undefined;
    if (typoType) {
      typeCandidates.push(terms.length);
      terms.push(term(typoType.written, "word", { type: typoType.type }));
      continue;
    }
    const colour = colourRun(words, i, v);
    if (colour) {
      terms.push(term(colour.text, "colour", { prefer: [{ kind: "terms", key: VOCABULARY_KEYS.colour, values: colour.values }] }));
      i += colour.length - 1;
      continue;
    }
    if (brand) {
      terms.push(term(w.typed, "brand", { prefer: [{ kind: "terms", key: VOCABULARY_KEYS.brand, values: [brand.value] }] }));
      continue;
    }
    const usage = v.usages.get(w.token);
    if (usage) {
      terms.push(term(w.typed, "usage", { prefer: [{ kind: "terms", key: VOCABULARY_KEYS.usage, values: [usage] }] }));
      continue;
    }
    terms.push(term(w.typed, "word", { unknown: correction ? !correction.known && correction.candidates.length === 0 : false }));
  }
  // The last type word is the product type; earlier ones describe it ("shirt dress", "watch strap").
  const typeAt = typeCandidates.at(-1);
  if (typeAt !== undefined) {
    const t = terms[typeAt]!;
    t.role = "type";
    t.prefer = [{ kind: "terms", key: VOCABULARY_KEYS.type, values: [t.type!] }];
  }
  return terms;
}

/** Letters two words share at their start: shoppers seldom mistype the first letters ("caprs" is capris, not cap). */
function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/**
 * The product type a misspelt word most likely stands for: among its look-alikes that are types, the one sharing
 * most of its beginning (then the first listed, the closest and most common), unless a look-alike that is no type
 * shares more of it and is at least as common. "sare" is sarees (not "care"), "caprs" capris (not "cap"),
 * "desses" dresses (not the rarer "dessert"); "sneekers" is sneakers, no type here, not "speakers".
 */
function likeliestType(typed: string, correction: WordCorrection, v: QueryVocabulary): { type: string; written: string } | undefined {
  const read = correction.candidates.map((c) => {
    const written = foldCase(c.word);
    return { written, type: foldPlural(written), docs: c.docs, shared: sharedStart(typed, written) };
  });
  let best: (typeof read)[number] | undefined;
  for (const c of read) if (v.types.has(c.type) && (!best || c.shared > best.shared)) best = c;
  if (!best || read.some((c) => !v.types.has(c.type) && c.shared > best.shared && c.docs >= best.docs)) return undefined;
  return { type: best.type, written: best.written };
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
  return length ? { text: words.slice(at, at + length).map((w) => w.typed).join(" "), length, values } : null;
}

/** The query's text, filters and preferences once some terms are left out. */
export interface TermsRequest {
  text: string;
  filters: EngineFilter[];
  /** Preferences in order of importance: the product type's first, then the other terms' in query order. */
  prefer: EngineFilter[];
}

export function requestOf(terms: readonly QueryTerm[]): TermsRequest {
  const ordered = [...terms.filter((t) => t.role === "type"), ...terms.filter((t) => t.role !== "type")];
  return {
    text: terms.filter((t) => t.matched).map((t) => t.text).join(" "),
    filters: terms.flatMap((t) => t.filters),
    prefer: ordered.flatMap((t) => t.prefer).slice(0, MAX_PREFER_FILTERS),
  };
}

/** The words a shopper would read as the query actually searched. */
export const termsText = (terms: readonly QueryTerm[]) => terms.map((t) => t.text).join(" ");

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

const DROP_RANK: Record<Role, number> = { word: 0, usage: 1, colour: 2, brand: 3, gender: 4, type: 5 };

/**
 * Which terms a fallback drops first: unknown words, then plain words from the last (shoppers put the main noun
 * early), then usage, colour, brand and gender; the product type last.
 */
export function dropOrder(terms: readonly QueryTerm[]): number[] {
  return terms
    .map((t, i) => ({ i, t }))
    .sort((a, b) => Number(b.t.unknown) - Number(a.t.unknown) || DROP_RANK[a.t.role] - DROP_RANK[b.t.role] || b.i - a.i)
    .map(({ i }) => i);
}
