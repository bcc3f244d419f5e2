import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { chunked } from "../../src/lib/chunked.ts";
import type { Product } from "../../src/modules/catalog/product-schema.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./child-server.ts";
import { tempDir } from "./test-server.ts";

/*
 * The server as its own process (so a blocked event loop shows as slow answers to the caller, not as a paused
 * caller) on a fresh data directory, holding `products` indexed through the public API.
 */

export interface IndexedChildServer {
  url: string;
  proc: ChildServer["proc"];
  /** The server's DATA_DIR, to check what it recorded. */
  dataDir: string;
  /** Headers of the store's search key, and of its admin key. */
  searchHeaders: Record<string, string>;
  adminHeaders: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Whether search holds every text stage's result: no text stage is queued and every stage result is applied to
 * the engine (read from the server's database, which WAL lets another process read while it writes).
 */
export function textStagesInSearch(dataDir: string): boolean {
  const db = new Database(join(dataDir, "service.db"), { readonly: true });
  try {
    const queued = db.query("SELECT COUNT(*) AS n FROM enrichment_jobs WHERE stage = 'text'").get() as { n: number };
    const unsynced = db.query("SELECT COUNT(*) AS n FROM product_enrichment WHERE search_synced = 0").get() as { n: number };
    return queued.n === 0 && unsynced.n === 0;
  } finally {
    db.close();
  }
}

/**
 * Indexes bulks of products into a store of a running server through POST /products, with at most `ahead` tasks
 * unfinished at a time (so that a producer of a million products sends while the server works, without queueing
 * the whole catalog); waits for every task, and tells `onDone` each bulk's size as its task completes.
 */
export async function indexBulksOver(
  url: string,
  adminHeaders: Record<string, string>,
  bulks: Iterable<readonly Product[]>,
  { ahead = Number.POSITIVE_INFINITY, onDone }: { ahead?: number; onDone?: (products: number) => void } = {},
): Promise<void> {
  const unfinished: { taskId: string; products: number }[] = [];
  const followOldest = async () => {
    const { taskId, products } = unfinished.shift()!;
    for (;;) {
      const task = (await (await fetch(`${url}/1.9/tasks/${taskId}`, { headers: adminHeaders })).json()) as {
        status: string;
        message?: string;
      };
      if (task.status === "error") throw new Error(`task ${taskId} failed: ${task.message}`);
      if (task.status === "complete") break;
      await Bun.sleep(25);
    }
    onDone?.(products);
  };
  for (const bulk of bulks) {
    const res = await fetch(`${url}/1.9/products`, {
      method: "POST",
      headers: { ...adminHeaders, "content-type": "application/json" },
      body: JSON.stringify(bulk),
    });
    if (res.status !== 202) throw new Error(`POST /products answered ${res.status}: ${await res.text()}`);
    unfinished.push({ taskId: ((await res.json()) as { taskId: string }).taskId, products: bulk.length });
    while (unfinished.length >= ahead) await followOldest();
  }
  while (unfinished.length) await followOldest();
}

/** Indexes products into a store of a running server through POST /products (bulks of 10,000); waits for every task. */
export const indexOver = (url: string, adminHeaders: Record<string, string>, products: readonly Product[], bulkSize = 10_000) =>
  indexBulksOver(url, adminHeaders, chunked(products, bulkSize));

export async function startIndexedServer(
  products: readonly Product[],
  env: Record<string, string> = {},
  /** Also wait until the text stage's words are searchable, as they are soon after any product change. */
  opts: { enriched?: boolean } = {},
): Promise<IndexedChildServer> {
  const dataDir = tempDir("sfs-indexed-");
  const server = await spawnDrainedServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error", ...env }, 30_000);
  const stop = async () => {
    server.proc.kill();
    await server.proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
  try {
    await indexOver(server.url, admin, products);
    while (opts.enriched && !textStagesInSearch(dataDir)) await Bun.sleep(100);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    url: server.url,
    proc: server.proc,
    dataDir,
    searchHeaders: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY },
    adminHeaders: admin,
    stop,
  };
}
