import { foldPlural } from "../../text/normalize.ts";
import { normalizeQuery } from "../../text/normalize.ts";

/**
 * A query or a rule's pattern as the words rules compare: search's own normalisation (normalizeQuery: case and
 * accents folded, at most the words search matches), split at anything not a letter or digit, plurals folded as
 * the engines fold them. So "Summer Sales!" is the pattern "summer sale".
 */
export function ruleWords(text: string): string[] {
  return normalizeQuery(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(foldPlural);
}
