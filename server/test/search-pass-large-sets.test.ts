import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { EngineDocument, EngineFilter, EngineSearchRequest, EngineSort } from "../src/engine/types.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * The embedded engine picks a search's first page by selection (the page's last key by the first sort part, then
 * only the matches up to it compared), counts a lone broad selection's key over the whole store, and finds range
 * facet bounds by selection. Each page must be exactly the slice of the whole order, and each count what the
 * disjunctive rule says, through ties, documents without the sort's number, updates and deletes.
 */

const STORE = "s";
const GENDERS = ["Women", "Men", "Unisex"];
const COLORS = ["Red", "Blue", "Black"];

/** 240 documents: prices with many ties, some without a price; genders with some missing and some doubled. */
function doc(i: number, version = 1): EngineDocument {
  const gender = i % 11 === 0 ? [] : i % 13 === 0 ? ["Women", "Men"] : [GENDERS[i % 3]!];
  return {
    id: `p${i}`,
    version,
    text: {
      name: i % 4 === 0 ? "red dress" : "dress",
      brand: "",
      categories: [],
      features: [],
      tags: [],
      description: "",
      identifiers: [`p${i}`],
    },
    facets: { gender, color: [COLORS[i % 3 === 0 ? 0 : i % 5 === 0 ? 1 : 2]!], size: ["S", "M", "L"].slice(0, 1 + (i % 3)) },
    numbers: i % 17 === 0 ? {} : { price_min: 10 * (i % 7), rating_wilson: i % 9 },
    sortText: { name: `dress ${i % 5}` },
  };
}

function request(over: Partial<EngineSearchRequest>): EngineSearchRequest {
  return {
    text: "",
    matching: { typos: false, prefixLast: false },
    filters: [],
    facets: ["gender", "color", "size"],
    rangeFacets: [{ field: "price_min", maxBuckets: 4 }],
    sort: [],
    offset: 0,
    limit: 10,
    ...over,
  };
}

const SORTS: Record<string, EngineSort[]> = {
  "price ascending": [{ kind: "number", field: "price_min", order: "asc" }, { kind: "relevance" }],
  "price descending": [{ kind: "number", field: "price_min", order: "desc" }, { kind: "relevance" }],
  "price in buckets of 20, then rating": [
    { kind: "number", field: "price_min", order: "asc", bucket: { origin: 0, width: 20 } },
    { kind: "number", field: "rating_wilson", order: "desc" },
  ],
  relevance: [{ kind: "relevance" }],
  "a preference, then relevance": [{ kind: "prefer", filters: [{ kind: "terms", key: "color", values: ["Red"] }] }, { kind: "relevance" }],
  "name descending": [{ kind: "text", field: "name", order: "desc", locale: "en" }],
  pinned: [{ kind: "pinned", ids: ["p7", "p3", "p200"] }, { kind: "relevance" }],
};

let dataDir: string;
let engine: SqliteEngine;

beforeAll(async () => {
  dataDir = tempDir("sfs-large-sets-");
  engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  await engine.upsert(
    STORE,
    Array.from({ length: 240 }, (_, i) => doc(i)),
  );
});

