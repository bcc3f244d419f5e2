import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { seededRandom } from "../../demo-store/src/catalog/seeded-random.ts";
import { FacetRows } from "../src/engine/sqlite/facet-rows.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { EngineDocument, EngineSearchRequest } from "../src/engine/types.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * A slot's facet values live in a fixed row when they are few and in a list of their own when they are more than
 * a row holds; every read (counting, a key's counts, a filter's test) must see the slot's last values whichever
 * place they are in, through rewrites from one place to the other, clears and the widening past 16 bits.
 */

test("every read sees each slot's last values through rewrites across the row's length, clears and widening", () => {
  // Seeded: a failure repeats.
  const rng = seededRandom("facet-rows");
  const random = () => rng.next();
  const SLOTS = 5000;
  const rows = new FacetRows();
  const model = new Map<number, number[]>();
  let most = 0xffff;
  const write = (slot: number, length = Math.floor(random() * 45)) => {
    const values = [...new Set(Array.from({ length }, () => Math.floor(random() * (most + 1))))];
    values.sort((a, b) => a - b);
    rows.set(slot, values);
    model.set(slot, values);
  };
  // Every slot in order first, as a bulk load writes them, each a full row (31 values; fewer only if drawn twice):
  // the rows grow through lengths that are no multiple of a row.
  for (let slot = 0; slot < SLOTS; slot++) write(slot, 31);
  for (let step = 0; step < 12_000; step++) {
    if (step === 6_000) {
      rows.widen();
      most = 2 ** 20;
    }
    const slot = Math.floor(random() * SLOTS);
    if (random() < 0.2) {
      rows.clear(slot);
      model.delete(slot);
    } else write(slot);
  }
  const slots = Int32Array.from({ length: SLOTS }, (_, s) => s);
  const counts = new Int32Array(most + 1);
  rows.countInto(slots, counts);
  const expected = new Int32Array(most + 1);
  for (const values of model.values()) for (const id of values) expected[id]!++;
  expect(counts).toEqual(expected);
  // A value's "key" here is its parity; each slot asks for one, or none (negative).
  const valueKey = Array.from({ length: most + 1 }, (_, id) => id % 2);
  const keys = slots.map((s) => (s % 3) - 1);
  const ofKeys = new Int32Array(most + 1);
  rows.countOfKeys(slots, keys, valueKey, ofKeys);
  const expectedOfKeys = new Int32Array(most + 1);
  for (const [slot, values] of model) for (const id of values) if (id % 2 === keys[slot]) expectedOfKeys[id]!++;
  expect(ofKeys).toEqual(expectedOfKeys);
  const mask = new Uint8Array(most + 1);
  for (let id = 0; id <= most; id += 97) mask[id] = 1;
  for (let slot = 0; slot < SLOTS; slot++) {
    const values = model.get(slot) ?? [];
    expect([...rows.of(slot)]).toEqual(values);
    expect(rows.holdsAny(slot, mask)).toBe(values.some((id) => mask[id] === 1));
  }
});

let dataDir: string;
let engine: SqliteEngine;

beforeAll(() => {
  dataDir = tempDir("sfs-facet-rows-");
  engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
});

afterAll(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const STORE = "rows";

/** A document with `sizes` size values (more than a row holds from 32 on) and one colour. */
function doc(i: number, sizes: number, colour: string, version: number): EngineDocument {
  return {
    id: `p${i}`,
    version,
    text: { name: `shirt ${i}`, brand: "acme", categories: [], features: [], tags: [], description: "", identifiers: [`p${i}`] },
    facets: { color: [colour], size: Array.from({ length: sizes }, (_, s) => `s${s}`) },
    numbers: {},
    sortText: {},
  };
}

function request(over: Partial<EngineSearchRequest>): EngineSearchRequest {
  return {
    text: "shirt",
    matching: { typos: false, prefixLast: false },
    filters: [],
    facets: ["color", "size"],
    rangeFacets: [],
    sort: [{ kind: "relevance" }],
    offset: 0,
    limit: 50,
    ...over,
  };
}

const countOf = (facets: Record<string, { value: string; count: number }[]>, key: string, value: string) =>
  facets[key]?.find((f) => f.value === value)?.count ?? 0;

test("counts and filters follow a document whose values move between its row and a list of their own", async () => {
  await engine.upsert(STORE, [doc(0, 40, "Red", 1), doc(1, 2, "Blue", 1), doc(2, 3, "Blue", 1)]);
  let found = await engine.search(STORE, request({}));
  expect(countOf(found.facets, "size", "s39")).toBe(1);
  expect(countOf(found.facets, "size", "s0")).toBe(3);
  expect(countOf(found.facets, "color", "Red")).toBe(1);

  // The long document becomes short and a short one long.
  await engine.upsert(STORE, [doc(0, 1, "Red", 2), doc(1, 35, "Blue", 2)]);
  found = await engine.search(STORE, request({}));
  expect(countOf(found.facets, "size", "s39")).toBe(0);
  expect(countOf(found.facets, "size", "s34")).toBe(1);
  expect(countOf(found.facets, "size", "s1")).toBe(2);
  expect(countOf(found.facets, "size", "s0")).toBe(3);

  // A selection on a value only a long list holds, and the key's own counts left to the other filters.
  found = await engine.search(STORE, request({ filters: [{ kind: "terms", key: "size", values: ["s34"] }] }));
  expect(found.hits.map((h) => h.id)).toEqual(["p1"]);
  expect(found.facets.color).toEqual([{ value: "Blue", count: 1 }]);
  expect(countOf(found.facets, "size", "s0")).toBe(3);

  // A selection on the colour: documents that fail it still count for colours, from a long list too.
  found = await engine.search(STORE, request({ filters: [{ kind: "terms", key: "color", values: ["Red"] }] }));
  expect(found.hits.map((h) => h.id)).toEqual(["p0"]);
  expect(found.facets.color).toEqual([
    { value: "Blue", count: 2 },
    { value: "Red", count: 1 },
  ]);

  await engine.remove(STORE, ["p1"]);
  found = await engine.search(STORE, request({}));
  expect(countOf(found.facets, "size", "s34")).toBe(0);
  expect(countOf(found.facets, "size", "s0")).toBe(2);
  expect(countOf(found.facets, "color", "Blue")).toBe(1);
});
