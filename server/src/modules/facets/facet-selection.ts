import type { EngineFilter } from "../../engine/types.ts";
import { ValidationError } from "../../errors.ts";
import { exclusionOf, splitFacetParam, type FacetSelection } from "@storefront-search/contract";
import { isTermFacetKey, PRICE_FACET } from "./facet-keys.ts";

export type { FacetSelection };

/*
 * The `facets` parameter: comma-separated key:value pairs, e.g. "designer:Nike,designer:Puma,price:500-1000".
 * Values of one key are OR, different keys AND. A value holding a comma or backslash escapes it with a
 * backslash ("designer:Marks\, Spencer"). Price is a range "lb-ub" (either bound may be empty). A `!` before
 * the key excludes a value ("!designer:Nike"): every exclusion holds (AND), beside the key's selection if any.
 */

const MAX_SELECTIONS = 100;

const invalid = (problem: string) => new ValidationError(`Invalid facets parameter: ${problem}`, [{ path: "query.facets", problem }]);

export function parseFacetSelections(param: string | undefined): FacetSelection[] {
  if (!param?.trim()) return [];
  const selections: FacetSelection[] = [];
  for (const written of splitFacetParam(param)) {
    if (!written.trim()) continue;
    const { exclude, pair: raw } = exclusionOf(written);
    const colon = raw.indexOf(":");
    if (colon <= 0 || colon === raw.length - 1) throw invalid(`"${written.slice(0, 80)}" is not key:value${exclude ? " after its !" : ""}`);
    const key = raw.slice(0, colon).trim();
    const value = raw.slice(colon + 1).trim();
    if (key !== PRICE_FACET && !isTermFacetKey(key)) throw invalid(`unknown facet key "${key.slice(0, 64)}"`);
    if (exclude && key === PRICE_FACET) throw invalid(`"${written.slice(0, 80)}": a price range cannot be excluded`);
    selections.push(exclude ? { key, value, exclude } : { key, value });
  }
  if (selections.length > MAX_SELECTIONS) throw invalid(`at most ${MAX_SELECTIONS} selections`);
  return selections;
}

function priceRange(value: string): { min?: number; max?: number } {
  const m = /^(\d+(?:\.\d+)?)?-(\d+(?:\.\d+)?)?$/.exec(value);
  if (!m || (m[1] === undefined && m[2] === undefined)) throw invalid(`price must be a range "lb-ub", got "${value.slice(0, 40)}"`);
  const range = { min: m[1] === undefined ? undefined : Number(m[1]), max: m[2] === undefined ? undefined : Number(m[2]) };
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) throw invalid(`price range ${value} is empty`);
  return range;
}

/**
 * Engine filters: one terms filter per key (its values OR-ed), one excludeTerms filter per key with exclusions,
 * price as a range on the lowest price.
 */
export function toEngineFilters(selections: readonly FacetSelection[]): EngineFilter[] {
  const byKey = new Map<string, string[]>();
  const excludedByKey = new Map<string, string[]>();
  const filters: EngineFilter[] = [];
  for (const s of selections) {
    if (s.key === PRICE_FACET) filters.push({ kind: "range", field: "price_min", ...priceRange(s.value) });
    else {
      const into = s.exclude ? excludedByKey : byKey;
      into.set(s.key, [...(into.get(s.key) ?? []), s.value]);
    }
  }
  for (const [key, values] of byKey) filters.push({ kind: "terms", key, values });
  for (const [key, values] of excludedByKey) filters.push({ kind: "excludeTerms", key, values });
  return filters;
}
