import type { EngineFilter } from "../../engine/types.ts";
import { MAX_WEIGHTED_FILTERS } from "../../engine/types.ts";
import { toEngineFilters, type FacetSelection } from "../facets/facet-selection.ts";
import type { Rule, RuleCondition } from "@storefront-search/contract";
import { facetSelection } from "./rule-schema.ts";
import { ruleWords } from "./rule-words.ts";

/*
 * A store's enabled rules, indexed once per change so a search looks up only the rules its words can trigger:
 * a condition with a pattern is filed under the pattern's first word, one without under its collection or facet.
 * A search reads the entries of its distinct words, collection and facet selections, never the whole book.
 *
 * Several rules that fire combine in one order: the most specific condition first (the query IS the pattern,
 * then STARTS WITH it, then CONTAINS it, then conditions on the collection or facets only; among equals, the
 * longer pattern, then the condition with more parts), then by rule id. At most MAX_FIRED_RULES fire.
 */

/** Rules one search applies, the most specific first. */
export const MAX_FIRED_RULES = 10;
/** Pins one search lays: each shown pin is read from the catalog to count in facets. */
export const MAX_PINS_PER_SEARCH = 100;

const ANCHOR_RANK = { is: 3, startsWith: 2, contains: 1 } as const;

interface Entry {
  rule: Rule;
  words: string[];
  anchoring?: RuleCondition["anchoring"];
  collection?: string;
  facet?: string;
  /** Compared in order, higher first. */
  specificity: [number, number, number];
  /** Validity window in ms since the epoch. */
  from: number;
  until: number;
}

export interface SearchContext {
  query: string | undefined;
  collection: string | undefined;
  facets: readonly FacetSelection[];
  /** Rules a running experiment holds back from this shopper's variant (experiments/running-experiments.ts). */
  withheld?: ReadonlySet<string>;
}

/** What the fired rules do to one search, combined. */
export interface RuleEffects {
  fired: { id: string; effects: string[] }[];
  /** The query after word edits; absent when no word changed. */
  query?: string;
  filters: EngineFilter[];
  /** Products placed by rules, by position (1-based); an earlier rule's pin of a product wins. */
  pins: { productId: string; position: number }[];
  hide: string[];
  weighted: { key: string; values: string[]; weight: number }[];
  redirect?: string;
  userData: Record<string, unknown>[];
}

const facetKey = (s: { key: string; value: string }) => `${s.key}:${s.value}`;

function compare(a: Entry["specificity"], b: Entry["specificity"]): number {
  return b[0] - a[0] || b[1] - a[1] || b[2] - a[2];
}

function contains(words: readonly string[], pattern: readonly string[], at: "is" | "startsWith" | "contains"): boolean {
  if (at === "is") return words.length === pattern.length && pattern.every((w, i) => words[i] === w);
  const last = at === "startsWith" ? 0 : words.length - pattern.length;
  for (let start = 0; start <= last; start++) if (pattern.every((w, i) => words[start + i] === w)) return true;
  return false;
}

export class RuleBook {
  private readonly byWord = new Map<string, Entry[]>();
  private readonly byContext = new Map<string, Entry[]>();

  constructor(rules: readonly Rule[]) {
    for (const rule of rules) {
      if (!rule.enabled) continue;
      const from = rule.from === undefined ? -Infinity : Date.parse(rule.from);
      const until = rule.until === undefined ? Infinity : Date.parse(rule.until);
      for (const c of rule.conditions) {
        const words = c.pattern === undefined ? [] : ruleWords(c.pattern);
        const facet = c.facet === undefined ? undefined : facetKey(facetSelection(c.facet, false)!);
        const parts = (c.collection === undefined ? 0 : 1) + (facet === undefined ? 0 : 1);
        const entry: Entry = {
          rule,
          words,
          anchoring: c.anchoring,
          collection: c.collection,
          facet,
          specificity: [c.anchoring ? ANCHOR_RANK[c.anchoring] : 0, words.length, parts],
          from,
          until,
        };
        const [map, key] = words.length
          ? [this.byWord, words[0]!]
          : c.collection !== undefined
            ? [this.byContext, `c\u0000${c.collection}`]
            : [this.byContext, `f\u0000${facet}`];
        const list = map.get(key);
        if (list) list.push(entry);
        else map.set(key, [entry]);
      }
    }
  }

