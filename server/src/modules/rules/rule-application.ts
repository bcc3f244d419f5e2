import type { EngineFilter, EngineSearchRequest, EngineSearchResult, EngineSort, FacetCount, SearchEngine } from "../../engine/types.ts";
import type { RuleEffects } from "./rule-book.ts";

/*
 * How rules change one search, engine-neutral so both engines behave alike. The engine never sees a pin: pinned
 * and hidden products are excluded from its result (the organic list), and the pinned ones that pass the
 * request's filters are laid over that list at their positions. So pages cut the whole list (page 2 never
 * repeats a pin), totals count what is shown, and behaviour ranking and personalisation, which re-rank the
 * organic list only, never move a pin.
 */

/** The request with the rules' filters, hides and weights: `relevance` when the shopper did not choose a sort. */
export function ruledRequest(request: EngineSearchRequest, effects: RuleEffects, relevance: boolean): EngineSearchRequest {
  const filters: EngineFilter[] = [...request.filters, ...effects.filters];
  if (effects.hide.length) filters.push({ kind: "excludeIds", ids: effects.hide });
  // An explicit sort (price, newness) is the shopper's choice: weights only reorder the relevance order.
  const sort: EngineSort[] =
    relevance && effects.weighted.length ? [{ kind: "weighted", filters: effects.weighted }, ...request.sort] : request.sort;
  return { ...request, filters, sort };
}

/**
 * Pinned products placed over the organic list. Pins are laid by position, ties in rule order, a pin whose
 * position is taken going to the next free one; a position past the end of the list puts the pin at the end.
 */
export class PinLayout {
  /** Pins in placement order, each with the 0-based index it asks for. */
  private readonly wanted: { id: string; index: number }[];

  private constructor(
    ids: { id: string; position: number }[],
    /** The pins' facet counts, as the engine counted them for the request. */
    readonly facets: EngineSearchResult["facets"],
  ) {
    const sorted = ids.map((p, order) => ({ ...p, order })).sort((a, b) => a.position - b.position || a.order - b.order);
    let previous = -1;
    this.wanted = sorted.map((p) => {
      previous = Math.max(p.position - 1, previous + 1);
      return { id: p.id, index: previous };
    });
  }

  /**
   * The rules' pins that are shown: products the store still has that pass the request's filters (the shopper's
   * facets and collection, the rules' own filters and hides). A pin need not match the query's words. The same
   * engine search counts the pins' facet values as the request counts them (disjunctively), for countPins().
   */
  static async of(
    engine: Pick<SearchEngine, "search">,
    storeId: string,
    request: EngineSearchRequest,
    effects: RuleEffects,
  ): Promise<PinLayout | null> {
    if (effects.pins.length === 0) return null;
    const shown = await engine.search(storeId, {
      text: "",
      matching: request.matching,
      filters: [...request.filters, { kind: "ids", ids: effects.pins.map((p) => p.productId) }],
      facets: request.facets,
      rangeFacets: [],
      sort: [],
      offset: 0,
      limit: effects.pins.length,
    });
    const found = new Set(shown.hits.map((h) => h.id));
    return new PinLayout(
      effects.pins.filter((p) => found.has(p.productId)).map((p) => ({ id: p.productId, position: p.position })),
      shown.facets,
    );
  }

  get ids(): string[] {
    return this.wanted.map((p) => p.id);
  }

  /** Each pin's index once the organic list's length is known (Infinity: not yet). */
  private indexes(organicTotal: number): number[] {
    return this.wanted.map((p, k) => Math.min(p.index, organicTotal + k));
  }

  /** The slice of the organic list that page [from, from + size) shows beside its pins. */
  organicPage(from: number, size: number, organicTotal = Infinity): { from: number; size: number } {
    const at = this.indexes(organicTotal);
    const before = at.filter((i) => i < from).length;
    const inside = at.filter((i) => i >= from && i < from + size).length;
    return { from: from - before, size: size - inside };
  }

  /** Page [from, from + size) of the whole list: `organic` is the organic slice organicPage() named. */
  page(from: number, size: number, organicTotal: number, organic: readonly string[]): { ids: string[]; pinned: string[] } {
    const at = this.indexes(organicTotal);
    const ids: string[] = [];
    const pinned: string[] = [];
    let next = 0;
    for (let index = from; index < from + size; index++) {
      const k = at.indexOf(index);
      if (k >= 0) {
        ids.push(this.wanted[k]!.id);
        pinned.push(this.wanted[k]!.id);
      } else if (next < organic.length) ids.push(organic[next++]!);
      else if (index >= organicTotal + this.wanted.length) break;
    }
    return { ids, pinned };
  }

  get count(): number {
    return this.wanted.length;
  }
}

const byCount = (a: FacetCount, b: FacetCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

/**
 * The organic result's facet counts with the pins' added (the organic result leaves the pins out, so the sums
 * are exact), range buckets by the shown pins' numbers: a pinned product counts in facets like any result.
 */
export function countPins(result: EngineSearchResult, pins: PinLayout, numbers: readonly Record<string, number>[]): EngineSearchResult {
  const facets = { ...result.facets };
  for (const [key, counts] of Object.entries(pins.facets)) {
    if (counts.length === 0) continue;
    // A key can hold thousands of values and the pins a few: the changed ones move up into place.
    const added = new Map(counts.map((c) => [c.value, c.count]));
    const merged = [...(facets[key] ?? [])];
    const moved: number[] = [];
    merged.forEach((c, i) => {
      const more = added.get(c.value);
      if (more === undefined) return;
      merged[i] = { value: c.value, count: c.count + more };
      added.delete(c.value);
      moved.push(i);
    });
    for (const [value, count] of added) moved.push(merged.push({ value, count }) - 1);
    for (let i of moved) {
      const entry = merged[i]!;
      for (; i > 0 && byCount(merged[i - 1]!, entry) > 0; i--) merged[i] = merged[i - 1]!;
      merged[i] = entry;
    }
    facets[key] = merged;
  }
  const ranges = { ...result.ranges };
  for (const [field, buckets] of Object.entries(ranges)) {
    ranges[field] = buckets.map((b) => ({
      ...b,
      count: b.count + numbers.filter((n) => (n[field] ?? NaN) >= b.lb && (n[field] ?? NaN) < b.ub).length,
    }));
  }
  return { ...result, facets, ranges };
}
