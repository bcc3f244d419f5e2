import { expect, test } from "bun:test";
import { seededRandom } from "../../demo-store/src/catalog/seeded-random.ts";
import { FacetRows } from "../src/engine/sqlite/facet-rows.ts";

/*
 * A slot's facet values live in a fixed row when they are few and in a list of their own when they are more than
 * a row holds; every read (counting, a key's counts, a filter's test) must see the slot's last values whichever
 * place they are in, through rewrites from one place to the other, clears and the widening past 16 bits. The same
 * through the engine's writes and searches: search-shortcuts.test.ts.
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
