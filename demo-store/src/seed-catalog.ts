import type { Product } from "../../server/src/modules/catalog/product-schema.ts";
import { progressBar } from "./progress-bar.ts";

/*
 * Feeds the demo catalog to the service the way a store would: through POST /products with the admin key,
 * in bulk requests, then following the tasks until all are complete.
 */

export interface SeedTarget {
  apiUrl: string;
  storeId: string;
  adminKey: string;
}

const BULK_SIZE = 1000;

async function call(t: SeedTarget, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${t.apiUrl}/1.9${path}`, {
    method,
    headers: { "x-service-store-id": t.storeId, "x-service-api-key": t.adminKey, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${json.message}`);
  return json;
}

export async function seedCatalog(t: SeedTarget, products: Product[], showProgress = true): Promise<void> {
  const bar = showProgress ? progressBar("Indexing demo catalog", products.length) : null;
  const tasks: { id: string; size: number; done: number }[] = [];
  let sending = true;
  // Tasks are followed while later bulks are still being sent, so the bar moves from the start.
  const send = async () => {
    try {
      for (let i = 0; i < products.length; i += BULK_SIZE) {
        const batch = products.slice(i, i + BULK_SIZE);
        const { taskId } = await call(t, "POST", "/products", batch);
        tasks.push({ id: taskId as string, size: batch.length, done: 0 });
      }
    } finally {
      sending = false;
    }
  };
  const follow = async () => {
    while (sending || tasks.some((task) => task.done < task.size)) {
      for (const task of tasks.filter((x) => x.done < x.size)) {
        const status = await call(t, "GET", `/tasks/${task.id}`);
        if (status.status === "error") throw new Error(`indexing task ${task.id} failed: ${status.message}`);
        task.done = status.status === "complete" ? task.size : (status.processedCount as number);
      }
      bar?.update(tasks.reduce((sum, task) => sum + task.done, 0));
      await Bun.sleep(200);
    }
  };
  await Promise.all([send(), follow()]);
  bar?.finish();
}
