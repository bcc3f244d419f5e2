import { afterAll, beforeAll, expect, test } from "bun:test";
import { DocumentedCluster } from "./fixtures/typesense/documented-cluster.ts";
import { API_KEY } from "./fixtures/typesense/mock-cluster.ts";
import { demoProducts } from "./support/demo-products.ts";
import { indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * A search while the cluster is out of reach: a 503 in the usual error shape, with the code that says the engine
 * (not the service's own storage) failed, and a Retry-After, so a client waits instead of hammering it.
 */

const cluster = new DocumentedCluster();
let node: { url: string; stop: () => Promise<void> } | undefined;
let server: TestServer;

beforeAll(async () => {
  node = cluster.serve();
  server = await startTestServer({ TYPESENSE_NODES: node.url, TYPESENSE_API_KEY: API_KEY });
  await indexProducts(server, demoProducts(50));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await node?.stop();
});

test("a search while the only Typesense node is down answers 503 engine_unavailable with Retry-After", async () => {
  const up = await server.call("search", "GET", "/1.9/search?query=shirt");
  expect(up.status).toBe(200);
  await node!.stop();
  node = undefined;
  // Another query than the first: an answer given a moment ago may be served again without the engine.
  const down = await server.call("search", "GET", "/1.9/search?query=dress");
  expect(down.status).toBe(503);
  expect(down.headers.get("retry-after")).toBe("5");
  const body = (await down.json()) as { code: string; message: string };
  expect(body.code).toBe("engine_unavailable");
  expect(body.message).toContain("Typesense");
}, 60_000);
