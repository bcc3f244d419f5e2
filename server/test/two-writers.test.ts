import { afterAll, beforeAll, expect, test } from "bun:test";
import { demoProducts } from "./support/demo-products.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";
import { searchEventBatch } from "./support/fixtures.ts";

/*
 * The embedded database has two writers in one process: the serving thread (catalog, rules, settings) and the
 * events thread (events and what they count towards). While shoppers' events pour in, the store's own writes must
 * not fail: each writer waits for the other's lock instead of failing at once, and a write that still finds it
 * held (a starved thread in the middle of a commit) is refused with a 503 that says when to retry, having written nothing.
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.stop());

test("an event flood and the store's writes at once: every write and every event is taken, every task completes", async () => {
  const batch = (i: number) => searchEventBatch("w", i);
  let sent = 0;
  const tracking: number[] = [];
  const lane = async () => {
    while (sent < 60) tracking.push((await s.call("analytics", "POST", "/1.9/tracking", batch(sent++))).status);
  };
  const flood = Promise.all(Array.from({ length: 8 }, lane));
  const writes: string[] = [];
  const refusals: string[] = [];
  /** A write as a store's client sends it: a 503 says the database was busy and when to try again. */
  const write = async (what: string, send: () => Promise<Response>) => {
    for (let attempt = 0; ; attempt++) {
      const res = await send();
      if (res.status !== 503 || attempt === 2) {
        writes.push(`${res.status} ${what}`);
        return res;
      }
      const body = (await res.json()) as { code: string };
      refusals.push(`${body.code} retry-after ${res.headers.get("retry-after")}`);
      await Bun.sleep(Number(res.headers.get("retry-after")) * 1000);
    }
  };
  const tasks: string[] = [];
  const products = demoProducts(1500);
  for (let i = 0; i < 15; i++) {
    const bulk = await write("products", () => s.call("admin", "POST", "/1.9/products", products.slice(i * 100, i * 100 + 100)));
    if (bulk.status === 202) tasks.push(((await bulk.json()) as { taskId: string }).taskId);
    // Read, then written, in one transaction: the kind that failed at once when the other thread had written.
    const rule = {
      conditions: [{ pattern: `promo${i}`, anchoring: "is" }],
      consequence: { hide: [{ objectID: "p1" }] },
      objectID: `r${i}`,
    };
    await write("rules", () => s.call("admin", "POST", "/1.9/rules/import?format=algolia", [rule]));
    await write("synonyms", () => s.call("admin", "PUT", `/1.9/synonyms/s${i}`, { synonyms: [`word${i}`, `other${i}`] }));
  }
  await flood;
  expect(tracking.filter((status) => status !== 200)).toEqual([]);
  // Each write is taken, at the latest when retried as its 503 said; a refusal is only ever the storage's.
  expect(writes.filter((w) => !/^20[02] /.test(w))).toEqual([]);
  expect(refusals.filter((r) => r !== "storage_unavailable retry-after 1")).toEqual([]);
  if (refusals.length) console.log(`two writers: ${refusals.length} of ${writes.length} writes waited out a busy database once`);
  for (const task of tasks) expect((await s.waitForTask(task, 120_000)).status).toBe("complete");
  const overview = (await (await s.call("admin", "GET", "/1.9/reports/overview")).json()) as { searches: number };
  expect(overview.searches).toBe(60 * 500);
}, 300_000);
