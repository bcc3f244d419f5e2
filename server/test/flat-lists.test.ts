import { expect, test } from "bun:test";
import { seededRandom } from "../../demo-store/src/catalog/seeded-random.ts";
import { FlatLists } from "../src/engine/sqlite/flat-lists.ts";

test("each slot reads back its last list through replacements, clears and compactions", () => {
  // Seeded: a failure repeats.
  const rng = seededRandom("flat-lists");
  const random = () => rng.next();
  const lists = new FlatLists();
  const model = new Map<number, number[]>();
  const read = (slot: number) => [...lists.data.subarray(lists.start[slot]!, lists.start[slot]! + lists.length[slot]!)];
  for (let step = 0; step < 20_000; step++) {
    const slot = Math.floor(random() * 2000);
    if (random() < 0.2) {
      lists.clear(slot);
      model.delete(slot);
    } else {
      const values = Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 2 ** 32));
      lists.set(slot, values);
      model.set(slot, values);
    }
  }
  for (let slot = 0; slot < 2000; slot++) expect(read(slot)).toEqual(model.get(slot) ?? []);
  // Rewrites of live slots only ever leave holes: compactions keep the buffer near what the lists hold.
  const held = [...model.values()].reduce((sum, v) => sum + v.length, 0);
  expect(lists.data.length).toBeLessThan(held * 8);
});