  /** The rules a search fires, the most specific first, each with the specificity of its best condition. */
  fired(context: SearchContext, now: number): Rule[] {
    const words = context.query ? ruleWords(context.query) : [];
    // A facet condition is met by choosing the value; excluding it ("!designer:Nike") is not choosing it.
    const selected = new Set(context.facets.filter((f) => !f.exclude).map(facetKey));
    const best = new Map<string, Entry>();
    const consider = (entries: readonly Entry[] | undefined) => {
      for (const e of entries ?? []) {
        if (now < e.from || now >= e.until) continue;
        if (context.withheld?.has(e.rule.id)) continue;
        if (e.collection !== undefined && e.collection !== context.collection) continue;
        if (e.facet !== undefined && !selected.has(e.facet)) continue;
        if (e.words.length && !contains(words, e.words, e.anchoring!)) continue;
        const known = best.get(e.rule.id);
        if (!known || compare(e.specificity, known.specificity) < 0) best.set(e.rule.id, e);
      }
    };
    for (const word of new Set(words)) consider(this.byWord.get(word));
    if (context.collection !== undefined) consider(this.byContext.get(`c\u0000${context.collection}`));
    for (const key of selected) consider(this.byContext.get(`f\u0000${key}`));
    return [...best.values()]
      .sort((a, b) => compare(a.specificity, b.specificity) || (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0))
      .slice(0, MAX_FIRED_RULES)
      .map((e) => e.rule);
  }

  /** A redirect the typed text alone triggers (no collection, no facets), as typeahead may follow it. */
  redirectFor(query: string, now: number, withheld?: ReadonlySet<string>): string | null {
    return (
      this.fired({ query, collection: undefined, facets: [], withheld }, now).find((r) => r.consequence.redirect !== undefined)?.consequence
        .redirect ?? null
    );
  }
}

/**
 * The fired rules' consequences combined, in the book's order: pins and hides gathered (a product an earlier rule
 * pins keeps that rule's position; a hidden product is never shown, even when another rule pins it), filters all
 * applied, boosts and buries summed per selection (the first MAX_WEIGHTED_FILTERS selections), word edits applied
 * in turn to the original query, the first redirect, and every rule's userData.
 */
export function combine(rules: readonly Rule[], query: string | undefined): RuleEffects | null {
  if (rules.length === 0) return null;
  const effects: RuleEffects = { fired: [], filters: [], pins: [], hide: [], weighted: [], userData: [] };
  const hidden = new Set<string>();
  const pinned = new Set<string>();
  const weights = new Map<string, { key: string; values: string[]; weight: number }>();
  const selections: FacetSelection[] = [];
  let words = query ? ruleWords(query) : [];
  let edited = false;
  for (const rule of rules) {
    const q = rule.consequence;
    const did: string[] = [];
    for (const id of q.hide ?? []) hidden.add(id);
    if (q.hide?.length) did.push(`hides ${q.hide.join(", ")}`);
    for (const pin of q.pins ?? []) {
      if (pinned.has(pin.productId)) continue;
      if (pinned.size >= MAX_PINS_PER_SEARCH) {
        did.push(`pin of ${pin.productId} skipped: ${MAX_PINS_PER_SEARCH} products already pinned`);
        continue;
      }
      pinned.add(pin.productId);
      effects.pins.push(pin);
      did.push(`pins ${pin.productId} at ${pin.position}`);
    }
    for (const [kind, sign] of [
      ["boost", 1],
      ["bury", -1],
    ] as const) {
      for (const b of q[kind] ?? []) {
        const s = facetSelection(b.filter, false)!;
        const key = `${s.key}:${s.value}`;
        const known = weights.get(key);
        if (known) known.weight += sign * b.amount;
        else if (weights.size < MAX_WEIGHTED_FILTERS) weights.set(key, { key: s.key, values: [s.value], weight: sign * b.amount });
        else {
          did.push(`${kind} ${b.filter} skipped: ${MAX_WEIGHTED_FILTERS} selections already weighted`);
          continue;
        }
        did.push(`${kind === "boost" ? "boosts" : "buries"} ${b.filter} by ${b.amount}`);
      }
    }
    for (const f of q.filters ?? []) selections.push(facetSelection(f, true)!);
    if (q.filters?.length) did.push(`filters ${q.filters.join(", ")}`);
    for (const r of q.replaceWords ?? []) {
      const [word] = ruleWords(r.word);
      if (!words.includes(word!)) continue;
      words = words.flatMap((w) => (w === word ? ruleWords(r.with) : [w]));
      edited = true;
      did.push(`replaces "${word}" with "${r.with}"`);
    }
    for (const w of q.removeWords ?? []) {
      const [word] = ruleWords(w);
      if (!words.includes(word!)) continue;
      words = words.filter((x) => x !== word);
      edited = true;
      did.push(`removes "${word}"`);
    }
    if (q.redirect !== undefined) {
      if (effects.redirect === undefined) {
        effects.redirect = q.redirect;
        did.push(`redirects to ${q.redirect}`);
      } else did.push(`redirect to ${q.redirect} not used: a more specific rule redirects`);
    }
    if (q.userData?.length) {
      effects.userData.push(...q.userData);
      did.push(`adds ${q.userData.length} userData`);
    }
    effects.fired.push({ id: rule.id, effects: did });
  }
  effects.pins = effects.pins.filter((p) => !hidden.has(p.productId));
  effects.hide = [...hidden];
  effects.weighted = [...weights.values()].filter((w) => w.weight !== 0);
  effects.filters = toEngineFilters(selections);
  if (edited) effects.query = words.join(" ");
  return effects;
}
