import { foldCase, foldPlural } from "../../text/normalize.ts";
import type { WordCorrection } from "../../engine/types.ts";
import type { QueryVocabulary } from "./query-vocabulary.ts";

/*
 * Which look-alike a misspelt word stands for, as a noisy channel would weigh it: how many of the store's products
 * use the word and how many of its shoppers searched it and found something (the word's prior), against how
 * unlikely the typing slip is (each edit costs; shoppers seldom mistype a word's first letters). "jeens" is jeans
 * (1,400 products) and not teens (50); "snikers" is sneakers, not the "Sniper" shoe one edit closer to its folded
 * form; "caprs" is capris, not caps. A word the catalog has is never corrected (query-understanding.ts).
 */

/** ln of how much less likely one more edit makes a reading (about one slip in ten letters typed). */
const EDIT_COST = 2.3;
/**
 * What each letter shared at the start is worth, up to SHARED_CAP letters: slips come later in a word, so a
 * look-alike that keeps more of the typed start wins over one ten times as common ("shors" is shorts, not shoes).
 */
const SHARED_START = 2;
const SHARED_CAP = 5;
/** What naming one of the store's product types is worth: a shopper's query is a type more often than not. */
const TYPE_BONUS = 0.5;
/**
 * What shoppers' searches add, per ln of their count: less than the catalog's, whose counts are of products, while
 * a popular query's count says more about the query than about every look-alike of its words ("shors" stays shorts
 * though shoppers search "shoes" far more).
 */
const SHOPPER_WEIGHT = 0.3;
/** What a look-alike that makes a type of several words with the words beside it is worth ("flip fops": flops). */
const PHRASE_BONUS = 2;

function sharedStart(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return Math.min(n, SHARED_CAP);
}

/** The correction a search applies for an unknown word: its likeliest look-alike, or undefined when it has none. */
export function chooseCorrection(
  typed: string,
  correction: WordCorrection,
  vocabulary: QueryVocabulary,
  shopperUses?: (word: string) => number,
  /** Whether the look-alike's token names a type with the query's neighbouring words. */
  inPhrase?: (token: string) => boolean,
): string | undefined {
  let best: { word: string; score: number } | undefined;
  for (const c of correction.candidates) {
    const written = foldCase(c.word);
    const distance = c.distance ?? 1;
    const score =
      Math.log1p(c.docs) +
      SHOPPER_WEIGHT * Math.log1p(shopperUses?.(written) ?? 0) -
      EDIT_COST * distance +
      SHARED_START * sharedStart(typed, written) +
      (vocabulary.types.has(foldPlural(written)) ? TYPE_BONUS : 0) +
      (inPhrase?.(foldPlural(written)) ? PHRASE_BONUS : 0);
    if (!best || score > best.score) best = { word: c.word, score };
  }
  return best?.word;
}
