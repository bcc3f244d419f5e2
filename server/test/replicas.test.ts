import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import postgres from "postgres";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./support/child-server.ts";
import { demoProducts } from "./support/demo-products.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { tempDir } from "./support/test-server.ts";
import { makeTestCerts, type TestCerts } from "./support/test-certs.ts";
import { startTestReceiver, until, type TestReceiver } from "./support/webhook-support.ts";

/*
 * Two server processes on one PostgreSQL database (DATABASE_URL) and the Typesense stand-in served on loopback:
 * what one acknowledges the other serves, a replica killed with SIGKILL in the middle of a bulk leaves it to the
 * other, events sent to both are counted once, and a webhook delivery is sent once.
 */

const LEASE_SECONDS = 2;
let pg: PostgresCluster;
let typesense: { url: string; stop: () => Promise<void> };
let certs: TestCerts;
let receiver: TestReceiver;
/** The subscription's secret, once created: the receiver checks each call's signature with it. */
let hookSecret = "";
const dirs: string[] = [];
const replicas: ChildServer[] = [];
let env: Record<string, string>;

async function replica(): Promise<ChildServer> {
  const dataDir = tempDir("sfs-replica-");
  dirs.push(dataDir);
  const server = await spawnDrainedServer({ ...env, DATA_DIR: dataDir }, 30_000);
  replicas.push(server);
  return server;
}

