import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../src/config.ts";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/* Rate limits: per store and client address for browser keys, per store for the admin key; 429 with Retry-After. */

describe("defaults and settings", () => {
  test("generous defaults, each configurable; 0 turns a limit off", () => {
    expect(loadConfig({}).rateLimits).toEqual({
      browser: { perSecond: 100, burst: 200 },
      admin: { perSecond: 50, burst: 200 },
      events: { perSecond: 200, burst: 2_000 },
      adminEvents: { perSecond: 5_000, burst: 20_000 },
    });
    expect(loadConfig({ RATE_LIMIT_BROWSER_PER_SECOND: "0" }).rateLimits.browser.perSecond).toBe(0);
    expect(loadConfig({ RATE_LIMIT_ADMIN_PER_SECOND: "5", RATE_LIMIT_ADMIN_BURST: "7" }).rateLimits.admin).toEqual({
      perSecond: 5,
      burst: 7,
    });
    expect(() => loadConfig({ RATE_LIMIT_BROWSER_PER_SECOND: "10", RATE_LIMIT_BROWSER_BURST: "5" })).toThrow(ConfigError);
    expect(() => loadConfig({ RATE_LIMIT_BROWSER_PER_SECOND: "-1" })).toThrow("RATE_LIMIT_BROWSER_PER_SECOND");
    // A burst of events must hold the largest batch one request may carry.
    expect(() => loadConfig({ RATE_LIMIT_EVENTS_PER_SECOND: "10", RATE_LIMIT_EVENTS_BURST: "499" })).toThrow("RATE_LIMIT_EVENTS_BURST");
    expect(loadConfig({ RATE_LIMIT_EVENTS_PER_SECOND: "0" }).rateLimits.events.perSecond).toBe(0);
  });
});

describe("limits on a running server", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      RATE_LIMIT_BROWSER_PER_SECOND: "2",
      RATE_LIMIT_BROWSER_BURST: "10",
      RATE_LIMIT_ADMIN_PER_SECOND: "1",
      RATE_LIMIT_ADMIN_BURST: "5",
      RATE_LIMIT_EVENTS_PER_SECOND: "50",
      RATE_LIMIT_EVENTS_BURST: "600",
      TRUST_PROXY: "true",
    });
  });
  afterAll(() => s.stop());

  const search = (address: string, storeId = s.storeId, key = s.keys.search) =>
    fetch(s.url + "/1.9/search?query=shirt", {
      headers: { "x-service-store-id": storeId, "x-service-api-key": key, "x-forwarded-for": `203.0.113.9, ${address}` },
    });

  test("a browser client gets its burst, then 429 with Retry-After and a JSON message", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await search("198.51.100.1")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
    const limited = await search("198.51.100.1");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await limited.json()) as { code: string; message: string };
    expect(body.code).toBe("rate_limited");
    expect(body.message).toContain("retry in");
    // Another shopper (address) of the same store, and the same address on another store, are not held back.
    expect((await search("198.51.100.2")).status).toBe(200);
    const other = await s.createStore("other-store");
    expect((await search("198.51.100.1", "other-store", other.search)).status).toBe(200);
    // Tokens flow back at the configured rate.
    await Bun.sleep(1100);
    expect((await search("198.51.100.1")).status).toBe(200);
  });

  test("tracking shares the browser limit; the admin key has its own, per store", async () => {
    const track = () => s.call("analytics", "POST", "/1.9/tracking", { type: "SiteView", data: {} }, { "x-forwarded-for": "198.51.100.7" });
    const tracked: number[] = [];
    for (let i = 0; i < 11; i++) tracked.push((await track()).status);
    expect(tracked.filter((x) => x === 429)).toHaveLength(1);
    const admin: number[] = [];
    for (let i = 0; i < 6; i++) admin.push((await s.call("admin", "GET", "/1.9/settings")).status);
    expect(admin).toEqual([200, 200, 200, 200, 200, 429]);
    // Refused before the body is read or anything is written.
    const refused = await s.call("admin", "POST", "/1.9/products", { id: "p1", name: "Shirt" });
    expect(refused.status).toBe(429);
  });

  test("tracking is charged by the events a request carries: a refused batch is not stored, other clients go on", async () => {
    const batch = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => ({ type: "SiteView", sessionId: `${tag}-${i}`, data: {} }));
    const track = (events: unknown[], address: string) =>
      s.call("analytics", "POST", "/1.9/tracking", events, { "x-forwarded-for": address });
    expect((await track(batch(500, "first"), "198.51.100.20")).status).toBe(200);
    // 100 events are left of the burst of 600: the next batch of 500 waits for 400 more, 8 s at 50 a second.
    const refused = await track(batch(500, "second"), "198.51.100.20");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(7);
    expect(((await refused.json()) as { message: string }).message).toContain("Too many events");
    // What is left still takes a small batch; another address has its own events.
    expect((await track(batch(50, "third"), "198.51.100.20")).status).toBe(200);
    expect((await track(batch(400, "fourth"), "198.51.100.21")).status).toBe(200);
    await Bun.sleep(1100); // the admin key's own limit, spent by the test before
    const stored = (await (await s.call("admin", "GET", "/1.9/events?limit=1000&type=SiteView")).json()) as {
      events: { sessionId: string | null }[];
    };
    const batched = stored.events.filter((e) => e.sessionId !== null);
    const tags = new Set(batched.map((e) => e.sessionId!.split("-")[0]));
    expect(batched).toHaveLength(950);
    expect(tags).toEqual(new Set(["first", "third", "fourth"]));
  });

  test("failed authentication is not charged to the store's clients", async () => {
    for (let i = 0; i < 20; i++) expect((await search("198.51.100.9", s.storeId, "pk_search_wrong_key_0123456789")).status).toBe(401);
    expect((await search("198.51.100.9")).status).toBe(200);
  });
});
