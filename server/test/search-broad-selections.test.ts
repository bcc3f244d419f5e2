import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { SlotMemo } from "../src/engine/sqlite/slot-memo.ts";
import type { EngineDocument, EngineFilter, EngineSearchRequest, EngineSearchResult, EngineSort } from "../src/engine/types.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * A search without text whose filters are broad selections of one key ("men" read as a gender, "men women") reads
 * the selections' bytes per slot instead of passing every document through the filters, keeps a single
 * selection's facet counts and range buckets until the index changes, and stops choosing its page once it holds
 * enough documents with the best preference. Every answer must be the one the general pass gives: the same
 * search with a word every document has goes through it.
 */

let dataDir: string;
let engine: SqliteEngine;
const STORE = "broad";
const EVERY = "item";

beforeAll(() => {
  dataDir = tempDir("sfs-broad-selections-");
  engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
});

afterAll(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const GENDERS = ["Men", "Women", "Unisex"];

function doc(i: number, gender = GENDERS[i % 3]!, version = 1, price: number | undefined = (i * 7) % 300): EngineDocument {
  return {
    id: `p${i}`,
    version,
    text: { name: `${EVERY} ${i}`, brand: "acme", categories: [], features: [], tags: [], description: "", identifiers: [`p${i}`] },
    facets: { gender: [gender], ageGroup: [i % 5 === 0 ? "Kids" : "Adults"], colour: [i % 4 === 0 ? "Red" : "Blue"] },
    numbers: price === undefined ? {} : { price_min: price },
    sortText: {},
  };
}

const men: EngineFilter = { kind: "terms", key: "gender", values: ["Men", "Unisex"] };
const women: EngineFilter = { kind: "terms", key: "gender", values: ["Women", "Unisex"] };
const notKids: EngineFilter = { kind: "excludeTerms", key: "gender", values: ["Unisex"] };
const adults: EngineFilter = { kind: "terms", key: "ageGroup", values: ["Adults"] };
const red: EngineFilter = { kind: "terms", key: "colour", values: ["Red"] };
const notRed: EngineFilter = { kind: "excludeTerms", key: "colour", values: ["Red"] };
const cheap: EngineFilter = { kind: "range", field: "price_min", min: 0, max: 100 };
const SELECTIONS: EngineFilter[][] = [
  [men],
  [women],
  [men, women],
  [men, notKids],
  [notKids],
  // A selection and a second filter, the only one of its group (a key, its exclusion, a price range).
  [women, red],
  [red, women],
  [men, notRed],
  [women, cheap],
  [cheap, notKids],
  [red, adults],
  // Two filters of the second group, or a third group: the general pass's way.
  [women, red, notRed],
  [women, red, cheap],
];
const SORTS: EngineSort[][] = [
  [{ kind: "prefer", filters: [adults] }, { kind: "relevance" }],
  [{ kind: "relevance" }],
  [{ kind: "number", field: "price_min", order: "asc" }, { kind: "relevance" }],
];

function request(filters: EngineFilter[], sort: EngineSort[], over: Partial<EngineSearchRequest> = {}): EngineSearchRequest {
  return {
    text: "",
    matching: { typos: false, prefixLast: false },
    filters,
    facets: ["gender", "ageGroup", "colour"],
    rangeFacets: [{ field: "price_min", maxBuckets: 5 }],
    sort,
    offset: 0,
    limit: 10,
    ...over,
  };
}

/** What a search answers apart from its scores (a text match scores above 0, no text scores 0). */
const unscored = (r: EngineSearchResult) => ({ ...r, hits: r.hits.map((h) => h.id) });

/** Each selection and sort, on several pages, answers as the general pass does (a word every document has). */
async function expectTheGeneralPassAnswers(): Promise<void> {
  for (const filters of SELECTIONS)
    for (const sort of SORTS)
      for (const [offset, limit] of [
        [0, 10],
        [7, 30],
        [0, 0],
        [150, 40],
      ] as const) {
        const label = `${JSON.stringify(filters)} ${JSON.stringify(sort)} ${offset}+${limit}`;
        // Twice: the second reads what the first kept.
        for (let round = 0; round < 2; round++) {
          const broad = await engine.search(STORE, request(filters, sort, { offset, limit }));
          const general = await engine.search(STORE, request(filters, sort, { offset, limit, text: EVERY }));
          expect(unscored(broad), label).toEqual(unscored(general));
        }
      }
}

describe("broad selections of one key without text", () => {
  test("answer as the general pass does", async () => {
    await engine.upsert(
      STORE,
      Array.from({ length: 300 }, (_, i) => doc(i)),
    );
    await expectTheGeneralPassAnswers();
    const both = await engine.search(STORE, request([men, women], SORTS[0]!, { limit: 300 }));
    expect(both.total).toBe(100);
    // The key's counts are the store's: every gender, though only unisex documents match both.
    expect(both.facets.gender).toEqual([
      { value: "Men", count: 100 },
      { value: "Unisex", count: 100 },
      { value: "Women", count: 100 },
    ]);
    // Adults first (no multiple of five), then slot order.
    expect(both.hits.slice(0, 3).map((h) => h.id)).toEqual(["p2", "p8", "p11"]);
  });

  test("follow documents added, rewritten into another value, given new prices and deleted", async () => {
    const kept = await engine.search(STORE, request([men], SORTS[0]!));
    await engine.upsert(STORE, [doc(300, "Men"), doc(301, "Women"), doc(0, "Women", 2), doc(4, "Men", 2, 5000)]);
    const added = await engine.search(STORE, request([men], SORTS[0]!));
    // p300 and p4 join the selection, p0 leaves it.
    expect(added.total).toBe(kept.total + 1);
    expect(added.facets.gender!.find((f) => f.value === "Women")?.count).toBe(101);
    expect(added.ranges.price_min!.at(-1)!.ub).toBeGreaterThan(5000);
    await expectTheGeneralPassAnswers();

    // A price change alone leaves the selection's masks and counts as they are, not its price ranges.
    await engine.setNumbers(STORE, [{ id: "p4", numbers: { price_min: null } }]);
    const repriced = await engine.search(STORE, request([men], SORTS[0]!));
    expect(repriced.ranges.price_min!.at(-1)!.ub).toBeLessThan(5000);
    await expectTheGeneralPassAnswers();
    await engine.remove(STORE, ["p1", "p2", "p300"]);
    const removed = await engine.search(STORE, request([men], SORTS[0]!, { limit: 300 }));
    expect(removed.hits.map((h) => h.id)).not.toContain("p2");
    expect(removed.ranges.price_min!.at(-1)!.ub).toBeLessThan(5000);
    expect(removed.total).toBe(added.total - 2);
    await expectTheGeneralPassAnswers();
  });

  test("a selection that matches nothing, or a key the store does not have", async () => {
    const none = await engine.search(STORE, request([{ kind: "terms", key: "gender", values: ["Nobody"] }], SORTS[0]!));
    expect([none.total, none.hits, none.ranges]).toEqual([0, [], {}]);
    expect(none.facets.gender!.length).toBe(3);
    const unknown = await engine.search(STORE, request([{ kind: "excludeTerms", key: "fit", values: ["Slim"] }], SORTS[0]!));
    const all = await engine.search(STORE, request([], SORTS[0]!));
    expect(unscored(unknown)).toEqual(unscored(all));
  });
});

describe("SlotMemo", () => {
  test("holds a round's values only for that round, through growing", () => {
    const memo = new SlotMemo();
    const first = memo.begin(10);
    first.values[3] = 1.5;
    first.stamps[3] = first.round;
    const second = memo.begin(10);
    expect(second.stamps[3]).not.toBe(second.round);
    second.values[3] = 2;
    second.stamps[3] = second.round;
    expect(second.values[3]).toBe(2);
    const grown = memo.begin(5000);
    expect(grown.values.length).toBeGreaterThanOrEqual(5000);
    expect(grown.stamps.subarray(0, 5000).every((stamp) => stamp !== grown.round)).toBe(true);
    expect(memo.memoryBytes()).toBeGreaterThanOrEqual(5000 * 12);
  });
});
