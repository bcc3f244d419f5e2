import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { demoProducts } from "./support/demo-products.ts";
import { indexProducts } from "./support/search-client.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * Search as you type sends a search per keystroke; the log keeps the query the shopper settled on. The server runs
 * with the default settle time, which a busy machine's keystrokes, sent one after another, stay well within.
 */

const SETTLE_MS = 3_000;
let s: TestServer;

beforeAll(async () => {
  s = await startTestServer({ SEARCH_LOG_SETTLE_MS: String(SETTLE_MS) });
  await indexProducts(s, demoProducts(200));
});
afterAll(() => s?.stop());

const search = (query: string, shopper: Record<string, string>) =>
  s.call("search", "GET", `/1.9/search?${new URLSearchParams({ query, pageSize: "2", ...shopper })}`);

function logged(): { query: string | null; userId: string | null; sessionId: string | null }[] {
  const db = new Database(`${s.dataDir}/service.db`, { readonly: true });
  try {
    return db.query("SELECT query, user_id AS userId, session_id AS sessionId FROM search_log ORDER BY seq").all() as never;
  } finally {
    db.close();
  }
}

/** The log once it holds `count` rows (the group commit writes every 250 ms); a generous time-out against a hang. */
async function loggedRows(count: number): Promise<ReturnType<typeof logged>> {
  for (let i = 0; i < 300; i++) {
    const rows = logged();
    if (rows.length >= count) return rows;
    await Bun.sleep(100);
  }
  return logged();
}

test("a shopper's keystrokes are logged as the one query they settled on; other shoppers' searches are their own", async () => {
  for (const typed of ["s", "sh", "shi", "shir", "shirt", "shirts"])
    expect((await search(typed, { sessionId: "typist" })).status).toBe(200);
  // Deleting back to a shorter word is typing too.
  expect((await search("shirt", { sessionId: "typist" })).status).toBe(200);
  expect((await search("jeans", { userId: "other-shopper" })).status).toBe(200);
  // No shopper to follow: nothing to coalesce, logged as it came.
  expect((await search("shoes", {})).status).toBe(200);

  const rows = await loggedRows(3);
  expect(rows.map((r) => r.query).sort()).toEqual(["jeans", "shirt", "shoes"]);
  expect(rows.find((r) => r.query === "shirt")?.sessionId).toBe("typist");
});

test("a new query that does not continue the last one logs the last one at once; a pause longer than the settle time makes two searches", async () => {
  const before = logged().length;
  await search("red dress", { userId: "browser" });
  await search("blue jeans", { userId: "browser" });
  expect((await loggedRows(before + 1)).slice(before).map((r) => r.query)).toEqual(["red dress"]);

  await Bun.sleep(SETTLE_MS * 2);
  await search("blue jeans slim", { userId: "browser" });
  const rows = (await loggedRows(before + 3)).slice(before).map((r) => r.query);
  expect(rows).toEqual(["red dress", "blue jeans", "blue jeans slim"]);
});

test("a held search is written before a shopper's erasure, so the erasure takes it too", async () => {
  await search("kurta", { userId: "leaving" });
  const res = await s.call("admin", "DELETE", "/1.9/users/leaving");
  expect(res.status).toBe(200);
  expect(((await res.json()) as { erased: { searches: number } }).erased.searches).toBe(1);
  await Bun.sleep(SETTLE_MS * 2);
  expect(logged().filter((r) => r.userId === "leaving")).toEqual([]);
});

test("SEARCH_LOG_SETTLE_MS is bounded: a bad value stops the start with a message naming it", async () => {
  await expect(startTestServer({ SEARCH_LOG_SETTLE_MS: "90000" })).rejects.toThrow(/SEARCH_LOG_SETTLE_MS/);
});
