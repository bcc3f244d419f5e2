import type { IndexingTask, ProductsAccepted, StoreSettingsBody } from "@storefront-search/contract";
import type { Bulk } from "./catalog-cache.ts";

/*
 * Feeds the demo catalog to the service the way a store would: through POST /products with the admin key, in
 * bulk requests, then following the tasks until all are complete. Bulks are sent as soon as they are converted,
 * at most `inFlight` at a time, so the service always has acknowledged work queued while the next one is
 * validated; tasks are applied in the order they were acknowledged, so following the oldest unfinished task is
 * enough to know how far indexing is.
 */

export interface SeedTarget {
  apiUrl: string;
  storeId: string;
  adminKey: string;
}

export interface SeedOptions {
  /** Requests sent before one is acknowledged. */
  inFlight?: number;
  pollMs?: number;
  /** Products indexed so far (complete tasks, plus the progress of the one being applied). */
  onProgress?: (indexed: number) => void;
}

/** Calls the admin API; `T` is the contract's type of the answer. */
async function call<T>(t: SeedTarget, method: string, path: string, body?: string): Promise<T> {
  const res = await fetch(`${t.apiUrl}/1.9${path}`, {
    method,
    headers: { "x-service-store-id": t.storeId, "x-service-api-key": t.adminKey, "content-type": "application/json" },
    body,
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${(json as { message?: string }).message}`);
  return json as T;
}

/** PATCH /settings: the demo store's own settings (the locales its enrichment webhooks speak). */
export async function applySettings(t: SeedTarget, settings: StoreSettingsBody): Promise<void> {
  await call(t, "PATCH", "/settings", JSON.stringify(settings));
}

interface SentTask {
  id: string;
  size: number;
}

export async function seedCatalog(t: SeedTarget, bulks: AsyncIterable<Bulk>, o: SeedOptions = {}): Promise<number> {
  const inFlight = o.inFlight ?? 2;
  const pollMs = o.pollMs ?? 200;
  const tasks: SentTask[] = [];
  let sending = true;

  const send = async () => {
    const pending = new Set<Promise<void>>();
    try {
      for await (const bulk of bulks) {
        const request = call<ProductsAccepted>(t, "POST", "/products", bulk.json).then(({ taskId }) => {
          tasks.push({ id: taskId, size: bulk.count });
        });
        // Kept in the set until settled; a failure surfaces through race/all below, never unhandled.
        const tracked = request.finally(() => pending.delete(tracked));
        tracked.catch(() => {});
        pending.add(tracked);
        if (pending.size >= inFlight) await Promise.race(pending);
      }
      await Promise.all(pending);
    } finally {
      sending = false;
    }
  };

  let complete = 0;
  const follow = async () => {
    let next = 0;
    while (sending || next < tasks.length) {
      let current = 0;
      while (next < tasks.length) {
        const task = tasks[next]!;
        const status = await call<IndexingTask>(t, "GET", `/tasks/${task.id}`);
        if (status.status === "error") throw new Error(`indexing task ${task.id} failed: ${status.message}`);
        if (status.status !== "complete") {
          current = status.processedCount;
          break;
        }
        complete += task.size;
        next++;
      }
      o.onProgress?.(complete + current);
      if (sending || next < tasks.length) await Bun.sleep(pollMs);
    }
  };

  await Promise.all([send(), follow()]);
  return complete;
}
