import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { assignVariant } from "../src/modules/experiments/assignment.ts";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./support/child-server.ts";
import { product } from "./support/fixtures.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { tempDir } from "./support/test-server.ts";
import { until } from "./support/webhook-support.ts";

/*
 * An experiment on two server processes sharing one PostgreSQL database: started through one replica, the other
 * serves it (the change feed tells it), each shopper gets the same variant from both, and events sent to either are
 * counted once, in the same results read from either.
 */

let pg: PostgresCluster;
let typesense: { url: string; stop: () => Promise<void> };
const dirs: string[] = [];
const replicas: ChildServer[] = [];

const headers = (key: string) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
});

async function call<T>(server: ChildServer, method: string, path: string, key: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}/1.9${path}`, {
    method,
    headers: headers(key),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
const admin = <T>(server: ChildServer, method: string, path: string, body?: unknown) =>
  call<T>(server, method, path, DEMO_KEYS.DEMO_ADMIN_KEY, body);

interface Tagged {
  experiment?: { id: string; variant: string };
  products: { productId: string }[];
}
interface Results {
  variants: { name: string; shoppers: number; searches: number; clickThrough: { shoppers: number } }[];
}

beforeAll(async () => {
  pg = await startPostgresCluster();
  typesense = new DocumentedCluster().serve();
  const env = {
    ...DEMO_KEYS,
    DATABASE_URL: await pg.createDatabase(),
    TYPESENSE_NODES: typesense.url,
    TYPESENSE_API_KEY: API_KEY,
    LOG_LEVEL: "error",
  };
  for (let i = 0; i < 2; i++) {
    const dataDir = tempDir("sfs-experiment-replica-");
    dirs.push(dataDir);
    replicas.push(await spawnDrainedServer({ ...env, DATA_DIR: dataDir }, 30_000));
  }
}, 90_000);

afterAll(async () => {
  for (const r of replicas) {
    r.proc.kill(9);
    await r.proc.exited;
  }
  await typesense?.stop();
  await pg?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("started on replica A, served by B; one variant per shopper on both; events sent to both counted once, as either reads them", async () => {
  const [a, b] = replicas as [ChildServer, ChildServer];
  const products = Array.from({ length: 6 }, (_, i) => product(`dress-${i}`, { name: `Summer dress ${i}`, brand: "Roadster" }));
  const { taskId } = await admin<{ taskId: string }>(a, "POST", "/products", products);
  await until(async () => (await admin<{ status: string }>(b, "GET", `/tasks/${taskId}`)).status === "complete" || null, 30_000, "indexed");
  await admin(a, "PUT", "/rules/pin-last", {
    conditions: [{ pattern: "dress", anchoring: "contains" }],
    consequence: { pins: [{ productId: "dress-5", position: 1 }] },
  });
  const search = (server: ChildServer, userId: string) =>
    call<Tagged>(server, "GET", `/search?query=dress&pageSize=6&userId=${userId}`, DEMO_KEYS.DEMO_SEARCH_KEY);
  // B has read the store's experiments (none) before A starts one: it must hear of the start, not read it afresh.
  expect((await search(b, "early")).experiment).toBeUndefined();

  const { id } = await admin<{ id: string }>(a, "POST", "/experiments", {
    name: "Pin the last dress",
    scope: { type: "query", pattern: "dress", anchoring: "contains" },
    mode: "ab",
    variants: [
      { name: "control", share: 50 },
      { name: "pinned", share: 50, overrides: { rules: ["pin-last"] } },
    ],
  });
  await admin(a, "POST", `/experiments/${id}/start`);
  await until(async () => (await search(b, "early")).experiment?.id === id || null, 15_000, "B serves the experiment A started");

  const shoppers = Array.from({ length: 24 }, (_, i) => `shopper${i}`);
  const variants = ["control", "pinned"];
  for (const shopper of shoppers) {
    const want = variants[assignVariant(id, shopper, [50, 50])]!;
    const [fromA, fromB] = await Promise.all([search(a, shopper), search(b, shopper)]);
    expect(fromA.experiment).toEqual({ id, variant: want });
    expect(fromB.experiment).toEqual({ id, variant: want });
    // The variant's rule is in force on both replicas alike.
    expect(fromA.products.map((p) => p.productId)).toEqual(fromB.products.map((p) => p.productId));
    expect(fromA.products[0]!.productId === "dress-5").toBe(want === "pinned");
  }

  // Each shopper's search through one replica and click through the other; every other shopper clicks.
  const expected = variants.map(() => ({ shoppers: 0, clicked: 0 }));
  const track = (server: ChildServer, events: object[]) => call(server, "POST", "/tracking", DEMO_KEYS.DEMO_ANALYTICS_KEY, events);
  await Promise.all(
    shoppers.map(async (userId, i) => {
      const v = expected[assignVariant(id, userId, [50, 50])]!;
      v.shoppers++;
      const listing = { query: "dress", productIds: ["dress-5", "dress-0"], totalProducts: 6 };
      const [first, second] = i % 2 ? [a, b] : [b, a];
      await track(first, [{ type: "Search", userId, sessionId: `s-${userId}`, data: listing }]);
      if (i % 3 === 0) {
        v.clicked++;
        await track(second, [{ type: "ProductClick", userId, sessionId: `s-${userId}`, data: { ...listing, clickProductId: "dress-5" } }]);
      }
    }),
  );
  expect(expected.every((v) => v.shoppers > 0)).toBe(true);
  // Read from each replica once it has counted every shopper (its own events and, through the database, the other's).
  const results = (server: ChildServer, what: string) =>
    until(
      async () => {
        const r = await admin<Results>(server, "GET", `/experiments/${id}/results`);
        return r.variants.reduce((n, v) => n + v.shoppers, 0) === shoppers.length ? r : null;
      },
      30_000,
      what,
    );
  const fromA = await results(a, "A counts every shopper");
  const fromB = await results(b, "B counts every shopper");
  for (const r of [fromA, fromB])
    r.variants.forEach((v, i) => {
      expect(v.shoppers).toBe(expected[i]!.shoppers);
      expect(v.searches).toBe(expected[i]!.shoppers);
      expect(v.clickThrough.shoppers).toBe(expected[i]!.clicked);
    });
  expect(fromB.variants).toEqual(fromA.variants);
}, 180_000);
