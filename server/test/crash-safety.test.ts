import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { DEMO_KEYS, spawnServer, type ChildServer } from "./support/child-server.ts";
import { product } from "./support/fixtures.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * Nothing acknowledged is lost: tasks and events answered before a kill -9 are all there after a restart, and
 * every product is applied exactly once (version 1), however far the worker had got.
 */

const dataDir = tempDir("sfs-crash-");
const env = { DATA_DIR: dataDir, ...DEMO_KEYS };
const headers = (key: string) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
});
let running: ChildServer | null = null;
afterAll(() => {
  running?.proc.kill(9);
  rmSync(dataDir, { recursive: true, force: true });
});

test("kill -9 during a bulk upsert and an event burst loses nothing and applies nothing twice", async () => {
  running = await spawnServer(env);
  const { url } = running;
  const BULKS = 8;
  const PER_BULK = 1000;
  const taskRequests = Array.from({ length: BULKS }, (_, b) =>
    fetch(url + "/1.0/products", {
      method: "POST",
      headers: headers(DEMO_KEYS.DEMO_ADMIN_KEY),
      body: JSON.stringify(
        Array.from({ length: PER_BULK }, (_, i) => product(`c-${b}-${i}`, { description: `Bulk ${b} item ${i} with some words to index` })),
      ),
    }),
  );
  const eventRequests = Array.from({ length: 200 }, (_, i) =>
    fetch(url + "/1.0/tracking", {
      method: "POST",
      headers: headers(DEMO_KEYS.DEMO_ANALYTICS_KEY),
      body: JSON.stringify(Array.from({ length: 5 }, (_, j) => ({ type: "Search", data: { query: `crash-${i}-${j}` } }))),
    }),
  );
  const taskIds: string[] = [];
  for (const res of await Promise.all(taskRequests)) {
    expect(res.status).toBe(202);
    taskIds.push(((await res.json()) as { taskId: string }).taskId);
  }
  const ackedQueries = new Set<string>();
  const eventResponses = await Promise.all(eventRequests);
  eventResponses.forEach((res, i) => {
    expect(res.status).toBe(200);
    for (let j = 0; j < 5; j++) ackedQueries.add(`crash-${i}-${j}`);
  });

  const before = await fetch(url + `/1.0/tasks/${taskIds.at(-1)}`, { headers: headers(DEMO_KEYS.DEMO_ADMIN_KEY) });
  const pendingAtKill = ((await before.json()) as { status: string }).status === "pending";
  running.proc.kill(9);
  await running.proc.exited;

  running = await spawnServer(env);
  const admin = { headers: headers(DEMO_KEYS.DEMO_ADMIN_KEY) };
  const deadline = Date.now() + 60_000;
  for (const id of taskIds) {
    for (;;) {
      const task = (await (await fetch(running.url + `/1.0/tasks/${id}`, admin)).json()) as { status: string };
      if (task.status === "complete") break;
      expect(task.status).toBe("pending");
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(50);
    }
  }
  // Exactly once: every product is at version 1, in the catalog and in the engine.
  for (const id of ["c-0-0", "c-3-517", `c-${BULKS - 1}-${PER_BULK - 1}`]) {
    const entry = (await (await fetch(running.url + `/1.0/products/${id}`, admin)).json()) as { version: number };
    expect(entry.version).toBe(1);
  }
  const seen = new Set<string>();
  let cursor: string | null = null;
  do {
    const page = (await (await fetch(running.url + `/1.0/events?from=0&limit=1000${cursor ? `&cursor=${cursor}` : ""}`, admin)).json()) as {
      events: { data: { query: string } }[];
      nextCursor: string | null;
    };
    for (const e of page.events) seen.add(e.data.query);
    cursor = page.nextCursor;
  } while (cursor);
  expect([...ackedQueries].filter((q) => !seen.has(q))).toEqual([]);
  expect(seen.size).toBe(ackedQueries.size);
  // Every product's text is matched once (the engine rebuilt its text index from what it had committed).
  const search = await fetch(running.url + "/1.0/search?query=bulk", { headers: headers(DEMO_KEYS.DEMO_SEARCH_KEY) });
  expect(((await search.json()) as { totalProductCount: number }).totalProductCount).toBe(BULKS * PER_BULK);
  running.proc.kill("SIGTERM");
  await running.proc.exited;
  running = null;
  const { Database } = await import("bun:sqlite");
  const catalog = new Database(`${dataDir}/service.db`, { readonly: true });
  expect(catalog.query("SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM products WHERE deleted = 0").get()).toEqual({
    n: BULKS * PER_BULK,
    lo: 1,
    hi: 1,
  });
  catalog.close();
  const engine = new Database(`${dataDir}/engine/${DEMO_KEYS.DEMO_STORE_ID}.db`, { readonly: true });
  expect(engine.query("SELECT count(*) AS n, min(version) AS lo, max(version) AS hi FROM documents").get()).toEqual({
    n: BULKS * PER_BULK,
    lo: 1,
    hi: 1,
  });
  engine.close();
  console.log(`crash test: last task was ${pendingAtKill ? "still pending" : "already complete"} at kill -9`);
}, 120_000);
