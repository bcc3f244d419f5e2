import { describe, expect, test } from "bun:test";
import type { Facet } from "../src/modules/search/facet-display.ts";
import { facetsJson } from "../src/modules/search/facets-json.ts";

/** Facets as shapeFacets and the similarity service make them: values last, price values with bounds. */
const facets = (count: number, colourName = "Navy Blue"): Facet[] => [
  {
    key: "designer",
    name: "Marke",
    shownValues: 8,
    values: [
      { key: "Nike", name: "Nike", count },
      { key: 'Quote " and \\ back', name: 'Quote " and \\ back', count: count + 1 },
      { key: "Zürich – Ünïcode ✓", name: "Zürich – Ünïcode ✓", count: 0 },
      { key: "line\nbreak\u0001", name: "line\nbreak\u0001", count: 3 },
    ],
  },
  { key: "color", name: "Colour", shownValues: 5, values: [{ key: "navy-blue", name: colourName, count: 2 }] },
  { key: "price", name: "Price", shownValues: 6, values: [{ key: "0-500", name: "0 – 500", count: 9, lb: 0, ub: 500 }] },
  { key: "empty", name: "Empty", values: [] },
];

describe("facetsJson", () => {
  test("writes what JSON.stringify writes, answer after answer, as counts and names change", () => {
    for (const [count, name] of [[12, "Navy Blue"], [7, "Navy Blue"], [7, "Marineblau"], [1_000_000, "Navy Blue"]] as const) {
      const answer = facets(count, name);
      expect(facetsJson(answer)).toBe(JSON.stringify(answer));
    }
  });

  test("no facets is an empty array", () => {
    expect(facetsJson([])).toBe("[]");
  });
});
