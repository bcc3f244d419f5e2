import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { errorBody, startTestServer, type KeyKind, type TestServer } from "./support/test-server.ts";
import { product } from "./support/fixtures.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

interface RouteCase {
  method: string;
  path: string;
  body?: unknown;
  /** Key kinds that get past authentication. */
  allowed: KeyKind[];
}

const ROUTES: RouteCase[] = [
  { method: "POST", path: "/1.0/products", body: product("auth-1"), allowed: ["admin"] },
  { method: "DELETE", path: "/1.0/products/auth-1", allowed: ["admin"] },
  { method: "GET", path: "/1.0/products/auth-1", allowed: ["admin"] },
  { method: "GET", path: "/1.0/tasks/00000000-0000-0000-0000-000000000000", allowed: ["admin"] },
  { method: "GET", path: "/1.0/events", allowed: ["admin"] },
  { method: "GET", path: "/1.0/settings", allowed: ["admin"] },
  { method: "PATCH", path: "/1.0/settings", body: {}, allowed: ["admin"] },
  { method: "POST", path: "/1.0/tracking", body: { type: "SiteView", data: {} }, allowed: ["admin", "analytics"] },
];

describe("auth matrix", () => {
  for (const r of ROUTES) {
    test(`${r.method} ${r.path}: no key, wrong store, wrong key are 401`, async () => {
      const none = await s.call(null, r.method, r.path, r.body);
      expect(none.status).toBe(401);
      expect((await errorBody(none)).code).toBe("unauthorized");
      const wrongStore = await s.call("admin", r.method, r.path, r.body, { "x-service-store-id": "no-such-store" });
      expect(wrongStore.status).toBe(401);
      const wrongKey = await s.call("admin", r.method, r.path, r.body, { "x-service-api-key": s.keys.admin + "x" });
      expect(wrongKey.status).toBe(401);
      const onlyStore = await s.call(null, r.method, r.path, r.body, { "x-service-store-id": s.storeId });
      expect(onlyStore.status).toBe(401);
      expect((await errorBody(onlyStore)).message).toContain("X-Service-API-Key");
    });
    for (const kind of ["admin", "search", "analytics"] as KeyKind[]) {
      const ok = r.allowed.includes(kind);
      test(`${r.method} ${r.path} with a ${kind} key: ${ok ? "allowed" : "401"}`, async () => {
        const res = await s.call(kind, r.method, r.path, r.body);
        if (ok) expect(res.status).not.toBe(401);
        else {
          expect(res.status).toBe(401);
          expect((await errorBody(res)).message).toContain(kind);
        }
      });
    }
  }

  test("a key of one store does not open another store", async () => {
    const other = await s.createStore("other-store");
    const res = await s.call("admin", "GET", "/1.0/events", undefined, { "x-service-api-key": other.admin });
    expect(res.status).toBe(401);
  });
});

describe("browser rules", () => {
  test("an admin key from another origin's page is refused", async () => {
    const res = await s.call("admin", "GET", "/1.0/events", undefined, { origin: "https://shop.example" });
    expect(res.status).toBe(401);
    expect((await errorBody(res)).message).toContain("server-side");
  });

  test("analytics keys work in the query string (sendBeacon), admin keys never", async () => {
    const event = JSON.stringify({ type: "SiteView", data: {} });
    const q = (key: string) => `/1.0/tracking?x-service-store-id=${s.storeId}&x-service-api-key=${encodeURIComponent(key)}`;
    const beacon = await fetch(s.url + q(s.keys.analytics), { method: "POST", headers: { "content-type": "text/plain" }, body: event });
    expect(beacon.status).toBe(200);
    const admin = await fetch(s.url + q(s.keys.admin), { method: "POST", headers: { "content-type": "text/plain" }, body: event });
    expect(admin.status).toBe(401);
    expect((await errorBody(admin)).message).toContain("URL");
  });

  test("search and tracking answer CORS preflights; admin routes send no CORS headers", async () => {
    const pre = await fetch(s.url + "/1.0/tracking", {
      method: "OPTIONS",
      headers: {
        origin: "https://shop.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-service-api-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    expect(pre.headers.get("access-control-allow-headers")).toContain("x-service-api-key");
    const track = await s.call("analytics", "POST", "/1.0/tracking", { type: "SiteView", data: {} }, { origin: "https://shop.example" });
    expect(track.headers.get("access-control-allow-origin")).toBe("https://shop.example");
    const adminPre = await fetch(s.url + "/1.0/products", { method: "OPTIONS", headers: { origin: "https://shop.example" } });
    expect(adminPre.headers.get("access-control-allow-origin")).toBeNull();
    // The Host header is the client's: an origin equal to it proves nothing, so the admin key is refused.
    const sameHost = await s.call("admin", "GET", "/1.0/settings", undefined, { origin: "https://evil.example", host: "evil.example" });
    expect(sameHost.status).toBe(401);
    expect(sameHost.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("a store can limit its browser routes to its own origins", async () => {
    const set = await s.call("admin", "PATCH", "/1.0/settings", { allowedOrigins: ["https://shop.example"] });
    expect(set.status).toBe(200);
    const own = await s.call("analytics", "POST", "/1.0/tracking", { type: "SiteView", data: {} }, { origin: "https://shop.example" });
    expect(own.status).toBe(200);
    const foreign = await s.call("analytics", "POST", "/1.0/tracking", { type: "SiteView", data: {} }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect((await errorBody(foreign)).code).toBe("origin_not_allowed");
    const bad = await s.call("admin", "PATCH", "/1.0/settings", { allowedOrigins: ["not an origin"] });
    expect(bad.status).toBe(400);
    expect((await errorBody(bad)).details?.[0]?.path).toBe("body.allowedOrigins[0]");
    await s.call("admin", "PATCH", "/1.0/settings", { allowedOrigins: ["*"] });
  });
});

describe("keys", () => {
  test("keys are stored hashed, never in plaintext", async () => {
    const { Database } = await import("bun:sqlite");
    const db = new Database(`${s.dataDir}/service.db`, { readonly: true });
    const dump = JSON.stringify(db.query("SELECT * FROM api_keys").all()) + JSON.stringify(db.query("SELECT * FROM stores").all());
    db.close();
    for (const key of Object.values(s.keys)) expect(dump).not.toContain(key);
  });

  test("rotation: the new key works at once, the old one only during the grace period", async () => {
    const admin = s.service.storeAdmin;
    const oldSearch = s.keys.analytics;
    const graceful = await admin.rotate(s.storeId, "analytics", 60_000);
    const send = (key: string) =>
      s.call("analytics", "POST", "/1.0/tracking", { type: "SiteView", data: {} }, { "x-service-api-key": key });
    expect((await send(graceful)).status).toBe(200);
    expect((await send(oldSearch)).status).toBe(200);
    const immediate = await admin.rotate(s.storeId, "analytics", 0);
    expect((await send(immediate)).status).toBe(200);
    expect((await send(oldSearch)).status).toBe(401);
    expect((await send(graceful)).status).toBe(401);
    s.keys.analytics = immediate;
  });
});
