import { alternativeSpans } from "../alternative-spans.ts";
import { foldPlural, queryWords, type QueryWord } from "../../text/normalize.ts";
import { fuzzyAllowed } from "../../text/query-limits.ts";
import type { TypoVocabulary } from "../../text/typo-vocabulary.ts";
import type { TextAlternative, TextMatching } from "../types.ts";
import type { Clause } from "./text-index.ts";

/*
 * A shopper's query as clauses over normalized tokens (text-index.ts), plus how each word scores. Every word must
 * match (in any field); a word may match as itself, as its compound parts ("t-shirt": t AND shirt), as a typo
 * correction when the index does not know it, and the last word as a prefix. Adjacent words that the index
 * knows joined ("t shirt" -> tshirt) may match that way too. Words are limited as query-limits.ts says: at
 * most MAX_QUERY_WORDS clauses, and no completion or correction of a very long word.
 */

/**
 * Match quality, for relevance, times the field's weight (store-index.ts: name 10, brand 6, categories 4,
 * features and tags 2). A completion is worth so little that an exact word in the categories beats it in the
 * name: "red dress" must rank a red dress above a red top by the brand "Dressberry". A typo correction is
 * only ever an alternative of an unknown word, so it competes with other corrections, not with exact words. A
 * synonym is worth what the word it stands for is: "sunnies" finds sunglasses as if it were "sunglasses".
 */
export const QUALITY = { exact: 1, prefix: 0.3, typo: 0.6, synonym: 1 } as const;

export interface Alternative {
  token: string;
  quality: number;
  /** Every indexed token starting with `token` matches. */
  prefix?: boolean;
}

export interface QueryPlan {
  clauses: Clause[];
  /** Per query word, the tokens that count as matching it. */
  words: Alternative[][];
}

function alternativesOf(word: QueryWord, isLast: boolean, matching: TextMatching, vocabulary: TypoVocabulary): Alternative[] {
  const out: Alternative[] = [
    { token: word.token, quality: QUALITY.exact, prefix: isLast && matching.prefixLast && fuzzyAllowed(word.token) },
  ];
  // Corrections only for unknown words: a known word never competes with its look-alikes ("kurti" is not "kurta").
  if (matching.typos && !vocabulary.has(word.token)) {
    // Closest and most common first: a later look-alike ("stickers" for "snikers", after "sneakers") ranks lower.
    vocabulary.correctionsOfWord(word, 4).forEach((c, i) => out.push({ token: c.token, quality: QUALITY.typo - 0.05 * i }));
  }
  return out;
}

// Parts are matched as a phrase: "t-shirt" written "t shirt" must not match a "t" and a "shirt" far apart.
function clause(word: QueryWord, alternatives: Alternative[]): Clause {
  const terms: Clause = alternatives.map(({ token, prefix }) => ({ token, prefix }));
  if (word.parts) terms.push({ phrase: word.parts });
  return terms;
}

export function queryPlan(text: string, matching: TextMatching, vocabulary: TypoVocabulary): QueryPlan | null {
  const words = queryWords(text);
  if (words.length === 0) return null;
  const alternatives = words.map((w, i) => alternativesOf(w, i === words.length - 1, matching, vocabulary));
  const clauses: Clause[] = [];
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    if (next && !words[i]!.parts && !next.parts) {
      const pair = foldPlural(words[i]!.typed + next.typed);
      if (vocabulary.has(pair)) {
        clauses.push([{ phrase: [words[i]!.token, next.token] }, { token: pair }]);
        for (const list of [alternatives[i]!, alternatives[i + 1]!]) list.push({ token: pair, quality: QUALITY.exact });
        i++;
        continue;
      }
    }
    clauses.push(clause(words[i]!, alternatives[i]!));
  }
  return { clauses, words: alternatives };
}

/**
 * The plan of a query with its alternatives (a store's synonyms): each span of words that has alternatives is one
 * clause (the typed word with its usual alternatives, or the typed words as a phrase, or any alternative as a
 * phrase), the other words stay as `plan` has them, and each span word also scores its alternatives' tokens at
 * QUALITY.synonym. Null when no alternative's words are in the query. The words of a span typed apart ("running
 * for shoes") match through `plan` itself, which the engine searches too.
 */
export function alternativesPlan(text: string, plan: QueryPlan, alternatives: readonly TextAlternative[]): QueryPlan | null {
  const words = queryWords(text);
  const spans = alternativeSpans(words, alternatives);
  if (spans.length === 0) return null;
  const scoring = plan.words.map((list) => [...list]);
  const clauses: Clause[] = [];
  let at = 0;
  const plain = (to: number) => {
    for (; at < to; at++) clauses.push(clause(words[at]!, plan.words[at]!));
  };
  for (const span of spans) {
    plain(span.from);
    const typed: Clause =
      span.to - span.from === 1
        ? clause(words[span.from]!, plan.words[span.from]!)
        : [{ phrase: words.slice(span.from, span.to).map((w) => w.token) }];
    const others: Clause = span.alternatives.map((tokens) => (tokens.length === 1 ? { token: tokens[0]! } : { phrase: tokens }));
    clauses.push([...typed, ...others]);
    for (let i = span.from; i < span.to; i++)
      for (const tokens of span.alternatives) for (const token of tokens) scoring[i]!.push({ token, quality: QUALITY.synonym });
    at = span.to;
  }
  plain(words.length);
  return { clauses, words: scoring };
}
