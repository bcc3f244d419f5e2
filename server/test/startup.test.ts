import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../src/config.ts";
import { DEMO_KEYS, freePort, MAIN, spawnServer } from "./support/child-server.ts";
import { makeTestCerts } from "./support/test-certs.ts";
import { startTestServer, tempDir } from "./support/test-server.ts";

const dirs: string[] = [];
const dir = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("configuration", () => {
  test("defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, host: "0.0.0.0", tls: null, logLevel: "info", maxBodyBytes: 32 * 1024 * 1024, demoStore: null });
    expect(c.sqliteMmapBytes).toBe(0);
    expect(loadConfig({ SQLITE_MMAP_MB: "1024" }).sqliteMmapBytes).toBe(1024 ** 3);
    expect(c).toMatchObject({ sqliteCacheKib: 8 * 1024, sqliteBulkCacheKib: 128 * 1024 });
    expect(loadConfig({ SQLITE_CACHE_MB: "2", SQLITE_BULK_CACHE_MB: "64" })).toMatchObject({
      sqliteCacheKib: 2048,
      sqliteBulkCacheKib: 65_536,
    });
  });

  test("each bad value names its variable", () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: "80a" }, "PORT"],
      [{ PORT: "70000" }, "PORT"],
      [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
      [{ MAX_BODY_BYTES: "-1" }, "MAX_BODY_BYTES"],
      [{ TLS_CERT_FILE: "/nope.pem" }, "TLS_KEY_FILE"],
      [{ TLS_CERT_FILE: "/nope.pem", TLS_KEY_FILE: "/nope.key" }, "TLS_CERT_FILE"],
      [{ DEMO_STORE_ID: "demo" }, "DEMO_ADMIN_KEY"],
      [{ ...DEMO_KEYS, DEMO_SEARCH_KEY: "short" }, "DEMO_SEARCH_KEY"],
      [{ DB_SYNCHRONOUS: "OFF" }, "DB_SYNCHRONOUS"],
      [{ SQLITE_MMAP_MB: "-1" }, "SQLITE_MMAP_MB"],
      [{ SQLITE_MMAP_MB: "1 GiB" }, "SQLITE_MMAP_MB"],
      [{ SQLITE_CACHE_MB: "0" }, "SQLITE_CACHE_MB"],
      [{ SQLITE_BULK_CACHE_MB: "70000" }, "SQLITE_BULK_CACHE_MB"],
      [{ DATABASE_URL: "mysql://db.internal/shop", SINGLE_REPLICA: "true" }, "DATABASE_URL"],
      // Several replicas cannot share the embedded engine: PostgreSQL with it only for one process, said so.
      [{ DATABASE_URL: "postgres://db.internal/shop" }, "DATABASE_URL"],
      [{ DATABASE_URL: "postgres://db.internal/shop", SINGLE_REPLICA: "yes" }, "SINGLE_REPLICA"],
    ];
    for (const [env, name] of cases) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(name);
    }
  });

  test("DATABASE_URL is taken with Typesense, or with the embedded engine when a single replica is stated", () => {
    const typesense = { TYPESENSE_NODES: "http://127.0.0.1:8108", TYPESENSE_API_KEY: "k".repeat(16) };
    expect(loadConfig({ DATABASE_URL: " postgres://db.internal/shop ", ...typesense }).databaseUrl).toBe("postgres://db.internal/shop");
    expect(loadConfig({ DATABASE_URL: "postgresql://db/shop", SINGLE_REPLICA: "true" }).databaseUrl).toBe("postgresql://db/shop");
    expect(loadConfig({}).databaseUrl).toBeNull();
  });

  test("a JSON config file gives defaults that the environment overrides", () => {
    const file = join(dir(), "config.json");
    writeFileSync(file, JSON.stringify({ PORT: 9090, LOG_LEVEL: "warn" }));
    expect(loadConfig({ CONFIG_FILE: file })).toMatchObject({ port: 9090, logLevel: "warn" });
    expect(loadConfig({ CONFIG_FILE: file, PORT: "9191" }).port).toBe(9191);
  });

  test("npm run server with a bad setting stops with one clear line", async () => {
    const proc = Bun.spawn([process.execPath, MAIN], { env: { ...process.env, PORT: "eighty" }, stderr: "pipe", stdout: "pipe" });
    expect(await proc.exited).toBe(2);
    expect((await new Response(proc.stderr).text()).trim()).toBe('Invalid setting PORT: expected a whole number, got "eighty"');
  });

  test("with TYPESENSE_NODES all unreachable, npm run server stops with one line naming the nodes", async () => {
    const closed = `http://127.0.0.1:${freePort()}`;
    const proc = Bun.spawn([process.execPath, MAIN], {
      env: { ...process.env, DATA_DIR: dir(), TYPESENSE_NODES: closed, TYPESENSE_API_KEY: "key", LOG_LEVEL: "silent" },
      stderr: "pipe",
      stdout: "pipe",
    });
    expect(await proc.exited).toBe(2);
    const err = (await new Response(proc.stderr).text()).trim();
    expect(err.split("\n")).toHaveLength(1);
    expect(err).toContain(closed);
  }, 30_000);

  test("DEMO_* settings make the store exist with exactly those keys, idempotently", async () => {
    const d = dir();
    for (let run = 0; run < 2; run++) {
      const child = await spawnServer({ DATA_DIR: d, ...DEMO_KEYS });
      const res = await fetch(child.url + "/1.0/settings", {
        headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY },
      });
      expect(res.status).toBe(200);
      child.proc.kill();
      await child.proc.exited;
    }
    const changed = await spawnServer({ DATA_DIR: d, ...DEMO_KEYS, DEMO_ADMIN_KEY: "sk_admin_another_0123456789" });
    const old = await fetch(changed.url + "/1.0/settings", {
      headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY },
    });
    expect(old.status).toBe(401);
    changed.proc.kill();
    await changed.proc.exited;
  }, 30_000);
});

