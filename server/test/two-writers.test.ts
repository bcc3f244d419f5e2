import { afterAll, beforeAll, expect, test } from "bun:test";
import { demoProducts } from "./support/demo-products.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The embedded database has two writers in one process: the serving thread (catalog, rules, settings) and the
 * events thread (events and what they count towards). While shoppers' events pour in, the store's own writes must
 * neither be refused nor fail: each writer waits for the other's lock instead of failing at once.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

test("an event flood and the store's writes at once: every write and every event is taken, every task completes", async () => {
  const batch = (i: number) =>
    Array.from({ length: 500 }, (_, j) => ({
      type: "Search",
      sessionId: `w-${i}-${j % 25}`,
      data: { query: `flood ${j % 50}`, productIds: ["p1"], pageSize: 30, totalProducts: 1 },
    }));
  let sent = 0;
  const tracking: number[] = [];
  const lane = async () => {
    while (sent < 60) tracking.push((await s.call("analytics", "POST", "/1.9/tracking", batch(sent++))).status);
  };
  const flood = Promise.all(Array.from({ length: 8 }, lane));
  const writes: number[] = [];
  const tasks: string[] = [];
  const products = demoProducts(1500);
  for (let i = 0; i < 15; i++) {
    const bulk = await s.call("admin", "POST", "/1.9/products", products.slice(i * 100, i * 100 + 100));
    writes.push(bulk.status);
    if (bulk.status === 202) tasks.push(((await bulk.json()) as { taskId: string }).taskId);
    // Read, then written, in one transaction: the kind that failed at once when the other thread had written.
    const rule = {
      conditions: [{ pattern: `promo${i}`, anchoring: "is" }],
      consequence: { hide: [{ objectID: "p1" }] },
      objectID: `r${i}`,
    };
    writes.push((await s.call("admin", "POST", "/1.9/rules/import?format=algolia", [rule])).status);
    writes.push((await s.call("admin", "PUT", `/1.9/synonyms/s${i}`, { synonyms: [`word${i}`, `other${i}`] })).status);
  }
  await flood;
  expect(tracking.filter((status) => status !== 200)).toEqual([]);
  expect(writes.filter((status) => status !== 200 && status !== 202)).toEqual([]);
  for (const task of tasks) expect((await s.waitForTask(task, 120_000)).status).toBe("complete");
  const overview = (await (await s.call("admin", "GET", "/1.9/reports/overview")).json()) as { searches: number };
  expect(overview.searches).toBe(60 * 500);
}, 300_000);
