import { expect, test } from "bun:test";
import { migrate, openDatabase } from "../src/db/connection.ts";
import { MIGRATIONS } from "../src/db/schema.ts";
import { SqliteWebhooksRepo } from "../src/db/webhooks-repo.ts";
import { enqueueDeliveries } from "../src/modules/webhooks/webhook-outbox.ts";
import { MAX_ATTEMPTS, nextAttemptAfterInterruption, nextAttemptAt, RETRY_WAITS_MS } from "../src/modules/webhooks/webhook-schedule.ts";

/*
 * The producers' side of the outbox on the embedded database (queued inside the caller's transaction) and the
 * retry schedule. Claims, history and pruning are in the repository conformance suite, on both databases.
 */

function setup() {
  const db = openDatabase(":memory:", { synchronous: "NORMAL" });
  migrate(db, MIGRATIONS);
  db.query("INSERT INTO stores (id, created_at) VALUES ('s1', 0), ('s2', 0)").run();
  const repo = new SqliteWebhooksRepo(db);
  const sub = (id: string, storeId = "s1") => repo.createSubscriptionWithin({ id, storeId, url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 }, 20);
  return { db, repo, sub };
}

const item = { storeId: "s1", productId: "p1", productVersion: 2, stage: "text", body: '{"productId":"p1"}', now: 1_000 };

test("enqueueDeliveries writes one row per live subscription of the store, inside the caller's transaction", async () => {
  const { db, repo, sub } = setup();
  await sub("wh_a");
  await sub("wh_b");
  await sub("wh_other", "s2");
  await sub("wh_gone");
  await repo.deleteSubscription("s1", "wh_gone", 0);

  // Rolled back with the caller's work: nothing queued.
  expect(() =>
    db.transaction(() => {
      expect(enqueueDeliveries(db, item)).toBe(2);
      throw new Error("the stage's own write failed");
    })(),
  ).toThrow("the stage's own write failed");
  expect((db.query("SELECT COUNT(*) AS n FROM webhook_deliveries").get() as { n: number }).n).toBe(0);

  expect(db.transaction(() => enqueueDeliveries(db, item))()).toBe(2);
  const rows = [...(await repo.deliveries("wh_a", { limit: 10 })), ...(await repo.deliveries("wh_b", { limit: 10 }))];
  expect(rows.map((r) => [r.productId, r.productVersion, r.stage, r.body, r.status, r.nextAttemptAt])).toEqual([
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
  ]);
  expect(rows[0]!.id).not.toBe(rows[1]!.id);
  expect(await repo.deliveries("wh_other", { limit: 10 })).toEqual([]);
  expect(enqueueDeliveries(db, { ...item, storeId: "s3" })).toBe(0);
});

test("the schedule: 15 waits after the first call, then dead; an interruption waits at least the time-out", () => {
  expect(RETRY_WAITS_MS.map((w) => w / 1000)).toEqual([30, 30, 30, 120, 120, 120, 300, 300, 300, 3600, 3600, 3600, 21600, 21600, 86400]);
  expect(MAX_ATTEMPTS).toBe(16);
  expect(nextAttemptAt(1, 1_000, 1)).toBe(31_000);
  expect(nextAttemptAt(15, 0, 1)).toBe(86_400_000);
  expect(nextAttemptAt(16, 0, 1)).toBeNull();
  expect(nextAttemptAt(4, 0, 0.001)).toBe(120);
  expect(nextAttemptAfterInterruption(1, 0, 1)).toBe(30_000);
  expect(nextAttemptAfterInterruption(1, 0, 0.001)).toBe(5_000);
  expect(nextAttemptAfterInterruption(16, 0, 1)).toBeNull();
});
