import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { EngineDocument, EngineFilter, EngineSearchRequest, EngineSort } from "../src/engine/types.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * What keeps a broad search cheap on a large store must not change an answer: a relevance-sorted page stops scoring
 * once enough matches have the best score any can have (only while the matches come in slot order), a store's
 * facet values are held in 16 bits until it has more than 65,536 of them, and a document's values are in a row of
 * its own unless they are more than the row holds.
 */

let dataDir: string;
let engine: SqliteEngine;

beforeAll(() => {
  dataDir = tempDir("sfs-search-shortcuts-");
  engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
});

afterAll(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function doc(i: number, over: Partial<EngineDocument["text"]> = {}, version = 1): EngineDocument {
  // A third of the documents say "shirt" in the name, a third in the brand, the rest only in the description or
  // (every seventh) nowhere.
  const where = i % 3;
  return {
    id: `p${i}`,
    version,
    text: {
      name: where === 0 ? `blue shirt ${i}` : `blue top ${i}`,
      brand: where === 1 ? "shirt works" : "acme",
      categories: i % 4 === 0 ? ["shirts"] : [],
      features: [],
      tags: [],
      description: where === 2 && i % 7 === 6 ? "plain" : "a shirt for every day",
      identifiers: [`p${i}`],
      ...over,
    },
    facets: { color: [i % 2 ? "Blue" : "Red"] },
    numbers: { price_min: i % 10 },
    sortText: {},
  };
}

function request(over: Partial<EngineSearchRequest>): EngineSearchRequest {
  return {
    text: "shirt",
    matching: { typos: false, prefixLast: false },
    filters: [],
    facets: ["color"],
    rangeFacets: [],
    sort: [{ kind: "relevance" }],
    offset: 0,
    limit: 10,
    ...over,
  };
}

/** Every page of a search is the slice of the whole order, which scores and compares every match. */
async function expectPagesSliceTheWholeOrder(store: string, text: string, sort: EngineSort[] = [{ kind: "relevance" }]): Promise<string[]> {
  const whole = await engine.search(store, request({ text, sort, limit: 10_000 }));
  const order = whole.hits.map((h) => h.id);
  expect(order).toHaveLength(whole.total);
  for (const limit of [1, 7, 30, 120])
    for (const offset of [0, 3, 29, 100, whole.total - 2]) {
      const page = await engine.search(store, request({ text, sort, offset, limit }));
      expect(page.hits, `"${text}", offset ${offset}, limit ${limit}`).toEqual(whole.hits.slice(offset, offset + limit));
      expect(page.total).toBe(whole.total);
      expect(page.facets).toEqual(whole.facets);
    }
  const counted = await engine.search(store, request({ text, sort, limit: 0 }));
  expect([counted.total, counted.hits, counted.facets]).toEqual([whole.total, [], whole.facets]);
  return order;
}

describe("a relevance-sorted page that stops scoring early", () => {
  const STORE = "relevance";

  test("is the slice of the whole order, in a store written in slot order", async () => {
    await engine.upsert(
      STORE,
      Array.from({ length: 600 }, (_, i) => doc(i)),
    );
    const order = await expectPagesSliceTheWholeOrder(STORE, "shirt");
    // The name's matches first, in the order they were written; the brand's next.
    expect(order.slice(0, 3)).toEqual(["p0", "p3", "p6"]);
    expect(order[200]).toBe("p1");
    await expectPagesSliceTheWholeOrder(STORE, "blue shirt");
  });

  test("matches that tie on a preference or a price are chosen by relevance, then slot", async () => {
    const red: EngineFilter = { kind: "terms", key: "color", values: ["Red"] };
    for (const sort of [
      [{ kind: "prefer", filters: [red] }, { kind: "relevance" }],
      [{ kind: "number", field: "price_min", order: "asc" }, { kind: "relevance" }],
      [{ kind: "pinned", ids: ["p5", "p1"] }, { kind: "relevance" }],
    ] as EngineSort[][]) {
      const order = await expectPagesSliceTheWholeOrder(STORE, "shirt", sort);
      expect(order.length, JSON.stringify(sort)).toBeGreaterThan(500);
    }
    const preferred = await expectPagesSliceTheWholeOrder(STORE, "shirt", [{ kind: "prefer", filters: [red] }, { kind: "relevance" }]);
    // Red documents first (even numbers), the name's matches among them first.
    expect(preferred.slice(0, 3)).toEqual(["p0", "p6", "p12"]);
  });

  test("stays the slice after documents are rewritten out of slot order and deleted", async () => {
    // A document that gains the word joins its list after the others: the matches no longer come in slot order.
    await engine.upsert(STORE, [doc(41, { name: "shirt of the day" }, 2), doc(599, { name: "shirt" }, 2), doc(4, { name: "top" }, 2)]);
    await engine.remove(STORE, ["p0", "p9"]);
    const order = await expectPagesSliceTheWholeOrder(STORE, "shirt");
    expect(order.slice(10, 14)).toEqual(["p36", "p39", "p41", "p42"]);
    expect(order.indexOf("p599")).toBeLessThan(order.indexOf("p1"));
    expect(order).not.toContain("p0");
  });

  test("puts an identifier match first, above every text score", async () => {
    await engine.upsert(STORE, [doc(450, { identifiers: ["p450", "shirt"] }, 3)]);
    const order = await expectPagesSliceTheWholeOrder(STORE, "shirt");
    expect(order[0]).toBe("p450");
  });
});

describe("facet values past 65,536", () => {
  const STORE = "values";
  /** Each document has 2,000 values of its own, so that the store numbers 72,000 values by the last one. */
  const many = (i: number): EngineDocument => ({
    ...doc(i),
    facets: {
      color: [i < 20 ? "Red" : "Blue"],
      sku: Array.from({ length: 2000 }, (_, v) => `sku-${i}-${v}`),
    },
  });

  test("count and filter the same before and after the store's lists widen", async () => {
    await engine.upsert(
      STORE,
      Array.from({ length: 30 }, (_, i) => many(i)),
    );
    const before = await engine.search(STORE, request({ text: "", facets: ["color"], limit: 100 }));
    expect(before.facets.color).toEqual([
      { value: "Red", count: 20 },
      { value: "Blue", count: 10 },
    ]);
    // Past 65,536 values: the 33rd document's values and later are numbered above 16 bits.
    await engine.upsert(
      STORE,
      Array.from({ length: 6 }, (_, i) => many(30 + i)),
    );
    const after = await engine.search(STORE, request({ text: "", facets: ["color"], limit: 100 }));
    expect(after.facets.color).toEqual(
      [
        { value: "Blue", count: 16 },
        { value: "Red", count: 20 },
      ].sort((a, b) => b.count - a.count),
    );
    const numbered: [string, string][] = [
      ["sku-0-0", "p0"],
      ["sku-31-1999", "p31"],
      ["sku-35-1999", "p35"],
    ];
    for (const [value, id] of numbered) {
      const found = await engine.search(
        STORE,
        request({ text: "", filters: [{ kind: "terms", key: "sku", values: [value] }], facets: ["sku", "color"] }),
      );
      expect(
        found.hits.map((h) => h.id),
        value,
      ).toEqual([id]);
      expect(found.facets.color, value).toEqual([{ value: id === "p0" ? "Red" : "Blue", count: 1 }]);
      // The key's own selection leaves its counts to the other filters: every value of the store, once each.
      expect(found.facets.sku, value).toHaveLength(72_000);
      expect(found.facets.sku!.find((f) => f.value === value)?.count, value).toBe(1);
    }
    // A document written before the widening is rewritten after it.
    await engine.upsert(STORE, [{ ...many(1), version: 2, facets: { color: ["Blue"], sku: ["sku-1-new"] } }]);
    const rewritten = await engine.search(STORE, request({ text: "", facets: ["color"], limit: 100 }));
    expect(rewritten.facets.color).toEqual([
      { value: "Red", count: 19 },
      { value: "Blue", count: 17 },
    ]);
    const gone = await engine.search(STORE, request({ text: "", filters: [{ kind: "terms", key: "sku", values: ["sku-1-5"] }] }));
    expect(gone.total).toBe(0);
  });
});

describe("facet values past a row's length (facet-rows.ts)", () => {
  const STORE = "rows";

  /** A document with `sizes` size values and one colour: more than a row holds (31) from 31 sizes on. */
  function sized(i: number, sizes: number, colour: string, version: number): EngineDocument {
    return {
      id: `p${i}`,
      version,
      text: { name: `shirt ${i}`, brand: "acme", categories: [], features: [], tags: [], description: "", identifiers: [`p${i}`] },
      facets: { color: [colour], size: Array.from({ length: sizes }, (_, s) => `s${s}`) },
      numbers: {},
      sortText: {},
    };
  }

  const countOf = (facets: Record<string, { value: string; count: number }[]>, key: string, value: string) =>
    facets[key]?.find((f) => f.value === value)?.count ?? 0;

  test("counts and filters follow a document whose values move between its row and a list of their own", async () => {
    await engine.upsert(STORE, [sized(0, 40, "Red", 1), sized(1, 2, "Blue", 1), sized(2, 3, "Blue", 1)]);
    let found = await engine.search(STORE, request({ facets: ["color", "size"], limit: 50 }));
    expect(countOf(found.facets, "size", "s39")).toBe(1);
    expect(countOf(found.facets, "size", "s0")).toBe(3);
    expect(countOf(found.facets, "color", "Red")).toBe(1);

    // The long document becomes short and a short one long.
    await engine.upsert(STORE, [sized(0, 1, "Red", 2), sized(1, 35, "Blue", 2)]);
    found = await engine.search(STORE, request({ facets: ["color", "size"], limit: 50 }));
    expect(countOf(found.facets, "size", "s39")).toBe(0);
    expect(countOf(found.facets, "size", "s34")).toBe(1);
    expect(countOf(found.facets, "size", "s1")).toBe(2);
    expect(countOf(found.facets, "size", "s0")).toBe(3);

    // A selection on a value only a long list holds, and the key's own counts left to the other filters.
    found = await engine.search(
      STORE,
      request({ facets: ["color", "size"], limit: 50, filters: [{ kind: "terms", key: "size", values: ["s34"] }] }),
    );
    expect(found.hits.map((h) => h.id)).toEqual(["p1"]);
    expect(found.facets.color).toEqual([{ value: "Blue", count: 1 }]);
    expect(countOf(found.facets, "size", "s0")).toBe(3);

    // A selection on the colour: documents that fail it still count for colours, from a long list too.
    found = await engine.search(
      STORE,
      request({ facets: ["color", "size"], limit: 50, filters: [{ kind: "terms", key: "color", values: ["Red"] }] }),
    );
    expect(found.hits.map((h) => h.id)).toEqual(["p0"]);
    expect(found.facets.color).toEqual([
      { value: "Blue", count: 2 },
      { value: "Red", count: 1 },
    ]);

    await engine.remove(STORE, ["p1"]);
    found = await engine.search(STORE, request({ facets: ["color", "size"], limit: 50 }));
    expect(countOf(found.facets, "size", "s34")).toBe(0);
    expect(countOf(found.facets, "size", "s0")).toBe(2);
    expect(countOf(found.facets, "color", "Blue")).toBe(1);
  });
});
