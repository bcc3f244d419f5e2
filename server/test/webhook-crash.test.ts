import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../src/platform/sqlite/connection.ts";
import { RETRY_WAITS_MS, ATTEMPT_TIMEOUT_MS } from "../src/modules/webhooks/webhook-schedule.ts";
import { DEMO_KEYS, spawnDrainedServer, type ChildServer } from "./support/child-server.ts";
import { makeTestCerts } from "./support/test-certs.ts";
import { tempDir } from "./support/test-server.ts";
import { enqueueFromOutside, startTestReceiver, tagsBody, until, type TestReceiver } from "./support/webhook-support.ts";

/*
 * kill -9 while deliveries are in flight, then a restart on the same data: the attempts the dead process left
 * open count as failed ("interrupted"), the schedule goes on from them, and no delivery is ever sent twice at
 * once (the receiver never sees a second call of one delivery while it is still handling the first).
 */

const SCALE = 0.001; // 30 s -> 30 ms, 2 min -> 120 ms
const HANDLING_MS = 300;

const certs = makeTestCerts();
const dataDir = tempDir("sfs-webhook-crash-");
const env = {
  DATA_DIR: dataDir,
  ...DEMO_KEYS,
  LOG_LEVEL: "error",
  WEBHOOK_CA_FILE: certs.caFile,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  WEBHOOK_RETRY_TIME_SCALE: String(SCALE),
};
const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
let running: ChildServer | null = null;
let receiver: TestReceiver | null = null;

afterAll(async () => {
  running?.proc.kill(9);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(certs.dir, { recursive: true, force: true });
});

const start = () => spawnDrainedServer(env);

interface Delivery {
  deliveryId: string;
  status: string;
  attempts: { at: string; status: number | null; durationMs: number | null; error: string | null }[];
}

async function listDeliveries(url: string, webhookId: string): Promise<Delivery[]> {
  const res = await fetch(`${url}/1.9/webhooks/${webhookId}/deliveries`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

test("kill -9 mid-schedule: the schedule resumes after a restart, never two calls of one delivery at once", async () => {
  let secret = "";
  /** Per delivery, when the receiver was handling a call (performance.now()). */
  const handling = new Map<string, { start: number; end: number | null }[]>();
  const dir = tempDir("sfs-webhook-crash-receiver-");
  receiver = await startTestReceiver(certs, {
    secret: () => secret,
    outFile: join(dir, "calls.jsonl"),
    onCall: async (call) => {
      const spans = handling.get(call.deliveryId!) ?? [];
      handling.set(call.deliveryId!, spans);
      const span = { start: performance.now(), end: null as number | null };
      spans.push(span);
      await Bun.sleep(HANDLING_MS);
      span.end = performance.now();
      throw new Error("not today");
    },
  });

  running = await start();
  const created = await fetch(`${running.url}/1.9/webhooks`, {
    method: "POST",
    headers: { ...admin, "content-type": "application/json" },
    body: JSON.stringify({ url: `${receiver.url}/crash`, topic: "tags" }),
  });
  expect(created.status).toBe(201);
  const sub = (await created.json()) as { id: string; secret: string };
  secret = sub.secret;
  enqueueFromOutside(dataDir, [
    { storeId: DEMO_KEYS.DEMO_STORE_ID, productId: "crash-1", body: tagsBody("crash-1") },
    { storeId: DEMO_KEYS.DEMO_STORE_ID, productId: "crash-2", body: tagsBody("crash-2") },
  ]);

  // Kill while the third call of a delivery is being handled.
  await until(
    () => [...handling.values()].some((spans) => spans.length === 3 && spans[2]!.end === null),
    10_000,
    "a third call in progress",
  );
  running.proc.kill(9);
  await running.proc.exited;
  const killedAt = performance.now();

  // The dead process left its attempts in flight, with their numbers.
  const db = openDatabase(join(dataDir, "service.db"), { synchronous: "NORMAL" });
  const inFlight = db.query("SELECT id, in_flight FROM webhook_deliveries WHERE in_flight IS NOT NULL").all() as {
    id: string;
    in_flight: number;
  }[];
  db.close();
  expect(inFlight.length).toBeGreaterThanOrEqual(1);
  // An attempt is marked in flight before its call goes out, so the kill may come before the receiver saw it.
  const unseen = new Map(inFlight.map((row) => [row.id, row.in_flight - (handling.get(row.id)?.length ?? 0)]));
  for (const row of inFlight) expect([0, 1]).toContain(unseen.get(row.id)!);

  running = await start();
  // Each delivery gets two more calls after the restart.
  const callsAtKill = new Map([...handling].map(([id, spans]) => [id, spans.filter((s) => s.start < killedAt).length]));
  await until(
    () => [...handling].every(([id, spans]) => spans.length >= callsAtKill.get(id)! + 2 && spans.every((s) => s.end !== null)),
    20_000,
    "two more calls each",
  );
  const callsBefore = new Map([...handling].map(([id, spans]) => [id, spans.length]));
  const listed = await listDeliveries(running.url, sub.id);
  const callsAfter = new Map([...handling].map(([id, spans]) => [id, spans.length]));
  await fetch(`${running.url}/1.9/webhooks/${sub.id}`, { method: "DELETE", headers: admin });

  // Never a second call of a delivery while the receiver was still handling one (it would have answered 409).
  expect(receiver.calls.filter((c) => c.status === 409)).toEqual([]);
  for (const spans of handling.values()) {
    for (let i = 1; i < spans.length; i++) expect(spans[i]!.start).toBeGreaterThanOrEqual(spans[i - 1]!.end!);
  }

  for (const row of inFlight) {
    const d = listed.find((x) => x.deliveryId === row.id)!;
    const n = row.in_flight;
    // The interrupted attempt is attempt n, recorded without an answer...
    const interrupted = d.attempts[n - 1]!;
    expect(interrupted.error).toContain("interrupted");
    expect(interrupted.status).toBeNull();
    expect(interrupted.durationMs).toBeNull();
    // ...the next one came no sooner than the time-out after it started (its own wait is shorter at this scale)...
    expect(Date.parse(d.attempts[n]!.at) - Date.parse(interrupted.at)).toBeGreaterThanOrEqual(
      Math.max(RETRY_WAITS_MS[n - 1]! * SCALE, ATTEMPT_TIMEOUT_MS),
    );
    // ...and the schedule went on from there: after attempt n + 1 fails, the wait is the (n + 1)th.
    const after = d.attempts[n]!;
    expect(after.status).toBe(500);
    const gap = Date.parse(d.attempts[n + 1]!.at) - (Date.parse(after.at) + after.durationMs!);
    // From below only: a busy machine can delay an attempt, never hasten it.
    expect(gap).toBeGreaterThanOrEqual(RETRY_WAITS_MS[n]! * SCALE - 2);
  }
  // Every call the receiver saw is one recorded attempt (the interrupted one included; one may be in flight).
  for (const d of listed) {
    expect(d.attempts.length).toBeGreaterThanOrEqual(callsBefore.get(d.deliveryId)! - 1);
    expect(d.attempts.length).toBeLessThanOrEqual(callsAfter.get(d.deliveryId)! + (unseen.get(d.deliveryId) ?? 0));
  }
  rmSync(dir, { recursive: true, force: true });
}, 60_000);
