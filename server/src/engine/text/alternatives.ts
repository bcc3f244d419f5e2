import type { EngineSort, TextAlternative } from "../types.ts";
import type { QueryWord } from "./normalize.ts";
import { MAX_ALTERNATIVE_WORDS, MAX_QUERY_ALTERNATIVES } from "./query-limits.ts";

/*
 * Where a request's alternatives (a store's synonyms, EngineSearchRequest.alternatives) stand in its query, and
 * where the ranking puts the documents that match the typed words themselves: both adapters read them here, so
 * they apply alternatives to the same words and rank them the same way.
 */

export interface AlternativeSpan {
  /** The span's first query word and the word after its last. */
  from: number;
  to: number;
  alternatives: string[][];
}

/**
 * Each alternative at the first place its words stand in `words`, consecutive and not inside another's span; in
 * query order. At most MAX_QUERY_ALTERNATIVES alternatives in all, each of at most MAX_ALTERNATIVE_WORDS words.
 */
export function alternativeSpans(words: readonly QueryWord[], alternatives: readonly TextAlternative[]): AlternativeSpan[] {
  const taken = new Uint8Array(words.length);
  const spans: AlternativeSpan[] = [];
  let room = MAX_QUERY_ALTERNATIVES;
  for (const a of alternatives) {
    const n = a.words.length;
    const usable = a.alternatives.filter((tokens) => tokens.length > 0 && tokens.length <= MAX_ALTERNATIVE_WORDS).slice(0, room);
    if (n === 0 || usable.length === 0) continue;
    for (let i = 0; i + n <= words.length; i++) {
      let fits = true;
      for (let k = 0; k < n && fits; k++) fits = taken[i + k] === 0 && words[i + k]!.token === a.words[k];
      if (!fits) continue;
      taken.fill(1, i, i + n);
      spans.push({ from: i, to: i + n, alternatives: usable });
      room -= usable.length;
      break;
    }
  }
  return spans.sort((a, b) => a.from - b.from);
}

/**
 * Where in a sort chain the documents matching the typed words go before those matching only through an
 * alternative: before the first sort that is no pin, when the chain orders by relevance at all (under an
 * explicit order such as price, the shopper asked for that order); -1 when it does not.
 */
export function typedFirstAt(sorts: readonly EngineSort[]): number {
  if (!sorts.some((s) => s.kind === "relevance")) return -1;
  return sorts.findIndex((s) => s.kind !== "pinned");
}