describe("HTTPS", () => {
  test("serves TLS with TLS_CERT_FILE and TLS_KEY_FILE", async () => {
    const { caFile, certFile, keyFile } = makeTestCerts();
    const ca = await Bun.file(caFile).text();
    const s = await startTestServer({ TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, HOST: "127.0.0.1" }, dir());
    try {
      expect(s.url).toStartWith("https://");
      const res = await fetch(s.url.replace("localhost", "127.0.0.1") + "/health", { tls: { ca } });
      expect(await res.json()).toMatchObject({ status: "ok" });
      const signed = await fetch(s.url + "/1.0/settings", {
        headers: { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.admin },
        tls: { ca },
      });
      expect(signed.status).toBe(200);
      await expect(fetch(s.url + "/health")).rejects.toThrow();
    } finally {
      await s.stop();
    }
  });
});

describe("stores CLI", () => {
  const cli = (d: string, ...args: string[]) => {
    const r = Bun.spawnSync([process.execPath, join(import.meta.dir, "../src/cli/stores.ts"), ...args], {
      env: { ...process.env, DATA_DIR: d },
    });
    return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
  };

  test("create prints three keys once; they work; rotate and delete", async () => {
    const d = dir();
    const created = cli(d, "create", "cli-shop");
    expect(created.code).toBe(0);
    const keys = Object.fromEntries([...created.out.matchAll(/^\s+(admin|search|analytics)\s+(\S+)$/gm)].map((m) => [m[1], m[2]]));
    expect(keys.admin).toStartWith("sk_admin_");
    expect(keys.search).toStartWith("pk_search_");
    expect(keys.analytics).toStartWith("pk_analytics_");
    expect(cli(d, "create", "cli-shop").code).toBe(1);
    expect(cli(d, "create", "bad id!").code).toBe(2);
    expect(cli(d, "list").out).toContain("cli-shop");

    const rotated = cli(d, "rotate", "cli-shop", "admin", "--grace-hours", "0");
    expect(rotated.code).toBe(0);
    const newAdmin = /: (\S+)$/m.exec(rotated.out)![1]!;
    const child = await spawnServer({ DATA_DIR: d });
    const call = (key: string) =>
      fetch(child.url + "/1.0/settings", { headers: { "x-service-store-id": "cli-shop", "x-service-api-key": key } }).then((r) => r.status);
    expect(await call(newAdmin)).toBe(200);
    expect(await call(keys.admin!)).toBe(401);
    const taskRes = await fetch(child.url + "/1.0/products", {
      method: "POST",
      headers: { "x-service-store-id": "cli-shop", "x-service-api-key": newAdmin, "content-type": "application/json" },
      body: JSON.stringify({ id: "p1", name: "Indexed before delete" }),
    });
    expect(taskRes.status).toBe(202);
    child.proc.kill();
    await child.proc.exited;
    expect(cli(d, "rotate", "cli-shop", "root").code).toBe(2);
    expect(existsSync(join(d, "engine", "cli-shop.db"))).toBe(true);
    expect(cli(d, "delete", "cli-shop").out).toContain("deleted");
    expect(existsSync(join(d, "engine", "cli-shop.db"))).toBe(false);
    expect(cli(d, "list").out).not.toContain("cli-shop");
    expect(cli(d).code).toBe(2);
  }, 30_000);
});

describe("docs and logs", () => {
  test("the OpenAPI document lists the routes, and the docs page loads its UI from us, not a CDN", async () => {
    const s = await startTestServer({}, dir());
    try {
      const spec = (await (await fetch(s.url + "/docs/openapi.json")).json()) as { paths: Record<string, unknown> };
      for (const path of [
        "/{version}/products",
        "/{version}/products/{id}",
        "/{version}/tasks/{id}",
        "/{version}/tracking",
        "/{version}/events",
      ]) {
        expect(spec.paths).toHaveProperty(path);
      }
      const page = await (await fetch(s.url + "/docs")).text();
      const scripts = [...page.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) expect(src).toStartWith("/");
      const asset = await fetch(s.url + scripts[0]!);
      expect(asset.status).toBe(200);
      expect((await asset.text()).length).toBeGreaterThan(100_000);
    } finally {
      await s.stop();
    }
  });

  test("each request is logged as one JSON line with request id, store, route, status and duration", async () => {
    const d = dir();
    const proc = Bun.spawn([process.execPath, MAIN], {
      env: { ...process.env, DATA_DIR: d, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...DEMO_KEYS },
      stdout: "pipe",
    });
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes('"msg":"listening"')) out += new TextDecoder().decode((await reader.read()).value);
    const url = JSON.parse(out.split("\n").find((l) => l.includes('"listening"'))!).url as string;
    await fetch(url + "/1.0/events", {
      headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY, "x-request-id": "req-42" },
    });
    await fetch(url + "/1.0/events", { headers: { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": "wrong" } });
    while ((out.match(/"msg":"request"/g) ?? []).length < 2) out += new TextDecoder().decode((await reader.read()).value);
    proc.kill();
    await proc.exited;
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = lines.filter((l) => l.msg === "request");
    expect(requests[0]).toMatchObject({
      level: "info",
      requestId: "req-42",
      method: "GET",
      route: "/:version/events",
      storeId: DEMO_KEYS.DEMO_STORE_ID,
      status: 200,
    });
    expect(requests[0]!.ms).toBeNumber();
    expect(requests[1]).toMatchObject({ status: 401 });
    expect(out).not.toContain(DEMO_KEYS.DEMO_ADMIN_KEY);
  });
});
