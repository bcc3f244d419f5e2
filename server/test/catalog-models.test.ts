import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { CatalogModels, type CatalogModel, type MeasuredColours } from "../src/modules/catalog/catalog-models.ts";
import { SimilarityIndex } from "../src/modules/similarity/similarity-index.ts";
import { product } from "./support/fixtures.ts";
import { tempDir } from "./support/test-server.ts";

const similarityModels = (catalog: SqliteCatalogRepo, now: () => number) =>
  new CatalogModels(catalog, now, () => new SimilarityIndex(), "similar products");

/* Each store's model (here the similarity index), read from the real catalog tables: ahead of time, kept current, stopped cleanly. */

async function catalogOf(count: number) {
  const dir = tempDir("sfs-catalog-models-");
  const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
  await new SqliteStoresRepo(db).create("s", 1);
  const catalog = new SqliteCatalogRepo(db);
  const tasks = new SqliteTasksRepo(db);
  const doc = (id: string) => JSON.stringify(product(id, { name: `Linen Shirt ${id}` }));
  const put = (id: string, deleted = false, at = 1) =>
    tasks.commitBatch({
      storeId: "s",
      at,
      products: [{ id, version: 1, contentHash: null, doc: deleted ? null : doc(id), deleted }],
      advances: [],
    });
  await tasks.commitBatch({
    storeId: "s",
    at: 1,
    products: Array.from({ length: count }, (_, i) => ({ id: `p${i}`, version: 1, contentHash: null, doc: doc(`p${i}`), deleted: false })),
    advances: [],
  });
  return { catalog, put, close: () => (db.close(), rmSync(dir, { recursive: true, force: true })) };
}

test("preloaded in pages ahead of the first request, then kept current from changed rows", async () => {
  const { catalog, put, close } = await catalogOf(2500);
  let now = 10;
  const indexes = similarityModels(catalog, () => now);
  try {
    await indexes.preload([{ id: "s", createdAt: 1 }]);
    const index = await indexes.of("s", 1);
    expect(index.size).toBe(2500);
    now = 20;
    await put("late", false, 15);
    await put("p0", true, 15);
    indexes.changed("s");
    expect((await indexes.of("s", 1)).has("late")).toBe(true);
    expect(index.has("p0")).toBe(false);
    // A store deleted and created again (a new generation) starts a new index.
    expect(await indexes.of("s", 2)).not.toBe(index);
  } finally {
    close();
  }
});

test("a stop during a preload ends it quietly at its next page", async () => {
  const { catalog, close } = await catalogOf(3000);
  const indexes = similarityModels(catalog, () => 1);
  try {
    const preload = indexes.preload([{ id: "s", createdAt: 1 }]);
    indexes.stop();
    await expect(preload).resolves.toBeUndefined();
    // Nothing half-read is kept for later: a request after the stop finds no index.
    await expect(indexes.of("s", 1)).rejects.toThrow("stopped");
  } finally {
    close();
  }
});

test("a preload waits while indexing work is pending, and reads the catalog once it is done", async () => {
  const { catalog, put, close } = await catalogOf(100);
  let built = 0;
  const indexes = new CatalogModels(
    catalog,
    () => 1,
    () => (built++, new SimilarityIndex()),
    "similar products",
  );
  let indexing = true;
  try {
    const preload = indexes.preload([{ id: "s", createdAt: 1 }], () => indexing);
    await Bun.sleep(1200);
    expect(built).toBe(0);
    // What the bulk added meanwhile is in the model built afterwards.
    await put("from-the-bulk");
    indexing = false;
    await preload;
    expect(built).toBe(1);
    expect((await indexes.of("s", 1)).has("from-the-bulk")).toBe(true);
  } finally {
    close();
  }
});

test("a product whose image colours were measured since is put again with those colours; one deleted meanwhile is not", async () => {
  const { catalog, put, close } = await catalogOf(3);
  const puts: { id: string; measured: MeasuredColours | undefined }[] = [];
  const recorder: CatalogModel = { put: (product, measured) => puts.push({ id: product.id, measured }), remove: () => {} };
  const colours = new Map<string, MeasuredColours>();
  const models = new CatalogModels(
    catalog,
    () => 1,
    () => recorder,
    "a recorder",
    async (_, ids) => new Map(ids.flatMap((id) => (colours.has(id) ? [[id, colours.get(id)!] as const] : []))),
  );
  try {
    await models.of("s", 1);
    expect(puts.map((p) => p.id)).toEqual(["p0", "p1", "p2"]);
    puts.length = 0;
    colours.set("p1", new Map([["p1-navy", "#1f2a48"]]));
    await put("p2", true);
    models.productChanged("s", "p1");
    models.productChanged("s", "p2");
    await models.of("s", 1);
    expect(puts).toEqual([{ id: "p1", measured: new Map([["p1-navy", "#1f2a48"]]) }]);
    // Put again once: the next request has nothing left to redo.
    await models.of("s", 1);
    expect(puts).toHaveLength(1);
  } finally {
    close();
  }
});
