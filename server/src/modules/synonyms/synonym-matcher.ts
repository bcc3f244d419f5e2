import { queryWords } from "../../engine/text/normalize.ts";
import { MAX_QUERY_WORDS } from "../../engine/text/query-limits.ts";
import type { TextAlternative } from "../../engine/types.ts";
import { phraseTokens, type SynonymSet } from "./synonym-schema.ts";

/*
 * A store's synonym sets as a map from a phrase's normalized words to what else they may match, built once per
 * change of the sets: a search looks its words up (at most MAX_QUERY_WORDS starts, each only when its first word
 * starts some phrase) instead of reading every set.
 */

export interface SynonymMatch {
  /** The query's words the sets matched, normalized. */
  matched: string;
  /** The sets that gave alternatives for them. */
  sets: string[];
  alternative: TextAlternative;
}

interface Entry {
  sets: string[];
  /** By the alternative's words joined: its tokens. */
  alternatives: Map<string, string[]>;
}

export class SynonymMatcher {
  private readonly byPhrase = new Map<string, Entry>();
  private readonly firstWords = new Set<string>();
  private longest = 0;

  constructor(sets: readonly SynonymSet[]) {
    for (const set of sets) {
      const phrases = set.synonyms.map(phraseTokens).filter((t) => t.length > 0);
      if (set.input !== undefined) this.add(set.id, phraseTokens(set.input), phrases);
      else for (const from of phrases) this.add(set.id, from, phrases);
    }
  }

  get empty(): boolean {
    return this.byPhrase.size === 0;
  }

  private add(setId: string, from: string[], to: readonly string[][]): void {
    if (from.length === 0) return;
    const key = from.join(" ");
    let entry = this.byPhrase.get(key);
    for (const tokens of to) {
      const other = tokens.join(" ");
      if (other === key) continue;
      if (!entry) this.byPhrase.set(key, (entry = { sets: [], alternatives: new Map() }));
      entry.alternatives.set(other, tokens);
      if (!entry.sets.includes(setId)) entry.sets.push(setId);
    }
    if (!entry) return;
    this.firstWords.add(from[0]!);
    this.longest = Math.max(this.longest, Math.min(from.length, MAX_QUERY_WORDS));
  }

  /** The query's phrases that sets match, longest first from each word on, without overlaps. */
  match(text: string): SynonymMatch[] {
    if (this.byPhrase.size === 0) return [];
    const tokens = queryWords(text).map((w) => w.token);
    const out: SynonymMatch[] = [];
    for (let i = 0; i < tokens.length; ) {
      let taken = 0;
      if (this.firstWords.has(tokens[i]!)) {
        for (let n = Math.min(this.longest, tokens.length - i); n >= 1 && !taken; n--) {
          const words = tokens.slice(i, i + n);
          const entry = this.byPhrase.get(words.join(" "));
          if (!entry) continue;
          out.push({ matched: words.join(" "), sets: entry.sets, alternative: { words, alternatives: [...entry.alternatives.values()] } });
          taken = n;
        }
      }
      i += taken || 1;
    }
    return out;
  }
}
