import { foldPlural, queryWords, type QueryWord } from "../text/normalize.ts";
import type { TypoVocabulary } from "../text/typo-vocabulary.ts";
import type { TextMatching } from "../types.ts";

/*
 * A shopper's query as an FTS5 expression over normalized tokens. Every word must match (in any field); a word
 * may match as itself, as its compound parts ("t-shirt": t AND shirt), as a typo correction when the index
 * does not know it, and the last word as a prefix. Adjacent words that the index knows joined ("t shirt" ->
 * tshirt) may match that way too.
 */

const quote = (token: string) => `"${token}"`;

function wordClause(word: QueryWord, isLast: boolean, matching: TextMatching, vocabulary: TypoVocabulary): string {
  const prefix = isLast && matching.prefixLast;
  const alternatives = [prefix ? `${quote(word.token)}*` : quote(word.token)];
  if (word.parts) alternatives.push(`(${word.parts.map(quote).join(" AND ")})`);
  // Corrections only for unknown words: a known word never competes with its look-alikes. The word as typed
  // is corrected too, since plural folding can shorten a misspelling ("dres" folds to "dre").
  if (matching.typos && !vocabulary.has(word.token)) {
    const found = new Set([...vocabulary.corrections(word.token, 4), ...vocabulary.corrections(word.typed, 4)].map((c) => c.token));
    for (const token of found) alternatives.push(quote(token));
  }
  return alternatives.length === 1 ? alternatives[0]! : `(${alternatives.join(" OR ")})`;
}

export function ftsExpression(text: string, matching: TextMatching, vocabulary: TypoVocabulary): string | null {
  const words = queryWords(text);
  if (words.length === 0) return null;
  const clauses = words.map((w, i) => wordClause(w, i === words.length - 1, matching, vocabulary));
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    if (next && !words[i]!.parts && !next.parts) {
      const pair = foldPlural(words[i]!.typed + next.typed);
      if (vocabulary.has(pair)) {
        joined.push(`((${clauses[i]} AND ${clauses[i + 1]}) OR ${quote(pair)})`);
        i++;
        continue;
      }
    }
    joined.push(clauses[i]!);
  }
  return joined.join(" AND ");
}
