import type { TextAlternative } from "./types.ts";
import type { QueryWord } from "../text/normalize.ts";
import { MAX_ALTERNATIVE_WORDS, MAX_QUERY_ALTERNATIVES } from "../text/query-limits.ts";

/*
 * Where a request's alternatives (a store's synonyms, EngineSearchRequest.alternatives) stand in its query: both
 * adapters read them here, so they apply alternatives to the same words.
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
