import { expect, test } from "bun:test";
import { migrate, openDatabase } from "../src/platform/sqlite/connection.ts";
import { MIGRATIONS } from "../src/platform/sqlite/schema.ts";
import { SqliteWebhooksRepo } from "../src/modules/webhooks/storage/webhooks.sqlite.ts";
import { createLogger } from "../src/log.ts";
import { WebhookDispatcher } from "../src/modules/webhooks/webhook-dispatcher.ts";
import { enqueueDeliveriesIn } from "../src/modules/webhooks/storage/webhooks.sqlite.ts";
import { eventually } from "./support/search-client.ts";
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
  const sub = (id: string, storeId = "s1") =>
    repo.createSubscriptionWithin({ id, storeId, url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 }, 20);
  return { db, repo, sub };
}

const item = { storeId: "s1", productId: "p1", productVersion: 2, stage: "text", body: '{"productId":"p1"}', now: 1_000 };

test("enqueueDeliveriesIn writes one row per live subscription of the store, inside the caller's transaction", async () => {
  const { db, repo, sub } = setup();
  await sub("wh_a");
  await sub("wh_b");
  await sub("wh_other", "s2");
  await sub("wh_gone");
  await repo.deleteSubscription("s1", "wh_gone", 0);

  // Rolled back with the caller's work: nothing queued.
  expect(() =>
    db.transaction(() => {
      expect(enqueueDeliveriesIn(db, item)).toBe(2);
      throw new Error("the stage's own write failed");
    })(),
  ).toThrow("the stage's own write failed");
  expect((db.query("SELECT COUNT(*) AS n FROM webhook_deliveries").get() as { n: number }).n).toBe(0);

  expect(db.transaction(() => enqueueDeliveriesIn(db, item))()).toBe(2);
  const rows = [...(await repo.deliveries("wh_a", { limit: 10 })), ...(await repo.deliveries("wh_b", { limit: 10 }))];
  expect(rows.map((r) => [r.productId, r.productVersion, r.stage, r.body, r.status, r.nextAttemptAt])).toEqual([
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
  ]);
  expect(rows[0]!.id).not.toBe(rows[1]!.id);
  expect(await repo.deliveries("wh_other", { limit: 10 })).toEqual([]);
  expect(enqueueDeliveriesIn(db, { ...item, storeId: "s3" })).toBe(0);
});

test("with a lease (replicas), a round settles a claim left in flight only once the lease is over, and every round looks", async () => {
  const { db, repo, sub } = setup();
  await sub("wh_a");
  enqueueDeliveriesIn(db, item);
  // Claimed at 1 s by a replica that then died before recording its call.
  const [left] = await repo.claimDue("wh_a", 1_000, 1);
  let now = 8_000;
  const dispatcher = new WebhookDispatcher({
    repo,
    leaseMs: 10_000,
    log: createLogger("silent"),
    caFile: null,
    allowPrivateNetworks: false,
    retryTimeScale: 1,
    apiVersion: "1.9",
    now: () => now,
  });
  dispatcher.start();
  try {
    // Rounds run (every POLL_MS) while the lease holds: the claim is another replica's and stays in flight.
    await Bun.sleep(600);
    expect(await repo.delivery("wh_a", left!.id)).toMatchObject({ inFlight: 1, attempts: [] });
    // Past the lease, but before the settled delivery's retry is due: nothing is sent in this test.
    now = 11_001;
    expect(await eventually(async () => (await repo.delivery("wh_a", left!.id))?.inFlight === null, 5_000)).toBe(true);
    const settled = (await repo.delivery("wh_a", left!.id))!;
    expect(settled).toMatchObject({ status: "failed", roundAttempts: 1 });
    expect(settled.attempts[0]).toMatchObject({ at: 1_000, status: null, durationMs: null });
    expect(settled.attempts[0]!.error).toContain("interrupted");
    expect(settled.nextAttemptAt).toBe(nextAttemptAfterInterruption(1, 1_000, 1));
    expect(settled.nextAttemptAt!).toBeGreaterThan(now);
    expect(dispatcher.openCalls()).toBe(0);
  } finally {
    await dispatcher.stop();
  }
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
