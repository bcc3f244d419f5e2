import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./support/child-server.ts";
import { demoProducts } from "./support/demo-products.ts";
import { tempDir } from "./support/test-server.ts";

/*
 * Enrichment yields to indexing: while acknowledged products wait to be indexed, no enrichment stage runs (they
 * commit on the same thread), and the stages follow once the backlog is gone. Watched from another process
 * through the server's database, as a bulk of 5,000 demo products is indexed in several batches.
 */

const dataDir = tempDir("sfs-enrichment-yield-");
let server: ChildServer | null = null;
afterAll(async () => {
  server?.proc.kill();
  await server?.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
});

test("no enrichment stage runs while indexing work is pending; the stages run once it is done", async () => {
  server = await spawnDrainedServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error" }, 30_000);
  const res = await fetch(`${server.url}/1.9/products`, {
    method: "POST",
    headers: {
      "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
      "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY,
      "content-type": "application/json",
    },
    body: JSON.stringify(demoProducts(5000)),
  });
  expect(res.status).toBe(202);
  const db = new Database(join(dataDir, "service.db"), { readonly: true });
  try {
    const read = db.query(
      "SELECT (SELECT coalesce(sum(item_count - cursor), 0) FROM tasks WHERE status = 'pending') AS pending, (SELECT COUNT(*) FROM product_enrichment) AS enriched, (SELECT COUNT(*) FROM enrichment_jobs) AS queued",
    );
    let sawQueuedWhilePending = false;
    for (let polls = 0; ; polls++) {
      const { pending, enriched, queued } = read.get() as { pending: number; enriched: number; queued: number };
      if (pending === 0) break;
      // Batches already applied queue their products for enrichment, which must wait.
      if (queued > 0) sawQueuedWhilePending = true;
      expect({ pending: pending > 0, enriched }).toEqual({ pending: true, enriched: 0 });
      expect(polls).toBeLessThan(600);
      await Bun.sleep(20);
    }
    expect(sawQueuedWhilePending).toBe(true);
    for (let polls = 0; (read.get() as { enriched: number }).enriched === 0; polls++) {
      expect(polls).toBeLessThan(500);
      await Bun.sleep(20);
    }
  } finally {
    db.close();
  }
}, 60_000);