const headers = (key: string) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
});
const admin = headers(DEMO_KEYS.DEMO_ADMIN_KEY);
const call = (server: ChildServer, method: string, path: string, key: string, body?: unknown) =>
  fetch(server.url + path, { method, headers: headers(key), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const task = async (server: ChildServer, id: string) =>
  (await (await fetch(`${server.url}/1.9/tasks/${id}`, { headers: admin })).json()) as { status: string; processedCount: number };

beforeAll(async () => {
  pg = await startPostgresCluster();
  typesense = new DocumentedCluster().serve();
  certs = makeTestCerts();
  receiver = await startTestReceiver(certs, { secret: () => hookSecret, outFile: join(tempDir("sfs-replica-hooks-"), "calls.jsonl") });
  env = {
    ...DEMO_KEYS,
    DATABASE_URL: await pg.createDatabase(),
    TYPESENSE_NODES: typesense.url,
    TYPESENSE_API_KEY: API_KEY,
    INDEXING_LEASE_SECONDS: String(LEASE_SECONDS),
    WEBHOOK_CA_FILE: certs.caFile,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    LOG_LEVEL: "error",
  };
}, 90_000);

afterAll(async () => {
  for (const r of replicas) {
    r.proc.kill(9);
    await r.proc.exited;
  }
  await receiver?.close();
  await typesense?.stop();
  await pg?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  if (certs) rmSync(certs.dir, { recursive: true, force: true });
});

test("what replica A acknowledges replica B serves; events sent to both are counted once; a webhook call is sent once", async () => {
  const a = await replica();
  const b = await replica();
  const webhook = (await (
    await call(a, "POST", "/1.9/webhooks", DEMO_KEYS.DEMO_ADMIN_KEY, { url: receiver.url + "/hooks", topic: "tags" })
  ).json()) as { id: string; secret: string };
  hookSecret = webhook.secret;
  const products = demoProducts(200);
  const { taskId } = (await (await call(a, "POST", "/1.9/products", DEMO_KEYS.DEMO_ADMIN_KEY, products)).json()) as { taskId: string };
  await until(async () => (await task(b, taskId)).status === "complete" || null, 30_000, "the bulk completes");
  const searchRes = await call(b, "GET", `/1.9/search?query=${encodeURIComponent(products[7]!.id)}&pageSize=1`, DEMO_KEYS.DEMO_SEARCH_KEY);
  const search = (await searchRes.json()) as { products: { productId: string }[] };
  expect(searchRes.status, JSON.stringify(search)).toBe(200);
  expect(search.products[0]?.productId).toBe(products[7]!.id);

  const searchEvent = (i: number) => ({
    type: "Search",
    data: { query: `q${i % 3}`, productIds: [products[0]!.id], pageSize: 30 },
    sessionId: `v${i}`,
  });
  const sent = await Promise.all(
    [a, b, a, b].map((server, round) =>
      call(
        server,
        "POST",
        "/1.9/tracking",
        DEMO_KEYS.DEMO_ANALYTICS_KEY,
        Array.from({ length: 25 }, (_, i) => searchEvent(round * 25 + i)),
      ),
    ),
  );
  expect(sent.map((r) => r.ok)).toEqual([true, true, true, true]);
  for (const server of [a, b]) {
    const report = (await (await call(server, "GET", "/1.9/reports/overview", DEMO_KEYS.DEMO_ADMIN_KEY)).json()) as { searches: number };
    expect(report.searches).toBe(100);
  }

  // Each product's text stage queues one call to the subscription; the replicas' dispatchers share the outbox.
  await until(
    async () => {
      const res = await call(b, "GET", `/1.9/webhooks/${webhook.id}/deliveries?status=succeeded&limit=100`, DEMO_KEYS.DEMO_ADMIN_KEY);
      const page = (await res.json()) as { deliveries: unknown[] };
      return page.deliveries.length >= 20 || null;
    },
    60_000,
    "webhook deliveries succeed",
  );
  const ids = receiver.calls.map((c) => c.deliveryId);
  expect(new Set(ids).size).toBe(ids.length);

  // Both replicas' enrichment workers finish stages, and every result reaches search: a replica's sync leaves a
  // store whose indexing lease the other holds, and applies it once the lease is free (store-writers.ts).
  const sql = postgres(env.DATABASE_URL!, { max: 1 });
  try {
    await until(
      async () => {
        const [row] =
          await sql`SELECT count(*)::int AS stages, count(*) FILTER (WHERE search_synced = 0)::int AS unsynced FROM product_enrichment`;
        return (row!.stages >= products.length && row!.unsynced === 0) || null;
      },
      60_000,
      "every finished stage is applied to search",
    );
  } finally {
    await sql.end();
  }
}, 180_000);

test("a store created with the stores CLI on DATABASE_URL is served by the running replicas at once", async () => {
  const [, b] = replicas;
  const cli = Bun.spawnSync([process.execPath, join(import.meta.dir, "../src/cli/stores.ts"), "create", "cli-shop"], {
    env: { ...process.env, ...env, DATA_DIR: tempDir("sfs-replica-cli-") },
    stdout: "pipe",
    stderr: "pipe",
  });
  expect(cli.exitCode).toBe(0);
  const searchKey = /search\s+(\S+)/.exec(cli.stdout.toString())?.[1];
  expect(searchKey).toStartWith("pk_search_");
  const res = await fetch(`${b!.url}/1.9/search?query=shirt`, {
    headers: { "x-service-store-id": "cli-shop", "x-service-api-key": searchKey! },
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { totalProductCount: number }).totalProductCount).toBe(0);
});

test("replica A killed with SIGKILL in the middle of a bulk: replica B completes it once its lease has run out", async () => {
  const [a, b] = replicas;
  const products = demoProducts(5000).map((p) => ({ ...p, id: `k-${p.id}` }));
  const { taskId } = (await (await call(a!, "POST", "/1.9/products", DEMO_KEYS.DEMO_ADMIN_KEY, products)).json()) as { taskId: string };
  const atKill = await until(
    async () => {
      const t = await task(b!, taskId);
      return t.processedCount > 0 ? t : null;
    },
    30_000,
    "A applies a first batch",
  );
  a!.proc.kill(9);
  await a!.proc.exited;
  // Killed in the middle: what is left is B's to do.
  expect(atKill.processedCount).toBeLessThan(products.length);
  const done = await until(
    async () => {
      const t = await task(b!, taskId);
      return t.status === "complete" ? t : null;
    },
    60_000,
    "B completes the bulk",
  );
  expect(done.processedCount).toBe(5000);
  const last = products.at(-1)!.id;
  const searchRes = await call(b!, "GET", `/1.9/search?query=${encodeURIComponent(last)}&pageSize=1`, DEMO_KEYS.DEMO_SEARCH_KEY);
  const search = (await searchRes.json()) as { products: { productId: string }[] };
  // On failure, the status and body say what B answered instead of a page of products.
  expect(searchRes.status, JSON.stringify(search)).toBe(200);
  expect(search.products[0]?.productId).toBe(last);
  // Each product once, at version 1: no batch was applied twice.
  const version = (await (
    await call(b!, "GET", `/1.9/products/${encodeURIComponent(products[2500]!.id)}`, DEMO_KEYS.DEMO_ADMIN_KEY)
  ).json()) as { version: number };
  expect(version.version).toBe(1);
}, 180_000);
