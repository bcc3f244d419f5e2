import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StoreKeys } from "../../src/modules/stores/store-admin.ts";
import { loadConfig } from "../../src/config.ts";
import { startService, type RunningService } from "../../src/composition/start-service.ts";

/* The real server on a free loopback port, with real SQLite files in a fresh temp dir. */

export type KeyKind = keyof StoreKeys;

export interface TestServer {
  url: string;
  dataDir: string;
  storeId: string;
  keys: StoreKeys;
  service: RunningService;
  /** Creates another store and returns its keys. */
  createStore(storeId: string): Promise<StoreKeys>;
  /** A request as `kind` of the default store (or none), body sent as JSON. */
  call(kind: KeyKind | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  waitForTask(taskId: string, timeoutMs?: number): Promise<{ status: string; message?: string }>;
  stop(): Promise<void>;
}

export function tempDir(prefix = "sfs-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/**
 * Tests send bursts no shopper would (fuzzing, load); rate limits are off unless a test sets them
 * (server/test/rate-limits.test.ts tests the defaults).
 */
/**
 * No rate limits, and a search budget a busy test machine does not reach: a search past its budget skips the
 * fallback and spelling that relevance tests judge (the budget itself is tested in hostile-search.test.ts).
 */
export const UNLIMITED = {
  SEARCH_BUDGET_MS: "5000",
  RATE_LIMIT_BROWSER_PER_SECOND: "0",
  RATE_LIMIT_ADMIN_PER_SECOND: "0",
  RATE_LIMIT_EVENTS_PER_SECOND: "0",
  RATE_LIMIT_ADMIN_EVENTS_PER_SECOND: "0",
};

export async function startTestServer(env: Record<string, string> = {}, existingDir?: string): Promise<TestServer> {
  const dataDir = existingDir ?? tempDir();
  const service = await startService(
    loadConfig({ DATA_DIR: dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", ...UNLIMITED, ...env }),
  );
  const storeId = "test-store";
  const keys =
    (await service.storeAdmin.create(storeId)) ??
    (() => {
      throw new Error("store exists; pass a fresh dir");
    })();
  return testServer(service, dataDir, storeId, keys, !existingDir);
}

/**
 * A restart: the real server started again on the data directory an earlier TestServer used, serving the store
 * that already exists there with its keys. stop() leaves the directory in place; the caller removes it.
 */
export async function reopenTestServer(
  previous: Pick<TestServer, "dataDir" | "storeId" | "keys">,
  env: Record<string, string> = {},
): Promise<TestServer> {
  const service = await startService(
    loadConfig({ DATA_DIR: previous.dataDir, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", ...UNLIMITED, ...env }),
  );
  return testServer(service, previous.dataDir, previous.storeId, previous.keys, false);
}

function testServer(service: RunningService, dataDir: string, storeId: string, keys: StoreKeys, ownsDir: boolean): TestServer {
  const server: TestServer = {
    url: service.url,
    dataDir,
    storeId,
    keys,
    service,
    createStore: async (id) => (await service.storeAdmin.create(id))!,
    call(kind, method, path, body, headers = {}) {
      const h: Record<string, string> = { ...headers };
      if (kind) {
        h["x-service-store-id"] ??= storeId;
        h["x-service-api-key"] ??= keys[kind];
      }
      if (body !== undefined) h["content-type"] ??= "application/json";
      return fetch(service.url + path, {
        method,
        headers: h,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
    },
    async waitForTask(taskId, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await server.call("admin", "GET", `/1.9/tasks/${taskId}`);
        const task = (await res.json()) as { status: string; message?: string };
        if (task.status !== "pending") return task;
        if (Date.now() > deadline) throw new Error(`task ${taskId} still pending after ${timeoutMs} ms`);
        await Bun.sleep(20);
      }
    },
    async stop() {
      await service.stop();
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** Asserts the shape every error response has, and returns its body. */
export async function errorBody(res: Response): Promise<{ message: string; code: string; details?: { path: string; problem: string }[] }> {
  if (!res.headers.get("content-type")?.startsWith("application/json")) {
    throw new Error(`error response is ${res.headers.get("content-type")}, not JSON`);
  }
  const body = (await res.json()) as { message: string; code: string };
  if (typeof body.message !== "string" || !body.message || typeof body.code !== "string") {
    throw new Error(`error body lacks message/code: ${JSON.stringify(body)}`);
  }
  return body;
}
