import type { FilterList } from "./algolia-shapes.ts";
import type { Comparison, FilterSet } from "./filter-set.ts";
import { UnsupportedSearchError } from "./unsupported.ts";

/*
 * facetFilters and numericFilters as InstantSearch sends them: strings are AND, a nested array's strings are OR.
 * "brand:Nike" selects a value; "brand:-Nike" excludes one ("\-" keeps a value's own leading dash). An OR group
 * holds values of one attribute, none of them excluded: the service's selections are OR within a key and AND
 * across keys, and it has no OR across keys. "price>=10" compares; an OR of comparisons cannot be searched.
 */

function groups(list: FilterList | undefined): string[][] {
  if (list === undefined) return [];
  if (typeof list === "string") return list.trim() ? [[list]] : [];
  return list
    .map((entry) => {
      if (typeof entry === "string") return [entry];
      return entry.map((inner) => {
        if (typeof inner !== "string") throw new UnsupportedSearchError("filters nested deeper than an OR group cannot be searched");
        return inner;
      });
    })
    .filter((group) => group.length > 0);
}

function facetFilter(text: string): { attribute: string; value: string; exclude: boolean } {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new UnsupportedSearchError(`facetFilters: "${text}" is not attribute:value`);
  const attribute = text.slice(0, colon).trim();
  const raw = text.slice(colon + 1);
  const exclude = raw.startsWith("-");
  return { attribute, value: exclude || raw.startsWith("\\-") ? raw.slice(1) : raw, exclude };
}

export function addFacetFilters(set: FilterSet, list: FilterList | undefined): void {
  for (const group of groups(list)) {
    const parsed = group.map(facetFilter);
    const first = parsed[0]!;
    if (parsed.length === 1 && first.exclude) {
      set.addExclusion(first.attribute, first.value);
      continue;
    }
    const refuse = (what: string) => new UnsupportedSearchError(`facetFilters: ${what} (${group.join(" OR ")}) cannot be searched`);
    if (parsed.some((p) => p.attribute !== first.attribute)) throw refuse("an OR across attributes");
    if (parsed.some((p) => p.exclude)) throw refuse("an excluded value inside an OR");
    set.addValues(
      first.attribute,
      parsed.map((p) => p.value),
    );
  }
}

const COMPARISON = /^\s*([^\s<>=!:]+)\s*(>=|<=|!=|>|<|=)\s*(-?\d+(?:\.\d+)?)\s*$/;
const BETWEEN = /^\s*([^\s<>=!:]+)\s*:\s*(-?\d+(?:\.\d+)?)\s+TO\s+(-?\d+(?:\.\d+)?)\s*$/;

/** One comparison ("price>=10") or range ("price:10 TO 20") into the set. */
export function addNumericFilter(set: FilterSet, text: string): void {
  const between = BETWEEN.exec(text);
  if (between) {
    set.addComparison(between[1]!, ">=", Number(between[2]));
    set.addComparison(between[1]!, "<=", Number(between[3]));
    return;
  }
  const m = COMPARISON.exec(text);
  if (!m) throw new UnsupportedSearchError(`numericFilters: "${text}" is not attribute<op>number`);
  set.addComparison(m[1]!, m[2] as Comparison, Number(m[3]));
}

export function addNumericFilters(set: FilterSet, list: FilterList | undefined): void {
  for (const group of groups(list)) {
    if (group.length > 1)
      throw new UnsupportedSearchError(`numericFilters: an OR of comparisons (${group.join(" OR ")}) cannot be searched`);
    addNumericFilter(set, group[0]!);
  }
}
