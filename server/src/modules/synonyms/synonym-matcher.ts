import { queryWords } from "../../text/normalize.ts";
import { MAX_QUERY_ALTERNATIVES, MAX_QUERY_WORDS } from "../../text/query-limits.ts";
import type { EngineSearchRequest, TextAlternative } from "../../engine/types.ts";
import { phraseTokens, type SynonymSet } from "./synonym-schema.ts";

/*
 * A store's synonym sets as a map from a phrase's normalized words to the sets it finds, built once per store and
 * then changed set by set: a search looks its words up (at most MAX_QUERY_WORDS starts, each only
 * when its first word starts some phrase) instead of reading every set.
 */

export interface SynonymMatch {
  /** The query's words the sets matched, normalized. */
  matched: string;
  /** The sets that gave alternatives for them. */
  sets: string[];
  alternative: TextAlternative;
}

/** A set's phrases that a phrase may stand for: one list per set, shared by all of a multi-way set's phrases. */
interface Group {
  setId: string;
  phrases: string[][];
}

export class SynonymMatcher {
  /** By a phrase's words joined: the groups it finds (the phrase itself is left out when matched). */
  private readonly byPhrase = new Map<string, Group[]>();
  /** Per set, its group and the phrases that find it: what a change of the set takes out. */
  private readonly bySet = new Map<string, { group: Group; keys: string[] }>();
  /** Words that start a phrase, and the most words of one: bounds of the look-ups, kept (as bounds) when sets go. */
  private readonly firstWords = new Set<string>();
  private longest = 0;
  /** Sets this view leaves out (without()); the store's matcher leaves out none. */
  private withheld: ReadonlySet<string> = new Set();

  constructor(sets: readonly SynonymSet[]) {
    for (const set of sets) this.put(set);
  }

  /** Adds a set, or replaces the one of its id: a change costs the set's phrases, not a rebuild of the store's. */
  put(set: Pick<SynonymSet, "id" | "input" | "synonyms">): void {
    this.remove(set.id);
    const group = { setId: set.id, phrases: set.synonyms.map(phraseTokens).filter((t) => t.length > 0) };
    const froms = set.input !== undefined ? [phraseTokens(set.input)] : group.phrases;
    const keys: string[] = [];
    for (const from of froms) {
      const key = from.join(" ");
      // Phrases that fold to the same words ("T-shirts", "t shirt") are one key: listed once, removed once.
      if (from.length === 0 || keys.includes(key)) continue;
      const groups = this.byPhrase.get(key);
      if (groups) groups.push(group);
      else this.byPhrase.set(key, [group]);
      keys.push(key);
      this.firstWords.add(from[0]!);
      this.longest = Math.max(this.longest, Math.min(from.length, MAX_QUERY_WORDS));
    }
    this.bySet.set(set.id, { group, keys });
  }

  remove(setId: string): void {
    const held = this.bySet.get(setId);
    if (!held) return;
    for (const key of held.keys) {
      const groups = (this.byPhrase.get(key) ?? []).filter((g) => g !== held.group);
      if (groups.length) this.byPhrase.set(key, groups);
      else this.byPhrase.delete(key);
    }
    this.bySet.delete(setId);
  }

  /**
   * What the phrase `key` may also match through its groups (the first MAX_QUERY_ALTERNATIVES, as the engines take
   * no more), or null when only itself.
   */
  private found(key: string, groups: readonly Group[]): { sets: string[]; alternatives: string[][] } | null {
    const alternatives = new Map<string, string[]>();
    const sets: string[] = [];
    for (const group of groups) {
      if (this.withheld.has(group.setId)) continue;
      let gave = false;
      for (const tokens of group.phrases) {
        if (alternatives.size >= MAX_QUERY_ALTERNATIVES) break;
        const joined = tokens.join(" ");
        if (joined === key || alternatives.has(joined)) continue;
        gave = true;
        alternatives.set(joined, tokens);
      }
      if (gave && !sets.includes(group.setId)) sets.push(group.setId);
      if (alternatives.size >= MAX_QUERY_ALTERNATIVES) break;
    }
    return alternatives.size ? { sets, alternatives: [...alternatives.values()] } : null;
  }

  /**
   * The matcher as one experiment variant's shoppers see it: without the sets it holds back. A view over this
   * matcher's own index (it follows the store's changes), not a copy: one search's use costs nothing to build.
   */
  without(setIds: ReadonlySet<string>): SynonymMatcher {
    if (setIds.size === 0) return this;
    const view = Object.create(this) as SynonymMatcher;
    view.withheld = setIds;
    return view;
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
          const key = words.join(" ");
          const groups = this.byPhrase.get(key);
          const found = groups && this.found(key, groups);
          if (!found) continue;
          out.push({ matched: key, sets: found.sets, alternative: { words, alternatives: found.alternatives } });
          taken = n;
        }
      }
      i += taken || 1;
    }
    return out;
  }

  /** `request` with the alternatives its text's words have in the sets (the request itself when none). */
  widen(request: EngineSearchRequest): EngineSearchRequest {
    const matches = this.match(request.text);
    return matches.length ? { ...request, alternatives: matches.map((m) => m.alternative) } : request;
  }

  /** For explain: which sets matched which of the text's words. */
  explain(text: string): { id: string; matched: string }[] {
    return this.match(text).flatMap((m) => m.sets.map((id) => ({ id, matched: m.matched })));
  }
}
