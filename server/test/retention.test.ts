import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";
import { RETENTION_CHUNK_ROWS } from "../src/modules/retention/retention-job.ts";
import { spawnServer } from "./support/child-server.ts";
import { eventually } from "./support/search-client.ts";
import { reopenTestServer, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * Retention through the real server: rows are written into a stopped server's database with old timestamps
 * (events take the server's receive time, so old ones cannot come through the API), then the server starts
 * again and its retention job must delete what is older than RETENTION_DAYS, and nothing else.
 */

const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

type Stopped = Pick<TestServer, "dataDir" | "storeId" | "keys">;

/** A data directory with the test store and its keys, its server stopped. */
async function stoppedServer(extraStores: string[] = []): Promise<Stopped> {
  const dir = tempDir("sfs-retention-");
  dirs.push(dir);
  const s = await startTestServer({}, dir);
  for (const id of extraStores) await s.createStore(id);
  await s.stop();
  return { dataDir: s.dataDir, storeId: s.storeId, keys: s.keys };
}

function withDb<T>(dataDir: string, fn: (db: Database) => T): T {
  const db = new Database(join(dataDir, "service.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Events tagged by `label` in their data, received at `at`. */
function insertEvents(dataDir: string, storeId: string, label: string, at: number, count = 1): void {
  withDb(dataDir, (db) => {
    const insert = db.query(
      "INSERT INTO events (store_id, type, received_at, user_id, session_id, api_version, data) VALUES (?, 'Search', ?, 'u1', 's1', '1.9', ?)",
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(storeId, at, JSON.stringify({ query: label, productIds: ["p1"] }));
    })();
  });
}

function insertSearchLog(dataDir: string, storeId: string, label: string, at: number, count = 1): void {
  withDb(dataDir, (db) => {
    const insert = db.query(
      "INSERT INTO search_log (store_id, at, query, collection, result_count, fallback, user_id, session_id, preprod) VALUES (?, ?, ?, NULL, 3, 0, 'u1', 's1', 0)",
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(storeId, at, label);
    })();
  });
}

const count = (dataDir: string, sql: string, ...params: (string | number)[]) =>
  withDb(dataDir, (db) => (db.query(sql).get(...params) as { n: number }).n);

/** The labels of every event GET /events returns for the store, over all time. */
async function eventLabels(url: string, s: Stopped): Promise<string[]> {
  const res = await fetch(`${url}/1.9/events?from=0&to=${Date.now() + DAY}&limit=1000`, {
    headers: { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.admin },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { events: { data: { query: string } }[]; nextCursor: string | null };
  expect(body.nextCursor).toBeNull();
  return body.events.map((e) => e.data.query).sort();
}

describe("retention", () => {
  test("shortly after start, raw rows older than 400 days go; recent rows and the aggregates stay", async () => {
    const stopped = await stoppedServer(["other-store"]);
    const now = Date.now();
    const dir = stopped.dataDir;
    insertEvents(dir, stopped.storeId, "old", now - 401 * DAY, 3);
    insertEvents(dir, stopped.storeId, "kept-399-days", now - 399 * DAY, 2);
    insertEvents(dir, stopped.storeId, "recent", now - 3_600_000, 2);
    insertEvents(dir, "other-store", "old", now - 500 * DAY, 4);
    insertSearchLog(dir, stopped.storeId, "old query", now - 401 * DAY, 3);
    insertSearchLog(dir, stopped.storeId, "recent query", now - DAY, 2);
    withDb(dir, (db) => {
      db.query("INSERT INTO query_stats (store_id, query, searches, result_count, last_at) VALUES (?, 'old query', 3, 3, ?)").run(
        stopped.storeId,
        now - 401 * DAY,
      );
      db.query("INSERT INTO product_signals (store_id, product_id, purchases) VALUES (?, 'p1', 5)").run(stopped.storeId);
      db.query("INSERT INTO counted_orders (store_id, order_id) VALUES (?, 'order-1')").run(stopped.storeId);
    });

    const s = await reopenTestServer(stopped);
    try {
      const gone = await eventually(
        async () => count(dir, "SELECT count(*) AS n FROM events WHERE received_at < ?", now - 400 * DAY) === 0,
        20_000,
        50,
      );
      expect(gone).toBe(true);
      // The pass deletes events before search logs, store by store: wait for it to reach the end.
      expect(
        await eventually(async () => count(dir, "SELECT count(*) AS n FROM search_log WHERE at < ?", now - 400 * DAY) === 0, 10_000, 50),
      ).toBe(true);

      expect(await eventLabels(s.url, stopped)).toEqual(["kept-399-days", "kept-399-days", "recent", "recent"]);
      expect(count(dir, "SELECT count(*) AS n FROM events WHERE store_id = 'other-store'")).toBe(0);
      expect(count(dir, "SELECT count(*) AS n FROM search_log WHERE query = 'recent query'")).toBe(2);
      expect(count(dir, "SELECT count(*) AS n FROM query_stats WHERE query = 'old query' AND searches = 3")).toBe(1);
      expect(count(dir, "SELECT count(*) AS n FROM product_signals WHERE product_id = 'p1' AND purchases = 5")).toBe(1);
      expect(count(dir, "SELECT count(*) AS n FROM counted_orders WHERE order_id = 'order-1'")).toBe(1);
    } finally {
      await s.stop();
    }
  }, 60_000);

  test("RETENTION_DAYS sets the period; a backlog of several chunks goes in one pass, which logs what it deleted", async () => {
    const stopped = await stoppedServer();
    const now = Date.now();
    const oldEvents = Math.round(RETENTION_CHUNK_ROWS * 2.5);
    const oldSearches = Math.round(RETENTION_CHUNK_ROWS * 1.5);
    insertEvents(stopped.dataDir, stopped.storeId, "old", now - 31 * DAY, oldEvents);
    insertEvents(stopped.dataDir, stopped.storeId, "recent", now - 29 * DAY, 3);
    insertSearchLog(stopped.dataDir, stopped.storeId, "old query", now - 31 * DAY, oldSearches);

    const server = await spawnServer({ DATA_DIR: stopped.dataDir, LOG_LEVEL: "info", RETENTION_DAYS: "30" });
    try {
      const line = await logLine(server.proc.stdout as ReadableStream<Uint8Array>, (l) => l.msg === "retention pass", 30_000);
      expect(line).toMatchObject({ level: "info", retentionDays: 30, deletedEvents: oldEvents, deletedSearchLogRows: oldSearches });
      expect(await eventLabels(server.url, stopped)).toEqual(["recent", "recent", "recent"]);
    } finally {
      server.proc.kill();
      await server.proc.exited;
    }
  }, 60_000);

  test("stopping the service ends a running pass between chunks; the next start finishes the job", async () => {
    const stopped = await stoppedServer();
    const backlog = RETENTION_CHUNK_ROWS * 50;
    insertEvents(stopped.dataDir, stopped.storeId, "old", Date.now() - 401 * DAY, backlog);
    const old = () => count(stopped.dataDir, "SELECT count(*) AS n FROM events");

    const first = await reopenTestServer(stopped);
    expect(await eventually(async () => old() < backlog, 20_000, 20)).toBe(true);
    await first.stop();
    const left = old();
    expect(left).toBeGreaterThan(0);
    expect(left % RETENTION_CHUNK_ROWS).toBe(0);

    const second = await reopenTestServer(stopped);
    try {
      expect(await eventually(async () => old() === 0, 30_000, 50)).toBe(true);
    } finally {
      await second.stop();
    }
  }, 90_000);

  test("RETENTION_DAYS must be a whole number of days from 1 to 36500", () => {
    expect(loadConfig({}).retentionDays).toBe(400);
    expect(loadConfig({ RETENTION_DAYS: "36500" }).retentionDays).toBe(36_500);
    for (const bad of ["0", "36501", "-5", "1.5", "a year"]) {
      expect(() => loadConfig({ RETENTION_DAYS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ RETENTION_DAYS: bad })).toThrow(/RETENTION_DAYS/);
    }
  });
});

/** The first JSON log line on `stdout` that `match` accepts; fails after `timeoutMs`. */
async function logLine(stdout: ReadableStream<Uint8Array>, match: (line: Record<string, unknown>) => boolean, timeoutMs: number) {
  const reader = stdout.getReader();
  const decoder = new TextDecoder();
  const timeout = setTimeout(() => reader.cancel(), timeoutMs);
  let buffered = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error("no matching log line before the server's output ended (or the wait timed out)");
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split("\n");
      buffered = lines.pop()!;
      for (const text of lines) {
        const line = JSON.parse(text) as Record<string, unknown>;
        if (match(line)) return line;
      }
    }
  } finally {
    clearTimeout(timeout);
    reader.releaseLock();
  }
}