afterAll(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every page of the request's results, of several lengths, is the slice of its whole order. */
async function expectPagesSliceTheWholeOrder(over: Partial<EngineSearchRequest>): Promise<string[]> {
  const whole = await engine.search(STORE, request({ ...over, limit: 1000 }));
  const order = whole.hits.map((h) => h.id);
  expect(order).toHaveLength(whole.total);
  for (const limit of [1, 7, 30])
    for (const offset of [0, 3, 29, whole.total - 2, whole.total, whole.total + 5]) {
      if (offset < 0) continue;
      const page = await engine.search(STORE, request({ ...over, offset, limit }));
      expect(
        page.hits.map((h) => h.id),
        `offset ${offset}, limit ${limit}`,
      ).toEqual(order.slice(offset, offset + limit));
      expect(page.total).toBe(whole.total);
      expect(page.facets).toEqual(whole.facets);
      expect(page.ranges).toEqual(whole.ranges);
    }
  return order;
}

describe("the first page of a large result set", () => {
  for (const [name, sort] of Object.entries(SORTS)) {
    test(`sorted by ${name}: every page is the slice of the whole order, with text and without`, async () => {
      await expectPagesSliceTheWholeOrder({ sort });
      await expectPagesSliceTheWholeOrder({ sort, text: "red dress" });
      await expectPagesSliceTheWholeOrder({ sort, filters: [{ kind: "terms", key: "gender", values: ["Women"] }] });
    });
  }

  test("equal prices keep slot order without text, and documents without a price come last", async () => {
    const order = await expectPagesSliceTheWholeOrder({ sort: SORTS["price ascending"] });
    const index = (id: string) => Number(id.slice(1));
    const priced = order.filter((id) => index(id) % 17 !== 0);
    // Price 0 first (i % 7 === 0), in the order the documents were written.
    expect(priced.slice(0, 5)).toEqual(["p7", "p14", "p21", "p28", "p35"]);
    expect(order.slice(priced.length)).toEqual(order.filter((id) => index(id) % 17 === 0));
    expect(order.slice(priced.length).map(index)).toEqual([0, 17, 34, 51, 68, 85, 102, 119, 136, 153, 170, 187, 204, 221, 238]);
  });

  test("pages stay slices of the whole order after prices change and documents go", async () => {
    await engine.setNumbers(STORE, [
      { id: "p1", numbers: { price_min: 0 } },
      { id: "p8", numbers: { price_min: null } },
    ]);
    await engine.remove(STORE, ["p7", "p14"]);
    await engine.upsert(STORE, [{ ...doc(21, 2), numbers: { price_min: 65, rating_wilson: 1 } }]);
    try {
      const order = await expectPagesSliceTheWholeOrder({ sort: SORTS["price ascending"] });
      expect(order.slice(0, 3)).toEqual(["p1", "p28", "p35"]);
      expect(order).not.toContain("p7");
      expect(order.indexOf("p8")).toBeGreaterThan(order.indexOf("p21"));
      expect((await expectPagesSliceTheWholeOrder({ sort: SORTS["price descending"] }))[0]).toBe("p21");
    } finally {
      await engine.upsert(STORE, [doc(1, 3), doc(7, 3), doc(8, 3), doc(14, 3), doc(21, 3)]);
    }
  });
});

describe("disjunctive counts with broad filters", () => {
  const women: EngineFilter = { kind: "terms", key: "gender", values: ["Women"] };
  const red: EngineFilter = { kind: "terms", key: "color", values: ["Red"] };
  const notBlack: EngineFilter = { kind: "excludeTerms", key: "color", values: ["Black"] };
  const cheap: EngineFilter = { kind: "range", field: "price_min", max: 30 };

  /** A key's counts with a selection on it are its counts without that selection (the other filters kept). */
  async function expectDisjunctive(filters: EngineFilter[]): Promise<void> {
    const all = await engine.search(STORE, request({ filters }));
    for (const key of ["gender", "color"]) {
      const others = filters.filter((f) => !("key" in f) || f.key !== key);
      const without = await engine.search(STORE, request({ filters: others }));
      expect(all.facets[key] ?? [], key).toEqual(without.facets[key] ?? []);
    }
    const unpriced = await engine.search(STORE, request({ filters: filters.filter((f) => f.kind !== "range") }));
    expect(all.ranges.price_min ?? [], "price").toEqual(unpriced.ranges.price_min ?? []);
  }

  test("a key's counts ignore its own selection and exclusion, with documents holding none or two of its values", async () => {
    await expectDisjunctive([women, red]);
    await expectDisjunctive([women, notBlack]);
    await expectDisjunctive([red, notBlack, women]);
    await expectDisjunctive([women, cheap]);
    const counted = await engine.search(STORE, request({ filters: [women] }));
    const gender = Object.fromEntries(counted.facets.gender!.map((f) => [f.value, f.count]));
    // Every document with a gender counts for each of its genders; the doubled ones for both.
    const docs = Array.from({ length: 240 }, (_, i) => doc(i).facets.gender!);
    for (const value of GENDERS) expect(gender[value], value).toBe(docs.filter((g) => g.includes(value)).length);
  });

  test("a store's first search with a lone selection leaves room for the next search's nearly matched documents", async () => {
    const dir = tempDir("sfs-large-sets-first-");
    const fresh = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
    try {
      await fresh.upsert(
        STORE,
        Array.from({ length: 240 }, (_, i) => doc(i)),
      );
      const alone = await fresh.search(STORE, request({ filters: [women] }));
      const both = await fresh.search(STORE, request({ filters: [women, red] }));
      const redOnly = await fresh.search(STORE, request({ filters: [red] }));
      expect(both.facets.gender).toEqual(redOnly.facets.gender!);
      expect(both.facets.color).toEqual(alone.facets.color!);
    } finally {
      await fresh.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("counts follow a document whose value of the filtered key changes, and one that goes", async () => {
    const before = await engine.search(STORE, request({ filters: [women, red] }));
    const aloneBefore = await engine.search(STORE, request({ filters: [women] }));
    const count = (r: typeof before, value: string) => r.facets.gender?.find((f) => f.value === value)?.count ?? 0;
    await engine.upsert(STORE, [{ ...doc(39, 4), facets: { ...doc(39).facets, gender: ["Men"] } }]);
    await engine.remove(STORE, ["p6"]);
    try {
      const after = await engine.search(STORE, request({ filters: [women, red] }));
      // p39 (red, both genders before) is now a man's only; p6 (red, a woman's) is gone.
      expect(count(after, "Women")).toBe(count(before, "Women") - 2);
      expect(count(after, "Men")).toBe(count(before, "Men"));
      // With the selection alone, its key counts over the whole store.
      const alone = await engine.search(STORE, request({ filters: [women] }));
      expect([count(alone, "Women"), count(alone, "Men")]).toEqual([count(aloneBefore, "Women") - 2, count(aloneBefore, "Men")]);
      await expectDisjunctive([women, red]);
    } finally {
      await engine.upsert(STORE, [doc(39, 5), doc(6, 5)]);
    }
  });
});
