import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { documentPreparer } from "./document-preparers.ts";
import type { EngineDocument, EngineFilter, EngineSearchRequest, SearchEngine } from "./types.ts";

/*
 * The behaviour every SearchEngine adapter must show, as tests over a small hand-made catalog whose right
 * answers are obvious. Each adapter's test file calls describeEngineConformance with a way to make one.
 */

export interface EngineUnderTest {
  engine: SearchEngine;
  /** A second instance over the same stored data (a restart); omit where the adapter has no local state. */
  reopen?: () => Promise<SearchEngine>;
  cleanup: () => Promise<void>;
}

type DocInput = {
  id: string;
  name: string;
  brand?: string;
  categories?: string[];
  features?: string[];
  tags?: string[];
  description?: string;
  relatedIds?: string[];
  facets?: Record<string, string[]>;
  numbers?: Record<string, number>;
  version?: number;
};

export function doc(d: DocInput): EngineDocument {
  return {
    id: d.id,
    version: d.version ?? 1,
    text: {
      name: d.name,
      brand: d.brand ?? "",
      categories: d.categories ?? [],
      features: d.features ?? [],
      tags: d.tags ?? [],
      description: d.description ?? "",
      identifiers: [d.id, ...(d.relatedIds ?? [])],
    },
    facets: { ...(d.brand ? { designer: [d.brand] } : {}), ...d.facets },
    numbers: d.numbers ?? {},
    sortText: { name: d.name },
  };
}

const DAY = 86_400_000;

export const CATALOG: EngineDocument[] = [
  doc({
    id: "shirt-blue",
    name: "Blue Oxford Shirt",
    brand: "Acme",
    categories: ["Apparel", "Shirts"],
    facets: { color: ["Blue"], size: ["S", "M"] },
    numbers: { price_min: 40, arrival_ts: 10 * DAY, stock: 5 },
  }),
  doc({
    id: "shirt-white",
    name: "White Linen Shirt",
    brand: "Acme",
    categories: ["Apparel", "Shirts"],
    facets: { color: ["White"], size: ["M", "L"] },
    numbers: { price_min: 55, arrival_ts: 12 * DAY },
  }),
  doc({
    id: "tee-black",
    name: "Black Crew T-shirt",
    brand: "Zenith",
    categories: ["Apparel", "Tshirts"],
    facets: { color: ["Black"], size: ["M"] },
    numbers: { price_min: 15, arrival_ts: 3 * DAY, stock: 0 },
  }),
  doc({
    id: "tee-red",
    name: "Red Tshirt",
    brand: "Zenith",
    categories: ["Apparel", "Tshirts"],
    facets: { color: ["Red"], size: ["L"] },
    numbers: { price_min: 18, arrival_ts: 11 * DAY, stock: 12 },
  }),
  doc({
    id: "dress-green",
    name: "Green Summer Dress",
    brand: "Flora",
    categories: ["Apparel", "Dresses"],
    description: "A light shirt dress for warm days",
    facets: { color: ["Green"] },
    numbers: { price_min: 80, arrival_ts: 13 * DAY, stock: 2 },
  }),
  doc({
    id: "sweat-grey",
    name: "Grey Sweatshirt",
    brand: "Acme",
    categories: ["Apparel", "Sweatshirts"],
    facets: { color: ["Grey"] },
    numbers: { price_min: 60, arrival_ts: 1 * DAY, stock: 7 },
  }),
  doc({
    id: "bag-tan",
    name: "Tan Leather Bag",
    brand: "Ölberg",
    categories: ["Accessories", "Bags"],
    relatedIds: ["SKU-7781"],
    facets: { color: ["Tan"] },
    numbers: { price_min: 120, arrival_ts: 9 * DAY },
  }),
  doc({
    id: "kurta-yellow",
    name: "Yellow Kurtá",
    brand: "Flora",
    categories: ["Apparel", "Kurtas"],
    facets: { color: ["Yellow"] },
    numbers: { price_min: 35, arrival_ts: 8 * DAY, stock: 1 },
  }),
];

/** A search of everything (no text), relevance-sorted, 50 per page, with `over` applied. */
export const searchRequest = (over: Partial<EngineSearchRequest> = {}): EngineSearchRequest => ({
  text: "",
  matching: { typos: true, prefixLast: false },
  filters: [],
  facets: [],
  rangeFacets: [],
  sort: [{ kind: "relevance" }],
  offset: 0,
  limit: 50,
  ...over,
});

