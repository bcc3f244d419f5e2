import { expect, test } from "bun:test";
import { migrate, openDatabase } from "../src/db/connection.ts";
import { MIGRATIONS } from "../src/db/schema.ts";
import { MAX_KEPT_ATTEMPTS, WebhooksRepo } from "../src/db/webhooks-repo.ts";
import { enqueueDeliveries } from "../src/modules/webhooks/webhook-outbox.ts";
import { MAX_ATTEMPTS, nextAttemptAfterInterruption, nextAttemptAt, RETRY_WAITS_MS } from "../src/modules/webhooks/webhook-schedule.ts";

/* The outbox and its schedule without HTTP: transactions, claims, history, pruning. */

function setup() {
  const db = openDatabase(":memory:", { synchronous: "NORMAL" });
  migrate(db, MIGRATIONS);
  db.query("INSERT INTO stores (id, created_at) VALUES ('s1', 0), ('s2', 0)").run();
  const repo = new WebhooksRepo(db);
  const sub = (id: string, storeId = "s1") => repo.createSubscription({ id, storeId, url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 });
  return { db, repo, sub };
}

const item = { storeId: "s1", productId: "p1", productVersion: 2, stage: "text", body: '{"productId":"p1"}', now: 1_000 };

test("enqueueDeliveries writes one row per live subscription of the store, inside the caller's transaction", () => {
  const { db, repo, sub } = setup();
  sub("wh_a");
  sub("wh_b");
  sub("wh_other", "s2");
  repo.createSubscription({ id: "wh_gone", storeId: "s1", url: "https://8.8.8.8/", topic: "tags", secret: "x", createdAt: 0 });
  repo.deleteSubscription("s1", "wh_gone", 0);

  // Rolled back with the caller's work: nothing queued.
  expect(() =>
    db.transaction(() => {
      expect(enqueueDeliveries(db, item)).toBe(2);
      throw new Error("the stage's own write failed");
    })(),
  ).toThrow("the stage's own write failed");
  expect((db.query("SELECT COUNT(*) AS n FROM webhook_deliveries").get() as { n: number }).n).toBe(0);

  expect(db.transaction(() => enqueueDeliveries(db, item))()).toBe(2);
  const rows = [...repo.deliveries("wh_a", { limit: 10 }), ...repo.deliveries("wh_b", { limit: 10 })];
  expect(rows.map((r) => [r.productId, r.productVersion, r.stage, r.body, r.status, r.nextAttemptAt])).toEqual([
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
    ["p1", 2, "text", '{"productId":"p1"}', "pending", 1_000],
  ]);
  expect(rows[0]!.id).not.toBe(rows[1]!.id);
  expect(repo.deliveries("wh_other", { limit: 10 })).toEqual([]);
  expect(enqueueDeliveries(db, { ...item, storeId: "s3" })).toBe(0);
});

test("a claim wins once; a deleted subscription gives up its waiting deliveries", () => {
  const { db, repo, sub } = setup();
  sub("wh_a");
  enqueueDeliveries(db, item);
  enqueueDeliveries(db, { ...item, productId: "p2" });
  const [d] = repo.due("wh_a", 1_000, 1);
  expect(repo.claim(d!.id, 1, 1_000)).toBe(true);
  expect(repo.claim(d!.id, 1, 1_000)).toBe(false);
  expect(repo.due("wh_a", 1_000, 10).map((r) => r.productId)).toEqual(["p2"]);
  expect(repo.inFlight().map((r) => [r.id, r.inFlight])).toEqual([[d!.id, 1]]);
  expect(repo.redeliver("wh_a", d!.id, 1_000)).toBe("in_flight");

  repo.deleteSubscription("s1", "wh_a", 2_000);
  expect(repo.due("wh_a", 10_000, 10)).toEqual([]);
  const waiting = repo.deliveries("wh_a", { productId: "p2", limit: 1 })[0]!;
  expect([waiting.status, waiting.nextAttemptAt]).toEqual(["dead", null]);
  // The one in flight is recorded when its call ends, and not retried.
  const [e] = repo.deliveries("wh_a", { productId: "p2", limit: 1 });
  db.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = NULL, in_flight = 1, in_flight_at = 1000 WHERE id = ?").run(e!.id);
  repo.finishAttempt(e!.id, 1, { at: 1_000, status: 500, durationMs: 5, error: "HTTP 500" }, { status: "failed", nextAttemptAt: 1_030, finishedAt: null });
  expect(repo.delivery("wh_a", e!.id)).toMatchObject({ status: "dead", nextAttemptAt: null, inFlight: null });
  expect(repo.finishAttempt(d!.id, 1, { at: 1_000, status: 200, durationMs: 5, error: null }, { status: "succeeded", nextAttemptAt: null, finishedAt: 1_005 })).toBe(true);
  expect(repo.finishAttempt(d!.id, 1, { at: 1_000, status: 200, durationMs: 5, error: null }, { status: "succeeded", nextAttemptAt: null, finishedAt: 1_005 })).toBe(false);
});

test(`a delivery keeps its last ${MAX_KEPT_ATTEMPTS} attempts; finished ones are pruned`, () => {
  const { db, repo, sub } = setup();
  sub("wh_a");
  enqueueDeliveries(db, item);
  const id = repo.due("wh_a", 1_000, 1)[0]!.id;
  for (let n = 1; n <= MAX_KEPT_ATTEMPTS + 5; n++) {
    if (n > 1 && n % MAX_ATTEMPTS === 1) expect(repo.redeliver("wh_a", id, n)).not.toBeNull();
    const round = ((n - 1) % MAX_ATTEMPTS) + 1;
    expect(repo.claim(id, round, n)).toBe(true);
    repo.finishAttempt(id, round, { at: n, status: 500, durationMs: 1, error: "HTTP 500" }, { status: "failed", nextAttemptAt: n, finishedAt: null });
  }
  const attempts = repo.delivery("wh_a", id)!.attempts;
  expect(attempts).toHaveLength(MAX_KEPT_ATTEMPTS);
  expect(attempts[0]!.at).toBe(6);

  db.query("UPDATE webhook_deliveries SET status = 'dead', next_attempt_at = NULL, finished_at = 500").run();
  expect(repo.pruneFinished(400, 100)).toBe(0);
  expect(repo.pruneFinished(600, 100)).toBe(1);
  expect(repo.delivery("wh_a", id)).toBeNull();
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
