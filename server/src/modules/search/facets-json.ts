import type { Facet } from "./facet-display.ts";

/*
 * Facets as JSON text. A search answer lists up to 200 values per facet, about 600 in all (33 KB), and
 * JSON.stringify of them took 180-300 µs per answer, a tenth of the server's time outside the engine. A value's
 * text but its count is the same in every answer, so it is written once and kept (per facet key and value), and
 * an answer writes only the counts: 95-160 µs for the same facets. The text is what JSON.stringify gives.
 */

/** Value texts kept; a store has a few thousand facet values, so this is only a bound. */
const MAX_KEPT = 50_000;
/** `{"key":…,"name":…,"count":` by facet key, then value key, with the name it was written for. */
const kept = new Map<string, Map<string, { name: string; head: string }>>();
let keptCount = 0;

export function facetsJson(facets: readonly Facet[]): string {
  return `[${facets.map(facetJson).join(",")}]`;
}

function facetJson(facet: Facet): string {
  const { values, ...head } = facet;
  let byValue = kept.get(facet.key);
  if (!byValue) kept.set(facet.key, (byValue = new Map()));
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    // Range values (lb, ub) vary with the answer: written whole.
    if (value.lb !== undefined || value.ub !== undefined || value.name === undefined) {
      parts[i] = JSON.stringify(value);
      continue;
    }
    let text = byValue.get(value.key);
    if (text?.name !== value.name) {
      if (keptCount >= MAX_KEPT) clear();
      text = { name: value.name, head: `{"key":${JSON.stringify(value.key)},"name":${JSON.stringify(value.name)},"count":` };
      byValue.set(value.key, text);
      keptCount++;
    }
    parts[i] = `${text.head}${value.count}}`;
  }
  const headJson = JSON.stringify(head);
  return `${headJson.length > 2 ? `${headJson.slice(0, -1)},` : "{"}"values":[${parts.join(",")}]}`;
}

function clear(): void {
  kept.clear();
  keptCount = 0;
}
