import { foldCase } from "../../text/normalize.ts";

/*
 * Price phrases in a shopper's query, read before its words: "shoes under 1000", "kurta below ₹500", "bags between
 * 500 and 1,000", "watch 2k-5k", "sandals above rs 999", "cheap earrings". A bound becomes a price filter (the
 * product has a price within it), the rest of the query is searched as usual, and the answer shows the bound as a
 * selected price facet the shopper can remove. "cheap" (and its like) asks for the lower price band of what the
 * rest of the query finds, which the search service works out (cheapBand): no store's "cheap" is another's.
 */

export interface PriceBound {
  /** Inclusive lower bound. */
  min?: number;
  /** Inclusive upper bound. */
  max?: number;
}

export interface PricePhrase {
  /** The phrase as typed (folded), e.g. "under 1000". */
  text: string;
  /** The bound it states; absent for "cheap", whose bound depends on the other words. */
  bound?: PriceBound;
}

export interface PriceReading {
  /** The query without its price phrases. */
  rest: string;
  phrases: PricePhrase[];
}

const CURRENCY = String.raw`(?:₹|rs\.?|inr|rupees?|\$|usd|dollars?|€|eur|euros?|£|gbp|pounds?)`;
/** A number as shoppers write prices: "1000", "1,000", "1.5k", "2k", "999.99", with an optional currency either side. */
const AMOUNT = String.raw`(?:${CURRENCY}\s*)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k\b)?(?:\s*\/-)?(?:\s*${CURRENCY}(?![\p{L}]))?`;
/** Units after a number that make it no price: "3-4 years", "under 5 kg", "2-4 gb". */
const NO_UNIT = String.raw`(?!\s*(?:years?|yrs?|y|months?|mths?|m|cm|mm|inch|inches|in|ft|kg|g|gm|grams?|ml|l|ltr|litres?|pcs|pieces?|pack|packs|gb|tb|mah|w|watts?|%)\b)`;

const UNDER = "(?:under|below|less than|lesser than|cheaper than|within|upto|up to|max|maximum|at most|not more than|<=?|till|till rs)";
const OVER = "(?:over|above|more than|greater than|min|minimum|at least|starting at|starting from|>=?)";

interface Pattern {
  re: RegExp;
  /** How many amounts the pattern reads (each is two groups: digits and an optional "k"). */
  amounts: 1 | 2;
  bound: (a: number, b: number) => PriceBound;
}

const PATTERNS: Pattern[] = [
  {
    re: new RegExp(String.raw`\b(?:between|from)\s+${AMOUNT}\s*(?:and|to|-)\s*${AMOUNT}${NO_UNIT}`, "giu"),
    amounts: 2,
    bound: (a, b) => ({ min: Math.min(a, b), max: Math.max(a, b) }),
  },
  {
    re: new RegExp(String.raw`(?:^|\s)${AMOUNT}\s*(?:-|to)\s*${AMOUNT}${NO_UNIT}(?=\s|$)`, "giu"),
    amounts: 2,
    bound: (a, b) => ({ min: Math.min(a, b), max: Math.max(a, b) }),
  },
  { re: new RegExp(String.raw`(?:^|\s|\b)${UNDER}\s*${AMOUNT}${NO_UNIT}`, "giu"), amounts: 1, bound: (a) => ({ max: a }) },
  { re: new RegExp(String.raw`(?:^|\s|\b)${OVER}\s*${AMOUNT}${NO_UNIT}`, "giu"), amounts: 1, bound: (a) => ({ min: a }) },
];

/** Words asking for the cheaper products of the rest of the query. */
const CHEAP = /(?:^|\s)(cheap|cheapest|cheaper|budget|affordable|inexpensive|low cost|low price|low priced|economical)(?=\s|$)/giu;

function amount(digits: string, thousands: string | undefined): number {
  const n = Number(digits.replace(/,/g, ""));
  return thousands ? n * 1000 : n;
}

/** The query's price phrases and what is left of it. A number alone ("501 jeans", "iphone 14") is no price. */
export function readPricePhrases(query: string): PriceReading {
  let rest = foldCase(query);
  const phrases: PricePhrase[] = [];
  for (const { re, amounts, bound } of PATTERNS) {
    rest = rest.replace(re, (match: string, ...groups: unknown[]) => {
      const a = amount(groups[0] as string, groups[1] as string | undefined);
      const b = amounts === 2 ? amount(groups[2] as string, groups[3] as string | undefined) : a;
      if (!Number.isFinite(a) || !Number.isFinite(b)) return match;
      phrases.push({ text: match.trim(), bound: bound(a, b) });
      return " ";
    });
  }
  rest = rest.replace(CHEAP, (match: string) => {
    if (!phrases.some((p) => !p.bound)) phrases.push({ text: match.trim() });
    return " ";
  });
  // A query without price words goes on exactly as typed (an identifier keeps its case and punctuation).
  return phrases.length ? { rest: rest.replace(/\s+/g, " ").trim(), phrases } : { rest: query, phrases };
}

/** One bound that all the stated ones allow (the tightest), or null when a query states none. */
export function combinedBound(phrases: readonly PricePhrase[]): PriceBound | null {
  const bounds = phrases.flatMap((p) => (p.bound ? [p.bound] : []));
  if (bounds.length === 0) return null;
  const out: PriceBound = {};
  for (const b of bounds) {
    if (b.min !== undefined) out.min = Math.max(out.min ?? -Infinity, b.min);
    if (b.max !== undefined) out.max = Math.min(out.max ?? Infinity, b.max);
  }
  return out;
}

/** Share of the products the rest of a query finds that "cheap" keeps: the cheapest third. */
export const CHEAP_SHARE = 1 / 3;

/**
 * The upper bound of "cheap" among products whose prices fall into `buckets` (range counts, ascending): the upper
 * bound of the bucket holding the CHEAP_SHARE quantile, so the band reads as a round price ("under 1,000").
 */
export function cheapBand(buckets: readonly { lb: number; ub: number; count: number }[]): number | null {
  const total = buckets.reduce((sum, b) => sum + b.count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const b of buckets) {
    seen += b.count;
    if (seen >= total * CHEAP_SHARE) return b.ub;
  }
  return buckets.at(-1)!.ub;
}