export function describeEngineConformance(name: string, make: () => Promise<EngineUnderTest>): void {
  describe(`SearchEngine conformance: ${name}`, () => {
    let under: EngineUnderTest;
    let engine: SearchEngine;
    const store = "conformance";
    const ids = async (over: Partial<EngineSearchRequest>) => (await engine.search(store, searchRequest(over))).hits.map((h) => h.id);
    const idSet = async (over: Partial<EngineSearchRequest>) => new Set(await ids(over));

    beforeAll(async () => {
      under = await make();
      engine = under.engine;
      await engine.upsert(store, CATALOG);
    });
    afterAll(async () => {
      await engine.dropStore(store);
      await under.cleanup();
    });

    describe("documents", () => {
      test("count and versions", async () => {
        expect(await engine.count(store)).toBe(CATALOG.length);
        expect(await engine.versions(store, ["shirt-blue", "nope"])).toEqual(new Map([["shirt-blue", 1]]));
      });

      test("an older version never replaces a newer one; an equal one does (repeat after a crash)", async () => {
        const other = "conformance-versions";
        await engine.upsert(other, [doc({ id: "a", name: "Alpha", version: 3 })]);
        await engine.upsert(other, [doc({ id: "a", name: "Beta", version: 2 })]);
        expect((await engine.search(other, searchRequest({ text: "alpha" }))).total).toBe(1);
        await engine.upsert(other, [doc({ id: "a", name: "Gamma", version: 3 })]);
        expect((await engine.search(other, searchRequest({ text: "gamma" }))).total).toBe(1);
        expect((await engine.search(other, searchRequest({ text: "alpha" }))).total).toBe(0);
        await engine.remove(other, ["a", "absent"]);
        expect(await engine.count(other)).toBe(0);
        await engine.dropStore(other);
      });

      test("documents its kind's preparer made (as the indexing thread sends them) are written as upsert writes them", async () => {
        const other = "conformance-prepared";
        const preparer = documentPreparer(engine.kind);
        const unversioned = CATALOG.map((d) => ({ ...d, version: 0 }));
        const prepared = preparer.decode(preparer.encode(unversioned, unversioned.length));
        expect(prepared.map((p) => p.id)).toEqual(CATALOG.map((d) => d.id));
        for (const p of prepared) p.version = 1;
        await engine.upsertPrepared(other, prepared);
        expect(await engine.count(other)).toBe(CATALOG.length);
        expect(await engine.versions(other, ["shirt-blue"])).toEqual(new Map([["shirt-blue", 1]]));
        const requests: Partial<EngineSearchRequest>[] = [
          { text: "acme shirt" },
          { text: "oxfrod shrt", facets: ["color", "designer"] },
          { text: "kurta", rangeFacets: [{ field: "price_min", maxBuckets: 3 }] },
          { text: "SKU-7781" },
          { sort: [{ kind: "text", field: "name", order: "asc", locale: "en" }], facets: ["color", "size"] },
        ];
        for (const over of requests) {
          expect(await engine.search(other, searchRequest(over))).toEqual(await engine.search(store, searchRequest(over)));
        }
        expect(await engine.corrections(other, "shrit kurtá")).toEqual(await engine.corrections(store, "shrit kurtá"));
        await engine.dropStore(other);
      });

      test("stores are separate", async () => {
        expect((await engine.search("conformance-empty", searchRequest({ text: "shirt" }))).total).toBe(0);
        await engine.dropStore("conformance-empty");
      });
    });

    describe("text matching", () => {
      test("every word must match, across fields", async () => {
        expect(await idSet({ text: "acme shirt" })).toEqual(new Set(["shirt-blue", "shirt-white"]));
        expect(await ids({ text: "acme dress" })).toEqual([]);
      });

      test("the last word matches as a prefix only when asked", async () => {
        expect(await idSet({ text: "oxford shi", matching: { typos: false, prefixLast: true } })).toEqual(new Set(["shirt-blue"]));
        expect(await ids({ text: "oxford shi", matching: { typos: false, prefixLast: false } })).toEqual([]);
      });

      test("typos: one from 4 letters, two from 8, a transposition is one; none below 4", async () => {
        expect(await ids({ text: "lienn" })).toEqual(["shirt-white"]);
        expect(await ids({ text: "oxfrod" })).toEqual(["shirt-blue"]);
        expect(await ids({ text: "swaetshrt" })).toEqual(["sweat-grey"]);
        expect(await ids({ text: "leathr bga" })).toEqual([]);
        expect(await ids({ text: "lienn", matching: { typos: false, prefixLast: false } })).toEqual([]);
        expect(await ids({ text: "grene" })).toEqual(["dress-green"]);
        expect(await ids({ text: "gren dres" })).toEqual(["dress-green"]);
      });

      test("case, accents, plural and singular fold", async () => {
        expect(await ids({ text: "KURTA" })).toEqual(["kurta-yellow"]);
        expect(await ids({ text: "yellow kurtas" })).toEqual(["kurta-yellow"]);
        expect(await ids({ text: "olberg bags" })).toEqual(["bag-tan"]);
        expect(await idSet({ text: "shirts acme" })).toEqual(new Set(["shirt-blue", "shirt-white"]));
      });

      test("t-shirt, tshirt and t shirt meet", async () => {
        const expected = new Set(["tee-black", "tee-red"]);
        expect(await idSet({ text: "t-shirt" })).toEqual(expected);
        expect(await idSet({ text: "tshirt" })).toEqual(expected);
        expect(await idSet({ text: "t shirt" })).toEqual(expected);
      });

      test("ids and related ids match exactly and come first", async () => {
        expect(await ids({ text: "SKU-7781" })).toEqual(["bag-tan"]);
        expect(await ids({ text: "sku-7781" })).toEqual(["bag-tan"]);
        expect((await ids({ text: "tee-red" }))[0]).toBe("tee-red");
      });

      test("a name match ranks above a description match", async () => {
        const order = await ids({ text: "shirt" });
        expect(order.indexOf("dress-green")).toBe(order.length - 1);
        expect(order.slice(0, 2).sort()).toEqual(["shirt-blue", "shirt-white"]);
      });

      test("empty text matches everything", async () => {
        expect((await engine.search(store, searchRequest())).total).toBe(CATALOG.length);
      });

      test("corrections name unknown words and their look-alikes", async () => {
        const [word] = await engine.corrections(store, "sweatshrit");
        expect(word).toMatchObject({ word: "sweatshrit", known: false, docs: 0 });
        expect(word!.candidates[0]).toMatchObject({ word: "sweatshirt", docs: 1 });
        const [known] = await engine.corrections(store, "shirt");
        expect(known!.known).toBe(true);
      });
    });

    describe("filters and facets", () => {
      test("values of one key are OR, keys are AND, ranges are [min, max)", async () => {
        const color = { kind: "terms" as const, key: "color", values: ["Blue", "Red"] };
        expect(await idSet({ filters: [color] })).toEqual(new Set(["shirt-blue", "tee-red"]));
        expect(await idSet({ filters: [color, { kind: "terms", key: "designer", values: ["Acme"] }] })).toEqual(new Set(["shirt-blue"]));
        expect(await idSet({ filters: [{ kind: "range", field: "price_min", min: 40, max: 60 }] })).toEqual(
          new Set(["shirt-blue", "shirt-white"]),
        );
        expect(await idSet({ filters: [{ kind: "range", field: "price_min", max: 18 }] })).toEqual(new Set(["tee-black"]));
        expect(await idSet({ filters: [{ kind: "range", field: "price_min", min: 120 }] })).toEqual(new Set(["bag-tan"]));
      });

      test("an excludeIds filter leaves those documents out, of the hits and of every facet count", async () => {
        const all = await idSet({});
        const without = await idSet({ filters: [{ kind: "excludeIds", ids: ["tee-red", "shirt-blue", "no-such-id"] }] });
        expect(without).toEqual(new Set([...all].filter((id) => id !== "tee-red" && id !== "shirt-blue")));
        expect(await idSet({ filters: [{ kind: "excludeIds", ids: [] }] })).toEqual(all);
        const acme = async (filters: EngineFilter[]) =>
          (await engine.search(store, searchRequest({ filters, facets: ["designer"] }))).facets.designer!.find((f) => f.value === "Acme")
            ?.count;
        expect(await acme([])).toBe(3);
        expect(await acme([{ kind: "excludeIds", ids: ["shirt-blue"] }])).toBe(2);
        // Disjunctive counts still leave it out: it fails the exclusion, not only the designer selection.
        expect(
          await acme([
            { kind: "excludeIds", ids: ["shirt-blue"] },
            { kind: "terms", key: "designer", values: ["Zenith"] },
          ]),
        ).toBe(2);
      });

      test("an excludeTerms filter leaves out documents with any of the values; those without the key stay", async () => {
        const all = await idSet({});
        const exclude = (key: string, values: string[]): EngineFilter => ({ kind: "excludeTerms", key, values });
        // Sizes: shirt-blue S M, shirt-white M L, tee-black M, tee-red L; the rest have none.
        expect(await idSet({ filters: [exclude("size", ["M"])] })).toEqual(
          new Set([...all].filter((id) => !["shirt-blue", "shirt-white", "tee-black"].includes(id))),
        );
        expect(await idSet({ filters: [exclude("size", ["M", "L"])] })).toEqual(
          new Set([...all].filter((id) => !["shirt-blue", "shirt-white", "tee-black", "tee-red"].includes(id))),
        );
        // Values no document has, a key no document has, and no values exclude nothing.
        expect(await idSet({ filters: [exclude("size", ["XXL"])] })).toEqual(all);
        expect(await idSet({ filters: [exclude("no-such-key", ["M"])] })).toEqual(all);
        expect(await idSet({ filters: [exclude("size", [])] })).toEqual(all);
        // AND with the other filters, and with a selection on the same key.
        expect(await idSet({ filters: [exclude("designer", ["Acme"]), { kind: "terms", key: "color", values: ["Blue", "Red"] }] })).toEqual(
          new Set(["tee-red"]),
        );
        expect(await idSet({ filters: [{ kind: "terms", key: "size", values: ["M", "L"] }, exclude("size", ["S"])] })).toEqual(
          new Set(["shirt-white", "tee-black", "tee-red"]),
        );
      });

      test("facet counts under an exclusion: its key's counts ignore it (the excluded values listed), other keys' follow it", async () => {
        const result = await engine.search(
          store,
          searchRequest({ filters: [{ kind: "excludeTerms", key: "designer", values: ["Acme", "Nobody"] }], facets: ["designer", "size"] }),
        );
        expect(result.total).toBe(5);
        expect(result.facets.designer).toEqual([
          { value: "Acme", count: 3 },
          { value: "Flora", count: 2 },
          { value: "Zenith", count: 2 },
          { value: "Ölberg", count: 1 },
        ]);
        expect(result.facets.size).toEqual([
          { value: "L", count: 1 },
          { value: "M", count: 1 },
        ]);
        // A selection and an exclusion on one key: the key's counts ignore both; other keys' counts follow both.
        const both = await engine.search(
          store,
          searchRequest({
            filters: [
              { kind: "terms", key: "size", values: ["M", "L"] },
              { kind: "excludeTerms", key: "size", values: ["S"] },
              { kind: "excludeTerms", key: "designer", values: ["Zenith"] },
            ],
            facets: ["size", "designer"],
          }),
        );
        expect(both.hits.map((h) => h.id)).toEqual(["shirt-white"]);
        expect(both.facets.size).toEqual([
          { value: "M", count: 2 },
          { value: "L", count: 1 },
          { value: "S", count: 1 },
        ]);
        expect(both.facets.designer).toEqual([
          { value: "Zenith", count: 2 },
          { value: "Acme", count: 1 },
        ]);
      });

      test("an ids filter keeps only those documents; facets count within them, pinned order pages them", async () => {
        const only = { kind: "ids" as const, ids: ["tee-red", "shirt-blue", "bag-tan", "no-such-id"] };
        expect(await idSet({ filters: [only] })).toEqual(new Set(["tee-red", "shirt-blue", "bag-tan"]));
        expect(await idSet({ filters: [{ kind: "ids", ids: [] }] })).toEqual(new Set());
        const pinned = { kind: "pinned" as const, ids: only.ids };
        expect(await ids({ filters: [only], sort: [pinned], offset: 1, limit: 2 })).toEqual(["shirt-blue", "bag-tan"]);
        const result = await engine.search(
          store,
          searchRequest({ filters: [only, { kind: "terms", key: "designer", values: ["Zenith"] }], facets: ["designer"], sort: [pinned] }),
        );
        expect(result.hits.map((h) => h.id)).toEqual(["tee-red"]);
        expect(result.facets.designer).toEqual([
          { value: "Acme", count: 1 },
          { value: "Zenith", count: 1 },
          { value: "Ölberg", count: 1 },
        ]);
      });

      test("facet counts are disjunctive: a key's counts ignore its own selection", async () => {
        const result = await engine.search(
          store,
          searchRequest({
            text: "shirt",
            filters: [{ kind: "terms", key: "designer", values: ["Acme"] }],
            facets: ["designer", "color", "size"],
          }),
        );
        expect(result.total).toBe(2);
        // "shirt" is in Acme's shirts, Flora's shirt dress (description) and Zenith's "Crew T-shirt".
        expect(result.facets.designer).toEqual([
          { value: "Acme", count: 2 },
          { value: "Flora", count: 1 },
          { value: "Zenith", count: 1 },
        ]);
        expect(result.facets.color).toEqual([
          { value: "Blue", count: 1 },
          { value: "White", count: 1 },
        ]);
        expect(result.facets.size).toEqual([
          { value: "M", count: 2 },
          { value: "L", count: 1 },
          { value: "S", count: 1 },
        ]);
      });

      test("wildcard facet keys and range facets over the result", async () => {
        const result = await engine.search(
          store,
          searchRequest({ facets: ["col*"], rangeFacets: [{ field: "price_min", maxBuckets: 4 }] }),
        );
        expect(Object.keys(result.facets)).toEqual(["color"]);
        const buckets = result.ranges.price_min!;
        expect(buckets.reduce((sum, b) => sum + b.count, 0)).toBe(CATALOG.length);
        for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.lb).toBeGreaterThanOrEqual(buckets[i - 1]!.ub);
        expect(buckets[0]!.lb).toBeLessThanOrEqual(15);
        expect(buckets.at(-1)!.ub).toBeGreaterThanOrEqual(120);
      });
    });

    describe("sorting and paging", () => {
      test("by a number, with documents lacking it last in both directions", async () => {
        const asc = await ids({ sort: [{ kind: "number", field: "stock", order: "asc" }] });
        expect(asc).toEqual(["tee-black", "kurta-yellow", "dress-green", "shirt-blue", "sweat-grey", "tee-red", "shirt-white", "bag-tan"]);
        const desc = await ids({ sort: [{ kind: "number", field: "stock", order: "desc" }] });
        expect(desc).toEqual(["tee-red", "sweat-grey", "shirt-blue", "dress-green", "kurta-yellow", "tee-black", "shirt-white", "bag-tan"]);
      });

      test("by number buckets, the next sort deciding inside a bucket", async () => {
        const order = await ids({
          sort: [
            { kind: "number", field: "arrival_ts", order: "desc", bucket: { origin: 0, width: 5 * DAY } },
            { kind: "number", field: "price_min", order: "asc" },
          ],
        });
        // Blocks: [10,15) days: blue 40, red 18, white 55, green 80; [5,10): kurta 35, bag 120; [0,5): tee 15, sweat 60.
        expect(order).toEqual([
          "tee-red",
          "shirt-blue",
          "shirt-white",
          "dress-green",
          "kurta-yellow",
          "bag-tan",
          "tee-black",
          "sweat-grey",
        ]);
      });

      test("by text with locale collation", async () => {
        const order = await ids({ sort: [{ kind: "text", field: "name", order: "asc", locale: "en" }] });
        expect(order).toEqual([
          "tee-black",
          "shirt-blue",
          "dress-green",
          "sweat-grey",
          "tee-red",
          "bag-tan",
          "shirt-white",
          "kurta-yellow",
        ]);
      });

      test("pinned ids first, in order", async () => {
        const order = await ids({
          text: "shirt",
          sort: [{ kind: "pinned", ids: ["dress-green", "nope", "tee-red", "tee-black"] }, { kind: "relevance" }],
        });
        // tee-red ("Red Tshirt") does not match "shirt": pinning reorders a result, it adds nothing to it.
        expect(order.slice(0, 2)).toEqual(["dress-green", "tee-black"]);
        expect(order).not.toContain("tee-red");
      });

      test("prefer: documents satisfying the first filter first, then the second, then the next sort", async () => {
        const acme: EngineFilter = { kind: "terms", key: "designer", values: ["Acme"] };
        const cheap: EngineFilter = { kind: "range", field: "price_min", max: 50 };
        const order = await ids({
          sort: [
            { kind: "prefer", filters: [acme, cheap] },
            { kind: "number", field: "price_min", order: "asc" },
          ],
        });
        // Acme and cheap: shirt-blue 40; Acme only: shirt-white 55, sweat-grey 60; cheap only: tee-black 15,
        // tee-red 18, kurta-yellow 35; neither: dress-green 80, bag-tan 120.
        expect(order).toEqual([
          "shirt-blue",
          "shirt-white",
          "sweat-grey",
          "tee-black",
          "tee-red",
          "kurta-yellow",
          "dress-green",
          "bag-tan",
        ]);
        // A preference narrows nothing, and one nobody satisfies changes nothing.
        const none: EngineFilter = { kind: "terms", key: "designer", values: ["Nobody"] };
        expect(
          await ids({
            sort: [
              { kind: "prefer", filters: [none] },
              { kind: "number", field: "price_min", order: "asc" },
            ],
          }),
        ).toEqual(await ids({ sort: [{ kind: "number", field: "price_min", order: "asc" }] }));
      });

      test("weighted: by the sum of the weights a document meets, negative below none, then the next sort", async () => {
        const byPrice = { kind: "number" as const, field: "price_min", order: "asc" as const };
        const acme = { key: "designer", values: ["Acme"] };
        expect(await ids({ sort: [{ kind: "weighted", filters: [{ ...acme, weight: 1 }] }, byPrice] })).toEqual([
          "shirt-blue",
          "shirt-white",
          "sweat-grey",
          "tee-black",
          "tee-red",
          "kurta-yellow",
          "dress-green",
          "bag-tan",
        ]);
        // Acme +2 and Blue -3: shirt-blue (both) nets -1, below the documents with neither.
        const mixed = [
          { ...acme, weight: 2 },
          { key: "color", values: ["Blue"], weight: -3 },
        ];
        expect(await ids({ sort: [{ kind: "weighted", filters: mixed }, byPrice] })).toEqual([
          "shirt-white",
          "sweat-grey",
          "tee-black",
          "tee-red",
          "kurta-yellow",
          "dress-green",
          "bag-tan",
          "shirt-blue",
        ]);
      });

      test("lift per group: at most n per value first, stable for one seed", async () => {
        const sort = [
          { kind: "liftPerGroup" as const, key: "designer", perGroup: 1, seed: "s1" },
          { kind: "number" as const, field: "price_min", order: "asc" as const },
        ];
        const order = await ids({ sort });
        const brandOf = (id: string) => CATALOG.find((d) => d.id === id)!.facets.designer![0];
        const lifted = order.slice(0, 4).map(brandOf);
        expect(new Set(lifted).size).toBe(4);
        expect(await ids({ sort })).toEqual(order);
        const rest = order.slice(4).map((id) => CATALOG.find((d) => d.id === id)!.numbers.price_min!);
        expect(rest).toEqual([...rest].sort((a, b) => a - b));
      });

      test("offset and limit page through without gaps or repeats", async () => {
        const sort = [{ kind: "number" as const, field: "price_min", order: "asc" as const }];
        const all = await ids({ sort });
        const paged: string[] = [];
        for (let offset = 0; offset < CATALOG.length; offset += 3) {
          const page = await engine.search(store, searchRequest({ sort, offset, limit: 3 }));
          expect(page.total).toBe(CATALOG.length);
          paged.push(...page.hits.map((h) => h.id));
        }
        expect(paged).toEqual(all);
      });

      test("setNumbers changes a sort without a new version; null removes the number", async () => {
        await engine.setNumbers(store, [
          { id: "bag-tan", numbers: { purchases: 9 } },
          { id: "tee-red", numbers: { purchases: 3 } },
        ]);
        expect((await ids({ sort: [{ kind: "number", field: "purchases", order: "desc" }] })).slice(0, 2)).toEqual(["bag-tan", "tee-red"]);
        await engine.setNumbers(store, [{ id: "bag-tan", numbers: { purchases: null } }]);
        expect((await ids({ sort: [{ kind: "number", field: "purchases", order: "desc" }] }))[0]).toBe("tee-red");
        expect(await engine.versions(store, ["bag-tan"])).toEqual(new Map([["bag-tan", 1]]));
      });
    });

    test("a reopened engine answers the same", async () => {
      if (!under.reopen) return;
      const before = await engine.search(store, searchRequest({ text: "shirt", facets: ["designer"] }));
      const again = await under.reopen();
      const after = await again.search(store, searchRequest({ text: "shirt", facets: ["designer"] }));
      await again.close();
      expect(after).toEqual(before);
    });
  });
}
