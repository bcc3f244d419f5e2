import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { migrate, openDatabase, openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { MIGRATIONS } from "../src/platform/sqlite/schema.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { SqliteEnrichmentRepo } from "../src/modules/enrichment/storage/enrichment.sqlite.ts";
import { ShapeCache } from "../src/modules/catalog/shape-cache.ts";
import { ShapedProducts, shapingFor, type ColoursOf } from "../src/modules/catalog/shaped-products.ts";
import { tempDir } from "./support/test-server.ts";

describe("ShapeCache", () => {
  test("a kept shape is returned only under the epoch and shaping it was kept with", () => {
    const cache = new ShapeCache();
    cache.keep("s", "p1", "k1", 7, '{"a":1}');
    expect(cache.get("s", "p1", "k1", 7)).toBe('{"a":1}');
    expect(cache.get("s", "p1", "k1", 8)).toBeUndefined();
    expect(cache.get("s", "p1", "k2", 7)).toBeUndefined();
    expect(cache.get("other", "p1", "k1", 7)).toBeUndefined();
    cache.keep("s", "p1", "k1", 8, '{"a":2}');
    expect(cache.get("s", "p1", "k1", 8)).toBe('{"a":2}');
    expect(cache.get("s", "p1", "k1", 7)).toBeUndefined();
  });

  test("within its budget, the least recently shown go first", () => {
    const json = "x".repeat(900);
    const cache = new ShapeCache(3000); // three entries of 900 characters and their overhead
    for (const id of ["a", "b", "c"]) cache.keep("s", id, "k", 1, json);
    expect(cache.get("s", "a", "k", 1)).toBe(json); // a is now the most recent
    cache.keep("s", "d", "k", 1, json);
    expect(cache.get("s", "b", "k", 1)).toBeUndefined();
    for (const id of ["a", "c", "d"]) expect(cache.get("s", id, "k", 1)).toBe(json);
    expect(cache.size).toBeLessThanOrEqual(3000);
    cache.keep("s", "a", "k", 2, "y".repeat(10)); // replaced, not counted twice
    expect(cache.size).toBe(2 * 1000 + 110);
  });

  test("a shape shown between every few new ones is never the one that goes", () => {
    const json = "x".repeat(900);
    const cache = new ShapeCache(10_000); // ten entries
    cache.keep("s", "hot", "k", 1, json);
    for (let i = 0; i < 200; i++) {
      cache.keep("s", `new-${i}`, "k", 1, json);
      // Shown again after every third new shape: always among the most recently shown of the ten.
      if (i % 3 === 2) expect(cache.get("s", "hot", "k", 1)).toBe(json);
    }
    expect(cache.get("s", "new-189", "k", 1)).toBeUndefined();
    expect(cache.get("s", "new-199", "k", 1)).toBe(json);
  });

  test("a shape larger than the whole budget is not kept", () => {
    const cache = new ShapeCache(500);
    cache.keep("s", "a", "k", 1, "x".repeat(600));
    expect(cache.get("s", "a", "k", 1)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe("the shapes epoch (SQLite)", () => {
  test("the database counts every change and removal of a store's shapes, by any connection, and deleting the store", async () => {
    const dir = tempDir("sfs-shape-epoch-");
    try {
      const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
      const repo = new SqliteCatalogRepo(db);
      db.run("INSERT INTO stores (id, created_at, settings) VALUES ('s', 1, '{}'), ('t', 1, '{}')");
      db.run("INSERT INTO products (store_id, id, version, doc, updated_at) VALUES ('s', 'a', 1, '{}', 1), ('s', 'b', 1, '{}', 1)");
      const epochs = async () => [await repo.shapesEpoch("s"), await repo.shapesEpoch("t")];
      expect(await epochs()).toEqual([0, 0]);
      await repo.putShapes("s", "k", [
        ["a", 1, "{}"],
        ["b", 1, "{}"],
      ]);
      // New shapes: nothing kept can be of them (a kept shape that is gone had its removal counted).
      expect(await epochs()).toEqual([0, 0]);
      await repo.putShapes("s", "k2", [["a", 1, "{}"]]);
      const [afterPut] = await epochs();
      expect(afterPut).toBeGreaterThan(0);
      expect(await repo.shapesEpoch("t")).toBe(0); // another store's shapes are not counted against it
      // Another process (the CLI) writing the same file.
      const other = new Database(join(dir, "service.db"));
      other.run("UPDATE products SET shaped = '{\"x\":1}' WHERE store_id = 's' AND id = 'a'");
      const afterUpdate = await repo.shapesEpoch("s");
      expect(afterUpdate).toBeGreaterThan(afterPut!);
      other.run("UPDATE products SET shaping = NULL, shaped = NULL WHERE store_id = 's' AND id = 'b'");
      const afterDelete = await repo.shapesEpoch("s");
      expect(afterDelete).toBeGreaterThan(afterUpdate);
      other.close();
      // A store deleted (its shapes go with it) and created again counts on: nothing kept for the old one matches.
      db.run("DELETE FROM stores WHERE id = 's'");
      db.run("INSERT INTO stores (id, created_at, settings) VALUES ('s', 2, '{}')");
      expect(await repo.shapesEpoch("s")).toBeGreaterThan(afterDelete);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

test("shapes stored before they moved into the product rows are kept by the upgrade, and counted as before after it", async () => {
  const dir = tempDir("sfs-shape-upgrade-");
  try {
    const db = openDatabase(join(dir, "service.db"), { synchronous: "NORMAL" });
    const moved = MIGRATIONS.findIndex((m) => m.includes("ADD COLUMN shaped"));
    expect(moved).toBeGreaterThan(0);
    migrate(db, MIGRATIONS.slice(0, moved));
    db.run("INSERT INTO stores (id, created_at, settings) VALUES ('s', 1, '{}')");
    db.run(
      "INSERT INTO products (store_id, id, version, doc, deleted, updated_at) VALUES ('s', 'a', 1, '{}', 0, 1), ('s', 'b', 1, '{}', 0, 1), ('s', 'gone', 2, NULL, 1, 1)",
    );
    db.run(
      "INSERT INTO search_products (store_id, id, shaping, json) VALUES ('s', 'a', 'k', '{\"a\":1}'), ('s', 'gone', 'k', '{\"stale\":1}')",
    );
    migrate(db, MIGRATIONS);
    const repo = new SqliteCatalogRepo(db);
    expect(await repo.shaped("s", ["a", "b", "gone"], "k")).toEqual(new Map([["a", '{"a":1}']]));
    const before = await repo.shapesEpoch("s");
    await repo.putShapes("s", "k", [
      ["b", 1, '{"b":1}'],
      ["gone", 2, "{}"],
    ]);
    expect(await repo.shapesEpoch("s")).toBe(before); // a shape added, none replaced; a deleted product gets none
    expect(await repo.shaped("s", ["a", "b", "gone"], "k")).toEqual(
      new Map([
        ["a", '{"a":1}'],
        ["b", '{"b":1}'],
      ]),
    );
    await repo.putShapes("s", "k2", [["a", 1, '{"a":2}']]);
    expect(await repo.shapesEpoch("s")).toBeGreaterThan(before);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a shape made with colours an image stage replaced while the page shaped it is dropped, and made again with the new ones", async () => {
  const dir = tempDir("sfs-shape-colours-");
  try {
    const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
    db.run("INSERT INTO stores (id, created_at, settings) VALUES ('s', 1, '{}')");
    const catalog = new SqliteCatalogRepo(db);
    const enrichment = new SqliteEnrichmentRepo(db);
    const product = { id: "a", name: "Linen shirt", variations: [{ id: "navy" }] };
    await new SqliteTasksRepo(db).commitBatch({
      storeId: "s",
      at: 1,
      products: [{ id: "a", version: 1, contentHash: "h", deleted: false, doc: JSON.stringify(product) }],
      advances: [],
    });
    const [job] = await enrichment.claimDue(10, 1, 1000);
    const navy = [{ hex: "#1f2a44", ratio: 0.8 }];
    const read: ColoursOf = async (storeId, ids) =>
      new Map([...(await enrichment.colours(storeId, ids))].map(([id, c]) => [id, new Map(c.map((v) => [v.variationId, v.values]))]));
    // The image stage commits (its colours, the shape dropped) right after the page read the colours before them.
    let stageDone = false;
    const racing: ColoursOf = async (storeId, ids) => {
      const before = await read(storeId, ids);
      if (!stageDone) {
        stageDone = true;
        const result = { attributes: {}, colours: [{ variationId: "navy", values: navy }], content: [] };
        await enrichment.finishStage({ job: job!, result, next: null, now: 20, webhookBody: "{}", dropShape: true });
      }
      return before;
    };
    const shapes = new ShapedProducts(catalog, racing);
    const key = shapingFor("s", {}).key;
    const [first] = await shapes.page("s", {}, ["a"]);
    expect(JSON.parse(first!).colors.navy.values).toEqual([]);
    expect((await catalog.shaped("s", ["a"], key)).size).toBe(0);
    const [second] = await shapes.page("s", {}, ["a"]);
    expect(JSON.parse(second!).colors.navy.values).toEqual(navy);
    expect(JSON.parse((await catalog.shaped("s", ["a"], key)).get("a")!).colors.navy.values).toEqual(navy);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
