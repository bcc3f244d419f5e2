import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { SqliteCatalogRepo } from "../src/modules/catalog/storage/catalog.sqlite.ts";
import { SqliteEnrichmentRepo } from "../src/modules/enrichment/storage/enrichment.sqlite.ts";
import { SqlitePurchaseCounts } from "../src/modules/analytics/storage/purchase-counts.sqlite.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import type { EngineDocument } from "../src/engine/types.ts";
import { TypesenseEngine } from "../src/engine/typesense/typesense-engine.ts";
import { createLogger } from "../src/log.ts";
import { PurchaseSignals } from "../src/modules/analytics/purchase-signals.ts";
import { RankingInputs } from "../src/modules/indexing/ranking-inputs.ts";
import { StoreReindex } from "../src/modules/indexing/store-reindex.ts";
import { demoProducts } from "./support/demo-products.ts";
import { textStagesInSearch } from "./support/indexed-child-server.ts";
import { indexProducts, search, searchAll } from "./support/search-client.ts";
import { startTestServer, tempDir, type TestServer } from "./support/test-server.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";

/*
 * `npm run reindex` end to end: the real server on a Typesense deployment (the documented-behaviour stand-in,
 * served over loopback HTTP so the command's own process reaches it too), the command run as its own process
 * against the same DATA_DIR while the server keeps serving.
 */

const REINDEX = join(import.meta.dir, "../src/cli/reindex.ts");
const ALIAS = "store_test-store";

async function reindexCommand(env: Record<string, string>, ...args: string[]) {
  // Asynchronous: the stand-in and the server answer from this process while the command runs.
  const proc = Bun.spawn([process.execPath, REINDEX, ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

describe("on Typesense", () => {
  const cluster = new DocumentedCluster();
  let node: { url: string; stop: () => Promise<void> };
  let env: Record<string, string>;
  let s: TestServer;
  const products = demoProducts(300);
  const tsGet = async (path: string) => {
    const res = await fetch(node.url + path, { headers: { "x-typesense-api-key": API_KEY } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const liveCollection = async () => (await tsGet(`/aliases/${ALIAS}`)).body.collection_name as string;
  // Every search feature at once, so any difference between the old and the new collection shows.
  const views = [
    { query: "shirt", returnFacets: true, sortBy: "pricea" },
    { query: "blue jeans", returnFacets: true },
    { query: "dress", returnFacets: true, sortBy: "newc" },
  ];
  const snapshot = async () => Promise.all(views.map((v) => searchAll(s, v, 50)));

  beforeAll(async () => {
    node = cluster.serve();
    env = { TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY };
    s = await startTestServer(env);
    await indexProducts(s, products);
    // The text stage's words join search a moment after indexing; a reindex reads them too, so compare after.
    while (!textStagesInSearch(s.dataDir)) await Bun.sleep(50);
  });
  afterAll(async () => {
    await s.stop();
    await node.stop();
  });

  test("npm run reindex builds a new collection, moves the alias and drops the old one; search answers the same", async () => {
    const before = await snapshot();
    const old = await liveCollection();
    const run = await reindexCommand({ ...env, DATA_DIR: s.dataDir }, s.storeId);
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    const fresh = await liveCollection();
    expect(fresh).not.toBe(old);
    expect(run.out).toContain(`Reindexing store test-store: 300 products in the catalog.`);
    expect(run.out).toContain(`now searches index ${fresh}: 300 products`);
    expect((await tsGet(`/collections/${old}`)).status).toBe(404);
    expect((await tsGet(`/collections/${fresh}`)).body.num_documents).toBe(300);
    expect(await snapshot()).toEqual(before);

    // The running server's indexing worker writes into the new collection.
    const renamed = { ...products[0]!, name: "Quokka Windbreaker" };
    await indexProducts(s, [renamed]);
    expect((await search(s, { query: "quokka windbreaker" })).products.map((p) => p.productId)).toEqual([renamed.id]);
  }, 60_000);

  test("changes the worker applies while the index is built reach the new index", async () => {
    const db = openServiceDatabase(s.dataDir, { synchronous: "NORMAL" });
    const signals = new SqlitePurchaseCounts(db);
    const [changed, removed] = [products[10]!, products[11]!];
    // The first document is read before these changes: the new collection is built from the older catalog.
    const changeWhileBuilding = async () => {
      await indexProducts(s, [{ ...changed, name: "Narwhal Raincoat" }]);
      const res = await s.call("admin", "DELETE", `/1.9/products/${encodeURIComponent(removed.id)}`);
      expect((await s.waitForTask(((await res.json()) as { taskId: string }).taskId)).status).toBe("complete");
    };
    class ChangesWhileBuilding extends TypesenseEngine {
      override reindexStore(storeId: string, docs: AsyncIterable<EngineDocument>) {
        return super.reindexStore(
          storeId,
          (async function* () {
            let first = true;
            for await (const doc of docs) {
              yield doc;
              if (first) await changeWhileBuilding();
              first = false;
            }
          })(),
        );
      }
    }
    const engine = new ChangesWhileBuilding({ nodes: [node.url], apiKey: API_KEY, clientLogLevel: "silent" });
    const old = await liveCollection();
    const report = await new StoreReindex({
      catalog: new SqliteCatalogRepo(db),
      tasks: new SqliteTasksRepo(db),
      ranking: new RankingInputs(new SqliteStoresRepo(db), signals, new SqliteEnrichmentRepo(db)),
      purchases: new PurchaseSignals(signals, engine, createLogger("silent")),
      engine,
      now: Date.now,
    }).run(s.storeId);
    await engine.close();
    db.close();

    expect(report.index).not.toBe(old);
    expect(report.index).toBe(await liveCollection());
    expect(report).toMatchObject({ documents: 300, settled: true });
    expect(report.caughtUp).toBeGreaterThanOrEqual(2);
    expect((await search(s, { query: "narwhal raincoat" })).products.map((p) => p.productId)).toEqual([changed.id]);
    expect(await s.service.engineVersions(s.storeId, [removed.id])).toEqual(new Map());
    expect(await s.service.engineCount(s.storeId)).toBe(299);
  }, 60_000);
});

describe("refusals", () => {
  const dir = tempDir();
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("usage, an unknown store, and the embedded engine, each with one line", async () => {
    const s = await startTestServer({}, dir);
    await s.stop();
    const env = { DATA_DIR: dir };
    const usage = await reindexCommand(env);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("Usage: npm run reindex -- <storeId>");
    const unknown = await reindexCommand(env, "no-such-store");
    expect(unknown).toMatchObject({ code: 1, err: 'No store "no-such-store".\n' });
    const embedded = await reindexCommand(env, s.storeId);
    expect(embedded.code).toBe(2);
    expect(embedded.err).toContain("npm run reindex rebuilds a Typesense collection");
    const unreachable = await reindexCommand({ ...env, TYPESENSE_NODES: "http://127.0.0.1:9", TYPESENSE_API_KEY: "k" }, s.storeId);
    expect(unreachable.code).toBe(2);
    expect(unreachable.err).toContain("http://127.0.0.1:9");
  }, 30_000);
});
