import { tokenize } from "../../text/normalize.ts";

/*
 * Which logged queries may become a public suggestion. A suggestion is shown to every shopper, so a query
 * qualifies only once several distinct shoppers searched it (one person's typing never leaks to the next), and
 * only when it reads like a search: no repeated word ("women women"), no address, link or long number (what a
 * shopper pastes by mistake is often personal: an email, a phone or an order number), and no more words than a
 * real query has.
 */

/** Distinct shoppers (user id, else session id) who must search a query before it is suggested. */
export const MIN_SUGGESTION_SHOPPERS = 3;
const MAX_SUGGESTION_WORDS = 6;
const PERSONAL = /@|:\/\/|www\.|\d{5}/;

/** `normalized` as normalizeQuery (text/normalize.ts) leaves it: folded and single-spaced. */
export function suggestableQuery(normalized: string): boolean {
  if (normalized.length < 2 || PERSONAL.test(normalized)) return false;
  if (normalized.split(" ").length > MAX_SUGGESTION_WORDS) return false;
  const tokens = tokenize(normalized);
  return tokens.length > 0 && new Set(tokens).size === tokens.length;
}
