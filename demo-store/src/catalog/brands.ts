/*
 * Brand vocabulary. styles.csv has no brand column: the brand is the leading word(s) of the name, usually
 * followed by the gender word ("Peter England Men Party Blue Jeans"). Multi-word brands are learned from
 * (a) Myntra's ProductBrand column and (b) prefixes that recur before the gender word in styles.csv.
 * Sub-lines collapse to the shortest known brand ("Jockey ELANCE" -> "Jockey", "Peter England Elite" ->
 * "Peter England"), so one brand is one facet value.
 */

import { cleanLabel, titleCase } from "./text.ts";

/** Words that end the brand part of a styles.csv / Myntra name. */
const AUDIENCE_WORD = /^(?:men|women|boys|girls|unisex|kids|kid's|men's|women's|boy's|girl's|mens|womens|infant|infants|teens)$/i;

/** Brands longer than this (in words) are more likely a phrase than a brand. */
const MAX_BRAND_WORDS = 5;

/**
 * Spelling-insensitive brand identity: "Gini & Jony", "Gini and Jony" and "Gini Jony" are one brand;
 * "U.S.Polo Assn." and "U.S. Polo Assn." too.
 */
export function brandKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[.'’]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .split(" ")
    .filter((w) => w !== "" && w !== "and")
    .join("");
}

export interface BrandInput {
  /** Myntra ProductBrand values, one per product (repeats count as votes for the spelling). */
  knownBrands: Iterable<string>;
  /** styles.csv productDisplayName values. */
  styleNames: Iterable<string>;
}

export class BrandLexicon {
  /** brand key -> spelling -> votes */
  private readonly spellings = new Map<string, Map<string, number>>();
  private readonly accepted = new Set<string>();
  private readonly display = new Map<string, string>();

  constructor(input: BrandInput) {
    const prefixCounts = new Map<string, number>();
    for (const raw of input.knownBrands) {
      const b = cleanLabel(raw);
      if (b === "") continue;
      this.vote(b);
      this.accepted.add(brandKey(b));
    }
    for (const raw of input.styleNames) {
      const prefix = audiencePrefix(cleanLabel(raw).split(" "));
      if (!prefix) continue;
      const p = prefix.join(" ");
      this.vote(p);
      const k = brandKey(p);
      prefixCounts.set(k, (prefixCounts.get(k) ?? 0) + 1);
    }
    // One occurrence may be a product phrase ("Formula 1 Go Men ..."); two or more is a naming habit.
    for (const [k, n] of prefixCounts) if (n >= 2) this.accepted.add(k);
    for (const [k, votes] of this.spellings) {
      const best = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))[0]!;
      this.display.set(k, best[0]);
    }
  }

  private vote(spelling: string): void {
    const k = brandKey(spelling);
    if (k === "") return;
    let votes = this.spellings.get(k);
    if (!votes) this.spellings.set(k, (votes = new Map()));
    votes.set(spelling, (votes.get(spelling) ?? 0) + 1);
  }

  /** The most common spelling of a brand across the data sets; title case for brands never seen. */
  canonical(brand: string): string {
    const b = cleanLabel(brand);
    const known = this.display.get(brandKey(b));
    if (known !== undefined) return known;
    return b === b.toLowerCase() ? titleCase(b) : b;
  }

  isKnown(brand: string): boolean {
    return this.accepted.has(brandKey(brand));
  }

  /**
   * Brand of a product name whose brand comes first. Returns the brand and the number of words it spans
   * in the name, or null for an empty name.
   */
  extractFromName(name: string): { brand: string; words: number } | null {
    const words = cleanLabel(name).split(" ");
    if (words[0] === "") return null;
    const prefix = audiencePrefix(words);
    const scope = prefix ?? words.slice(0, MAX_BRAND_WORDS);
    // Shortest known brand first: sub-lines and descriptors after the brand are not part of it.
    for (let n = 1; n <= scope.length; n++) {
      const candidate = scope.slice(0, n).join(" ");
      if (this.accepted.has(brandKey(candidate))) return { brand: this.canonical(candidate), words: n };
    }
    if (prefix && prefix.length <= 3) return { brand: prefix.join(" "), words: prefix.length };
    return { brand: words[0]!, words: 1 };
  }
}

/** The words before the first audience word, if that word comes early enough to follow a brand. */
function audiencePrefix(words: string[]): string[] | null {
  for (let i = 1; i < words.length && i <= MAX_BRAND_WORDS; i++) {
    if (AUDIENCE_WORD.test(words[i]!)) return words.slice(0, i);
  }
  return null;
}

/** Index of the first audience word in a name (the colour usually follows it), or -1. */
export function audienceWordIndex(words: string[]): number {
  return words.findIndex((w) => AUDIENCE_WORD.test(w));
}
