import { afterAll, beforeAll, expect, test } from "bun:test";
import { product } from "./support/fixtures.ts";
import { startPostgresCluster, type PostgresCluster } from "./support/postgres-cluster.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The real server on PostgreSQL state (DATABASE_URL, one replica with the embedded engine): it works as on SQLite,
 * and when the database goes away every request answers 503 with Retry-After, never 500.
 */

let pg: PostgresCluster;
let server: TestServer;
beforeAll(async () => {
  pg = await startPostgresCluster();
  server = await startTestServer({ DATABASE_URL: await pg.createDatabase(), SINGLE_REPLICA: "true" });
}, 60_000);
afterAll(async () => {
  // With the database gone, stopping waits for its connections' end (at most 5 s).
  await server?.stop();
  await pg?.stop();
}, 60_000);

test("indexing, search and tracking work on PostgreSQL; with the database gone /health and every route answer 503, with the reason and Retry-After", async () => {
  const accepted = await server.call("admin", "POST", "/1.9/products", [product("p1", { name: "Linen Shirt" })]);
  expect(accepted.status).toBe(202);
  const { taskId } = (await accepted.json()) as { taskId: string };
  for (
    let polls = 0;
    ((await (await server.call("admin", "GET", `/1.9/tasks/${taskId}`)).json()) as { status: string }).status !== "complete";
    polls++
  ) {
    expect(polls).toBeLessThan(200);
    await Bun.sleep(25);
  }
  const found = (await (await server.call("search", "GET", "/1.9/search?query=linen")).json()) as { products: { productId: string }[] };
  expect(found.products.map((p) => p.productId)).toEqual(["p1"]);
  expect(
    (
      await server.call("analytics", "POST", "/1.9/tracking", {
        type: "Search",
        data: { query: "linen", productIds: ["p1"] },
        sessionId: "v1",
      })
    ).status,
  ).toBe(200);

  expect((await fetch(server.url + "/health")).status).toBe(200);
  await pg.stop();
  // The next check (every 5 s) finds the database gone: a load balancer's health check says why.
  let health: Response;
  for (let polls = 0; (health = await fetch(server.url + "/health")).status === 200; polls++) {
    expect(polls).toBeLessThan(150);
    await Bun.sleep(50);
  }
  expect(health.status).toBe(503);
  expect(((await health.json()) as { reason: string }).reason).toContain("the database cannot be reached");
  for (const [kind, method, path, body] of [
    ["search", "GET", "/1.9/search?query=linen", undefined],
    ["analytics", "POST", "/1.9/tracking", { type: "Search", data: { query: "linen" }, sessionId: "v1" }],
    ["admin", "POST", "/1.9/products", [product("p2")]],
  ] as const) {
    const res = await server.call(kind, method, path, body);
    expect({ path, status: res.status }).toEqual({ path, status: 503 });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toContain("database");
  }
}, 60_000);
