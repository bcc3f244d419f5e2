import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StoredVector, VectorIndex } from "./vector-index.ts";

/*
 * The behaviour every VectorIndex adapter must show, over a few hand-made vectors whose nearest neighbours are
 * obvious. Each adapter's test file calls describeVectorConformance with a way to make one.
 */

export interface VectorIndexUnderTest {
  index: VectorIndex;
  /** A second instance over the same stored data (a restart). */
  reopen: () => Promise<VectorIndex>;
  cleanup: () => Promise<void>;
}

const v = (...values: number[]) => Float32Array.from(values);
const entry = (id: string, vector: Float32Array, hash = `h-${id}`): StoredVector => ({ id, hash, vector });

/** Four directions in 4-d space, and a product near each. */
const CATALOG = [
  entry("red-dress", v(1, 0, 0, 0)),
  entry("red-skirt", v(0.9, 0.1, 0, 0)),
  entry("blue-jeans", v(0, 1, 0, 0)),
  entry("black-boots", v(0, 0, 1, 0)),
  entry("white-sneakers", v(0, 0, 0.8, 0.2)),
  entry("silver-watch", v(0, 0, 0, 1)),
];

export function describeVectorConformance(name: string, make: () => Promise<VectorIndexUnderTest>): void {
  describe(`VectorIndex conformance: ${name}`, () => {
    let under: VectorIndexUnderTest;
    const store = "vc-main";
    beforeAll(async () => {
      under = await make();
      await under.index.put(store, CATALOG);
    });
    afterAll(() => under.cleanup());

    test("nearest: the most similar first, with its cosine", async () => {
      const found = await under.index.nearest(store, v(1, 0.05, 0, 0), 3);
      expect(found.map((n) => n.id)).toEqual(["red-dress", "red-skirt", "blue-jeans"]);
      expect(found[0]!.similarity).toBeCloseTo(0.9988, 2);
      expect(found[0]!.similarity).toBeGreaterThan(found[1]!.similarity);
    });

    test("nearest: k past the store's size answers every product; an unknown store or another length none", async () => {
      expect((await under.index.nearest(store, v(0, 0, 1, 0), 100)).map((n) => n.id).sort()).toEqual(CATALOG.map((e) => e.id).sort());
      expect(await under.index.nearest("vc-nobody", v(1, 0, 0, 0), 5)).toEqual([]);
      expect(await under.index.nearest(store, v(1, 0, 0), 5)).toEqual([]);
    });

    test("similarities: exact, for the ids that have a vector", async () => {
      const sims = await under.index.similarities(store, v(1, 1, 0, 0), ["red-dress", "blue-jeans", "silver-watch", "no-such-product"]);
      expect([...sims.keys()].sort()).toEqual(["blue-jeans", "red-dress", "silver-watch"]);
      expect(sims.get("red-dress")).toBeCloseTo(Math.SQRT1_2, 5);
      expect(sims.get("silver-watch")).toBeCloseTo(0, 5);
    });

    test("hashes: every product with the hash its vector was made from", async () => {
      const hashes = await under.index.hashes(store);
      expect(hashes.size).toBe(CATALOG.length);
      expect(hashes.get("blue-jeans")).toBe("h-blue-jeans");
      expect((await under.index.hashes("vc-nobody")).size).toBe(0);
    });

    test("put replaces a product's vector and hash; remove forgets products and ignores absent ones", async () => {
      const s = "vc-replace";
      await under.index.put(s, CATALOG);
      await under.index.put(s, [entry("silver-watch", v(1, 0, 0, 0.01), "h2")]);
      const found = await under.index.nearest(s, v(1, 0, 0, 0), 2);
      expect(found.map((n) => n.id).sort()).toEqual(["red-dress", "silver-watch"]);
      expect((await under.index.hashes(s)).get("silver-watch")).toBe("h2");
      await under.index.remove(s, ["silver-watch", "red-dress", "never-there"]);
      expect((await under.index.nearest(s, v(1, 0, 0, 0), 1)).map((n) => n.id)).toEqual(["red-skirt"]);
      expect((await under.index.hashes(s)).size).toBe(CATALOG.length - 2);
      await under.index.dropStore(s);
    });

    test("vectors of another length (a new model) replace all of the store's", async () => {
      const s = "vc-model";
      await under.index.put(s, CATALOG);
      await under.index.put(s, [entry("red-dress", v(1, 0, 0, 0, 0, 0), "m2"), entry("blue-jeans", v(0, 1, 0, 0, 0, 0), "m2")]);
      expect([...(await under.index.hashes(s)).keys()].sort()).toEqual(["blue-jeans", "red-dress"]);
      expect((await under.index.nearest(s, v(0, 1, 0, 0, 0, 0), 5)).map((n) => n.id)).toEqual(["blue-jeans", "red-dress"]);
      expect(await under.index.nearest(s, v(0, 1, 0, 0), 5)).toEqual([]);
      await under.index.dropStore(s);
    });

    test("stores are apart, and dropStore forgets one", async () => {
      const s = "vc-other";
      await under.index.put(s, [entry("only-here", v(0, 1, 0, 0))]);
      expect((await under.index.nearest(store, v(0, 1, 0, 0), 1)).map((n) => n.id)).toEqual(["blue-jeans"]);
      expect((await under.index.nearest(s, v(1, 0, 0, 0), 5)).map((n) => n.id)).toEqual(["only-here"]);
      await under.index.dropStore(s);
      expect(await under.index.nearest(s, v(1, 0, 0, 0), 5)).toEqual([]);
      expect((await under.index.hashes(s)).size).toBe(0);
    });

    test("a restart keeps every vector", async () => {
      const again = await under.reopen();
      expect((await again.nearest(store, v(0, 0, 0.9, 0.1), 2)).map((n) => n.id)).toEqual(["black-boots", "white-sneakers"]);
      expect((await again.hashes(store)).size).toBe(CATALOG.length);
      await again.close();
    });
  });
}
