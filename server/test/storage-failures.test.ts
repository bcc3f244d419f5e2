import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { DEMO_KEYS, freePort, MAIN, spawnServer } from "./support/child-server.ts";
import { startTestServer, tempDir } from "./support/test-server.ts";

/* The service's own database when it cannot take writes: locked by another process, a full disk, a failed write. */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const event = (i: number) => ({
  type: "Search",
  data: { query: `q${i}`, productIds: ["a"], pageSize: 30, padding: "x".repeat(800) },
  sessionId: "s1",
});

describe("a database another process holds", () => {
  test("writes answer 503 with Retry-After at once instead of freezing the server; reads go on", async () => {
    const s = await startTestServer();
    try {
      const other = new Database(join(s.dataDir, "service.db"));
      other.exec("PRAGMA busy_timeout = 0");
      other.exec("BEGIN IMMEDIATE");
      try {
        const started = performance.now();
        const blocked = await s.call("analytics", "POST", "/1.9/tracking", event(1));
        const took = performance.now() - started;
        expect(blocked.status).toBe(503);
        expect(blocked.headers.get("retry-after")).toBe("1");
        const body = (await blocked.json()) as { code: string; message: string };
        expect(body.code).toBe("storage_unavailable");
        expect(body.message).toContain("busy");
        // Refused after the events thread's wait of 2 s, without waiting out SQLite's default 5 s busy time-out.
        expect(took).toBeLessThan(5000);
        // WAL readers are not blocked by a writer: searches, settings and health still answer.
        expect((await fetch(s.url + "/health")).status).toBe(200);
        expect((await s.call("admin", "GET", "/1.9/settings")).status).toBe(200);
      } finally {
        other.exec("ROLLBACK");
        other.close();
      }
      expect((await s.call("analytics", "POST", "/1.9/tracking", event(2))).status).toBe(200);
      const events = (await (await s.call("admin", "GET", "/1.9/events")).json()) as { events: unknown[] };
      expect(events.events).toHaveLength(1);
    } finally {
      await s.stop();
    }
  });
});

describe("a disk under the free-space minimum", () => {
  test("health says why with 503, writes get 503, reads go on", async () => {
    const s = await startTestServer({ MIN_FREE_DISK_MB: "10000000" });
    try {
      const health = await fetch(s.url + "/health");
      expect(health.status).toBe(503);
      const why = (await health.json()) as { status: string; reason: string };
      expect(why.status).toBe("unavailable");
      expect(why.reason).toContain("MIN_FREE_DISK_MB");
      for (const [kind, method, path, body] of [
        ["analytics", "POST", "/1.9/tracking", event(1)],
        ["admin", "POST", "/1.9/products", { id: "p1", name: "Shirt" }],
        ["admin", "DELETE", "/1.9/products/p1", undefined],
        ["admin", "PATCH", "/1.9/settings", { newnessDays: 3 }],
      ] as const) {
        const res = await s.call(kind, method, path, body);
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("5");
        expect(((await res.json()) as { message: string }).message).toContain("disk");
      }
      expect((await s.call("admin", "GET", "/1.9/settings")).status).toBe(200);
      expect((await s.call("search", "GET", "/1.9/search?query=shirt")).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

describe("a write that fails", () => {
  test("answers 503, turns health to 503 with the reason, and loses nothing acknowledged", async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    // A file-size limit makes the kernel refuse writes past 3 MiB, as a full disk would (EFBIG instead of ENOSPC);
    // the signal it sends by default is ignored so that the write fails instead of the process dying.
    const limited = Bun.spawn(["bash", "-c", `trap '' XFSZ; ulimit -f 3072; exec "${process.execPath}" "${MAIN}"`], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "error",
        RATE_LIMIT_BROWSER_PER_SECOND: "0",
        ...DEMO_KEYS,
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    let acknowledged = 0;
    try {
      for (let i = 0; i < 200; i++) {
        const ok = await fetch(url + "/health").then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await Bun.sleep(50);
      }
      const headers = {
        "content-type": "application/json",
        "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
        "x-service-api-key": DEMO_KEYS.DEMO_ANALYTICS_KEY,
      };
      let refused: Response | null = null;
      for (let batch = 0; batch < 100 && !refused; batch++) {
        const body = JSON.stringify(Array.from({ length: 100 }, (_, i) => event(batch * 100 + i)));
        const res = await fetch(url + "/1.9/tracking", { method: "POST", headers, body });
        if (res.status === 200) acknowledged += 100;
        else refused = res;
      }
      expect(refused).not.toBeNull();
      expect(refused!.status).toBe(503);
      expect(((await refused!.json()) as { code: string }).code).toBe("storage_unavailable");
      expect(acknowledged).toBeGreaterThan(0);
      const health = await fetch(url + "/health");
      expect(health.status).toBe(503);
      expect(((await health.json()) as { reason: string }).reason).toContain("write failed");
      const again = await fetch(url + "/1.9/tracking", { method: "POST", headers, body: JSON.stringify(event(0)) });
      expect(again.status).toBe(503);
    } finally {
      limited.kill(9);
      await limited.exited;
    }
    // Restarted without the limit: every acknowledged event is there, and none that was refused.
    const child = await spawnServer({ DATA_DIR: dataDir, ...DEMO_KEYS });
    try {
      const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
      let count = 0;
      let cursor: string | undefined;
      do {
        const page = (await (
          await fetch(child.url + `/1.9/events?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, { headers: admin })
        ).json()) as {
          events: unknown[];
          nextCursor?: string;
        };
        count += page.events.length;
        cursor = page.nextCursor;
      } while (cursor);
      console.log(`failed write: ${acknowledged} events acknowledged before it, ${count} kept after restart`);
      expect(count).toBe(acknowledged);
      expect((await fetch(child.url + "/health")).status).toBe(200);
    } finally {
      child.proc.kill(9);
      await child.proc.exited;
    }
  }, 60_000);
});
