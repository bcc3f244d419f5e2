import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { ConfigError, loadConfig } from "../src/config.ts";
import { RETRY_WAITS_MS } from "../src/modules/webhooks/webhook-schedule.ts";
import { verifyWebhook, webhookSignature } from "../src/modules/webhooks/verify-webhook.ts";
import { PER_SUBSCRIPTION } from "../src/modules/webhooks/webhook-dispatcher.ts";
import { makeTestCerts, type TestCerts } from "./support/test-certs.ts";
import { errorBody, startTestServer, tempDir, type KeyKind, type TestServer } from "./support/test-server.ts";
import { enqueueFromOutside, startTestReceiver, tagsBody, until, type ReceivedCall } from "./support/webhook-support.ts";

/*
 * Webhooks end to end: subscriptions over the API, deliveries queued in the server's database (as the enrichment
 * stage does) and sent over HTTPS to the reference receiver with a certificate made at test time.
 */

const SCALE = 0.00002; // 30 s -> 0.6 ms, 1 h -> 72 ms, 24 h -> 1.7 s: the whole schedule in about 3 s

let certs: TestCerts;
/** Default settings: public receivers only. */
let plain: TestServer;
/** Trusts the test CA, allows loopback receivers, waits SCALE times the spec's waits. */
let wired: TestServer;
const cleanup: (() => Promise<void> | void)[] = [];

beforeAll(async () => {
  certs = makeTestCerts();
  plain = await startTestServer();
  wired = await startTestServer({
    WEBHOOK_CA_FILE: certs.caFile,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    WEBHOOK_RETRY_TIME_SCALE: String(SCALE),
  });
});

afterAll(async () => {
  for (const c of cleanup.reverse()) await c();
  await plain?.stop();
  await wired?.stop();
  rmSync(certs.dir, { recursive: true, force: true });
});

interface Created {
  id: string;
  url: string;
  topic: string;
  secret: string;
  createdAt: string;
}

interface Delivery {
  deliveryId: string;
  productId: string;
  productVersion: number;
  stage: string;
  status: "pending" | "succeeded" | "failed" | "dead";
  attempts: { at: string; status: number | null; durationMs: number | null; error: string | null }[];
  nextAttemptAt: string | null;
}

async function subscribe(server: TestServer, url: string): Promise<Created> {
  const res = await server.call("admin", "POST", "/1.9/webhooks", { url, topic: "tags" });
  expect(res.status).toBe(201);
  return (await res.json()) as Created;
}

async function deliveries(server: TestServer, webhookId: string, query = ""): Promise<Delivery[]> {
  const res = await server.call("admin", "GET", `/1.9/webhooks/${webhookId}/deliveries${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { deliveries: Delivery[] }).deliveries;
}

async function expect400(res: Response, path: string): Promise<string> {
  expect(res.status).toBe(400);
  const body = await errorBody(res);
  expect(body.code).toBe("invalid_request");
  expect(body.details?.[0]?.path).toBe(path);
  expect(body.message).toContain(path.split(".").at(-1)!);
  return body.message;
}

describe("subscriptions", () => {
  test("create answers 201 with the secret, which no read shows again", async () => {
    const created = await subscribe(plain, "https://8.8.8.8/hooks/tags?shop=1");
    expect(Object.keys(created).sort()).toEqual(["createdAt", "id", "secret", "topic", "url"]);
    expect(created.id).toMatch(/^wh_[0-9a-f]{24}$/);
    expect(created.url).toBe("https://8.8.8.8/hooks/tags?shop=1");
    expect(created.topic).toBe("tags");
    expect(created.secret.length).toBeGreaterThanOrEqual(40);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const one = await plain.call("admin", "GET", `/1.9/webhooks/${created.id}`);
    expect(one.status).toBe(200);
    const oneText = await one.text();
    expect(JSON.parse(oneText)).toEqual({ id: created.id, url: created.url, topic: "tags", createdAt: created.createdAt });
    const all = await (await plain.call("admin", "GET", "/1.9/webhooks")).text();
    expect((JSON.parse(all) as { webhooks: { id: string }[] }).webhooks.map((w) => w.id)).toContain(created.id);
    for (const text of [oneText, all]) {
      expect(text).not.toContain(created.secret);
      expect(text).not.toContain("secret");
    }

    const rotated = await plain.call("admin", "POST", `/1.9/webhooks/${created.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const { secret } = (await rotated.json()) as { secret: string };
    expect(secret).not.toBe(created.secret);
    const after = await (await plain.call("admin", "GET", `/1.9/webhooks/${created.id}`)).text();
    expect(after).not.toContain(secret);
    expect(await (await plain.call("admin", "GET", "/1.9/webhooks")).text()).not.toContain(secret);
  });

  test("an http: URL, a malformed URL and loopback or private hosts are refused naming body.url", async () => {
    const post = (body: unknown) => plain.call("admin", "POST", "/1.9/webhooks", body);
    expect(await expect400(await post({ url: "http://8.8.8.8/hook", topic: "tags" }), "body.url")).toContain("https");
    await expect400(await post({ url: "not a url", topic: "tags" }), "body.url");
    await expect400(await post({ url: "https://", topic: "tags" }), "body.url");
    for (const url of [
      "https://127.0.0.1/hook",
      "https://localhost:8443/hook",
      "https://[::1]/hook",
      "https://10.1.2.3/",
      "https://169.254.169.254/latest",
      "https://[::ffff:127.0.0.1]/",
      "https://192.168.0.10/",
    ]) {
      const message = await expect400(await post({ url, topic: "tags" }), "body.url");
      expect(message).toContain("non-public");
    }
    await expect400(await post({ url: "https://user:pw@8.8.8.8/hook", topic: "tags" }), "body.url");
    await expect400(await post({ url: "https://8.8.8.8/" + "a".repeat(2048), topic: "tags" }), "body.url");
    await expect400(await post({ topic: "tags" }), "body.url");
  });

  test("bad input: unknown topic, unknown field, not an object, not JSON", async () => {
    const post = (body: unknown) => plain.call("admin", "POST", "/1.9/webhooks", body);
    expect(await expect400(await post({ url: "https://8.8.8.8/", topic: "orders" }), "body.topic")).toContain("tags");
    await expect400(await post({ url: "https://8.8.8.8/" }), "body.topic");
    await expect400(await post({ url: "https://8.8.8.8/", topic: "tags", secret: "mine" }), "body.secret");
    await expect400(await post([{ url: "https://8.8.8.8/", topic: "tags" }]), "body");
    const notJson = await post("{url:");
    expect(notJson.status).toBe(400);
    expect((await errorBody(notJson)).code).toBe("invalid_json");
  });

  test("search and analytics keys are refused (401) on every webhook route", async () => {
    const { id } = await subscribe(plain, "https://8.8.8.8/keys");
    const routes: [string, string][] = [
      ["POST", "/1.9/webhooks"],
      ["GET", "/1.9/webhooks"],
      ["GET", `/1.9/webhooks/${id}`],
      ["DELETE", `/1.9/webhooks/${id}`],
      ["POST", `/1.9/webhooks/${id}/rotate-secret`],
      ["GET", `/1.9/webhooks/${id}/deliveries`],
      ["POST", `/1.9/webhooks/${id}/deliveries/whd_000000000000000000000000/redeliver`],
    ];
    for (const kind of ["search", "analytics", null] as (KeyKind | null)[]) {
      for (const [method, path] of routes) {
        const res = await plain.call(
          kind,
          method,
          path,
          method === "POST" && path.endsWith("webhooks") ? { url: "https://8.8.8.8/", topic: "tags" } : undefined,
        );
        expect(`${kind} ${method} ${path} ${res.status}`).toBe(`${kind} ${method} ${path} 401`);
      }
    }
    // Still there: nothing above changed it.
    expect((await plain.call("admin", "GET", `/1.9/webhooks/${id}`)).status).toBe(200);
  });

  test("another store's subscriptions and deliveries are unknown (404)", async () => {
    const { id } = await subscribe(plain, "https://8.8.8.8/mine");
    const other = await plain.createStore("other-store");
    const asOther = (method: string, path: string) =>
      plain.call(null, method, path, undefined, { "x-service-store-id": "other-store", "x-service-api-key": other.admin });
    for (const [method, path] of [
      ["GET", `/1.9/webhooks/${id}`],
      ["DELETE", `/1.9/webhooks/${id}`],
      ["POST", `/1.9/webhooks/${id}/rotate-secret`],
      ["GET", `/1.9/webhooks/${id}/deliveries`],
      ["POST", `/1.9/webhooks/${id}/deliveries/whd_000000000000000000000000/redeliver`],
    ] as const) {
      const res = await asOther(method, path);
      expect(`${method} ${path} ${res.status}`).toBe(`${method} ${path} 404`);
    }
    expect(((await (await asOther("GET", "/1.9/webhooks")).json()) as { webhooks: unknown[] }).webhooks).toEqual([]);
    expect((await plain.call("admin", "GET", `/1.9/webhooks/${id}`)).status).toBe(200);
    expect((await plain.call("admin", "GET", "/1.9/webhooks/wh_nonsense")).status).toBe(404);
  });

  test("delete answers 204; the subscription is gone; at most 20 per store", async () => {
    const store = await plain.createStore("limit-store");
    const as = (method: string, path: string, body?: unknown) =>
      plain.call(null, method, path, body, { "x-service-store-id": "limit-store", "x-service-api-key": store.admin });
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await as("POST", "/1.9/webhooks", { url: `https://8.8.8.8/hook/${i}`, topic: "tags" });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as Created).id);
    }
    const over = await as("POST", "/1.9/webhooks", { url: "https://8.8.8.8/hook/20", topic: "tags" });
    expect(over.status).toBe(409);
    expect((await errorBody(over)).code).toBe("limit_reached");
    const del = await as("DELETE", `/1.9/webhooks/${ids[0]}`);
    expect(del.status).toBe(204);
    expect((await as("GET", `/1.9/webhooks/${ids[0]}`)).status).toBe(404);
    expect((await as("DELETE", `/1.9/webhooks/${ids[0]}`)).status).toBe(404);
    expect(((await (await as("GET", "/1.9/webhooks")).json()) as { webhooks: unknown[] }).webhooks).toHaveLength(19);
    expect((await as("POST", "/1.9/webhooks", { url: "https://8.8.8.8/hook/20", topic: "tags" })).status).toBe(201);
  });

  test("the deliveries listing checks its parameters, naming them", async () => {
    const { id } = await subscribe(plain, "https://8.8.8.8/params");
    await expect400(await plain.call("admin", "GET", `/1.9/webhooks/${id}/deliveries?status=lost`), "query.status");
    await expect400(await plain.call("admin", "GET", `/1.9/webhooks/${id}/deliveries?limit=0`), "query.limit");
    await expect400(await plain.call("admin", "GET", `/1.9/webhooks/${id}/deliveries?limit=1001`), "query.limit");
    await expect400(await plain.call("admin", "GET", `/1.9/webhooks/${id}/deliveries?cursor=abc`), "query.cursor");
    const none = await plain.call("admin", "POST", `/1.9/webhooks/${id}/deliveries/whd_000000000000000000000000/redeliver`);
    expect(none.status).toBe(404);
  });
});

describe("settings", () => {
  test("WEBHOOK_CA_FILE, WEBHOOK_ALLOW_PRIVATE_NETWORKS and WEBHOOK_RETRY_TIME_SCALE", () => {
    expect(loadConfig({}).webhooks).toEqual({ caFile: null, allowPrivateNetworks: false, retryTimeScale: 1 });
    expect(
      loadConfig({ WEBHOOK_CA_FILE: certs.caFile, WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", WEBHOOK_RETRY_TIME_SCALE: "0.001" }).webhooks,
    ).toEqual({
      caFile: certs.caFile,
      allowPrivateNetworks: true,
      retryTimeScale: 0.001,
    });
    const notPem = join(certs.dir, "not-a-cert.txt");
    writeFileSync(notPem, "hello");
    for (const env of [
      { WEBHOOK_CA_FILE: join(certs.dir, "missing.pem") },
      { WEBHOOK_CA_FILE: notPem },
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "yes" },
      { WEBHOOK_RETRY_TIME_SCALE: "0" },
      { WEBHOOK_RETRY_TIME_SCALE: "-1" },
      { WEBHOOK_RETRY_TIME_SCALE: "fast" },
      { WEBHOOK_RETRY_TIME_SCALE: "1001" },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
    }
  });
});

describe("verifyWebhook", () => {
  const secret = "whsec_test";
  const body = '{"productId":"p1","title":"Ünïcode ✓"}';
  const parts = { storeId: "s1", ts: String(Date.now()), topic: "tags", webhookId: "wh_1" };
  const headers = () => ({
    "x-service-store-id": parts.storeId,
    "x-service-ts": parts.ts,
    "x-service-topic": parts.topic,
    "x-service-webhook-id": parts.webhookId,
    "x-service-hmac-sha256": webhookSignature(secret, parts, body),
  });

  test("the signature is base64 HMAC-SHA256 over storeId.ts.topic.webhookId.body", async () => {
    const { createHmac } = await import("node:crypto");
    const expected = createHmac("sha256", secret).update(`s1.${parts.ts}.tags.wh_1.${body}`).digest("base64");
    expect(headers()["x-service-hmac-sha256"]).toBe(expected);
  });

  test("genuine calls pass; any change fails", () => {
    expect(verifyWebhook(secret, headers(), body)).toBe(true);
    expect(verifyWebhook(secret, new Headers(headers()), Buffer.from(body))).toBe(true);
    expect(verifyWebhook("other", headers(), body)).toBe(false);
    expect(verifyWebhook(secret, headers(), body.replace("p1", "p2"))).toBe(false);
    expect(verifyWebhook(secret, { ...headers(), "x-service-store-id": "s2" }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers(), "x-service-topic": "other" }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers(), "x-service-hmac-sha256": "AAAA" }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers(), "x-service-hmac-sha256": undefined }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers(), "x-service-ts": "yesterday" }, body)).toBe(false);
  });

  test("an optional maximum age for x-service-ts", () => {
    const now = Number(parts.ts);
    expect(verifyWebhook(secret, headers(), body, { maxAgeMs: 60_000, now: now + 59_000 })).toBe(true);
    expect(verifyWebhook(secret, headers(), body, { maxAgeMs: 60_000, now: now + 61_000 })).toBe(false);
    expect(verifyWebhook(secret, headers(), body, { maxAgeMs: 60_000, now: now - 61_000 })).toBe(false);
  });
});

describe("delivery", () => {
  test("each call carries the spec's headers and the body as queued, and verifies with the helper", async () => {
    const seen: { headers: IncomingHttpHeaders; raw: Buffer }[] = [];
    const server = createServer({ cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen.push({ headers: req.headers, raw: Buffer.concat(chunks) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const port = (server.address() as AddressInfo).port;
    const sub = await subscribe(wired, `https://localhost:${port}/hooks?x=1`);
    const body = tagsBody("raw-1", 3);
    expect(
      enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "raw-1", productVersion: 3, stage: "image", body }]),
    ).toBe(1);
    await until(() => seen.length === 1, 30_000, "the call");
    const { headers, raw } = seen[0]!;
    expect(raw.toString("utf8")).toBe(body);
    expect(headers["content-type"]).toBe("application/json");
    expect(headers.host).toBe(`localhost:${port}`);
    expect(headers["x-service-topic"]).toBe("tags");
    expect(headers["x-service-store-id"]).toBe(wired.storeId);
    expect(headers["x-service-webhook-id"]).toBe(sub.id);
    expect(headers["x-service-api-version"]).toBe("1.9");
    expect(headers["x-service-delivery-id"]).toMatch(/^whd_[0-9a-f]{24}$/);
    expect(Math.abs(Number(headers["x-service-ts"]) - Date.now())).toBeLessThan(5_000);
    expect(verifyWebhook(sub.secret, headers, raw, { maxAgeMs: 60_000 })).toBe(true);
    expect(verifyWebhook(sub.secret, headers, raw.toString("utf8"))).toBe(true);
    expect(verifyWebhook(sub.secret + "x", headers, raw)).toBe(false);

    const [d] = await until(
      async () => {
        const list = await deliveries(wired, sub.id);
        return list[0]?.status === "succeeded" ? list : null;
      },
      30_000,
      "succeeded",
    );
    expect(d).toMatchObject({
      deliveryId: headers["x-service-delivery-id"],
      productId: "raw-1",
      productVersion: 3,
      stage: "image",
      status: "succeeded",
      nextAttemptAt: null,
    });
    expect(d!.attempts).toHaveLength(1);
    expect(d!.attempts[0]).toMatchObject({ status: 204, error: null });
    expect(await (await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`)).status).toBe(204);
  });

  test("a redirect is not followed: the 3xx is a failed attempt, retried on the schedule", async () => {
    let hits = 0;
    const server = createServer({ cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) }, (req, res) => {
      hits++;
      req.resume();
      res.writeHead(302, { location: "https://8.8.8.8/elsewhere" }).end("moved");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanup.push(() => new Promise<void>((r) => server.close(() => r())));
    const sub = await subscribe(wired, `https://localhost:${(server.address() as AddressInfo).port}/moved`);
    enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "moved-1", body: tagsBody("moved-1") }]);
    const d = await until(
      async () => {
        const [row] = await deliveries(wired, sub.id);
        return row && row.attempts.length >= 2 ? row : null;
      },
      30_000,
      "two attempts",
    );
    await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`);
    expect(d.attempts[0]).toMatchObject({ status: 302, error: "HTTP 302: redirects are not followed: moved" });
    expect(hits).toBeGreaterThanOrEqual(2);
  });

  test("a 2xx status line is a success at once, however slowly its body follows", async () => {
    const server = createServer({ cert: readFileSync(certs.certFile), key: readFileSync(certs.keyFile) }, (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("working on it");
      // The body never ends (until the server closes).
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    cleanup.push(
      () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    );
    const sub = await subscribe(wired, `https://localhost:${(server.address() as AddressInfo).port}/slow-body`);
    enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "slow-body-1", body: tagsBody("slow-body-1") }]);
    const d = await until(
      async () => {
        const [row] = await deliveries(wired, sub.id);
        return row?.status === "succeeded" ? row : null;
      },
      30_000,
      "success",
    );
    await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`);
    expect(d.attempts).toHaveLength(1);
    // A success, not the 5 s time-out the never-ending body would otherwise run into.
    expect(d.attempts[0]).toMatchObject({ status: 200, error: null });
    expect(d.attempts[0]!.durationMs!).toBeLessThan(5_000);
  });

  test("the reference receiver (npm run webhook-receiver) verifies, records and de-duplicates; 403 after a rotation", async () => {
    const dir = tempDir("sfs-receiver-");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const out = join(dir, "calls.jsonl");
    const port = (() => {
      const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
      const p = probe.port!;
      probe.stop(true);
      return p;
    })();
    const sub = await subscribe(wired, `https://localhost:${port}/tags`);
    const script = join(import.meta.dir, "../src/cli/webhook-receiver.ts");
    const scripts = (JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8")) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts["webhook-receiver"]).toBe("bun server/src/cli/webhook-receiver.ts");
    const proc = Bun.spawn(
      [
        process.execPath,
        script,
        "--cert",
        certs.certFile,
        "--key",
        certs.keyFile,
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--out",
        out,
      ],
      {
        env: { ...process.env, WEBHOOK_SECRET: sub.secret },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    cleanup.push(async () => {
      proc.kill();
      await proc.exited;
    });
    const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(first)).toMatchObject({ msg: "webhook receiver listening", port });

    const bodies = [tagsBody("ref-1"), tagsBody("ref-2", 2)];
    enqueueFromOutside(wired.dataDir, [
      { storeId: wired.storeId, productId: "ref-1", body: bodies[0]! },
      { storeId: wired.storeId, productId: "ref-2", productVersion: 2, body: bodies[1]! },
    ]);
    const lines = () =>
      existsSync(out)
        ? readFileSync(out, "utf8")
            .trim()
            .split("\n")
            .filter(Boolean)
            .map((l) => JSON.parse(l) as ReceivedCall)
        : [];
    await until(() => lines().length === 2, 30_000, "two recorded calls");
    const recorded = lines().sort((a, b) =>
      String((a.body as { productId: string }).productId).localeCompare((b.body as { productId: string }).productId),
    );
    expect(recorded.map((c) => c.body)).toEqual(bodies.map((b) => JSON.parse(b)));
    for (const c of recorded) expect(c).toMatchObject({ webhookId: sub.id, storeId: wired.storeId, topic: "tags", apiVersion: "1.9" });

    const listed = await until(
      async () => {
        const list = await deliveries(wired, sub.id);
        return list.length === 2 && list.every((d) => d.status === "succeeded") ? list : null;
      },
      30_000,
      "both succeeded",
    );
    // Newest first.
    expect(listed.map((d) => d.productId)).toEqual(["ref-2", "ref-1"]);

    // A redelivery is a repeated call: answered 200, not recorded twice.
    const target = listed[1]!;
    const redo = await wired.call("admin", "POST", `/1.9/webhooks/${sub.id}/deliveries/${target.deliveryId}/redeliver`);
    expect(redo.status).toBe(202);
    const again = await until(
      async () => {
        const [d] = await deliveries(wired, sub.id, "?productId=ref-1");
        return d && d.attempts.length === 2 && d.status === "succeeded" ? d : null;
      },
      30_000,
      "the redelivery",
    );
    expect(again.attempts.map((a) => a.status)).toEqual([200, 200]);
    expect(lines()).toHaveLength(2);

    // After a rotation the receiver still has the old secret: 403, a failed attempt.
    await wired.call("admin", "POST", `/1.9/webhooks/${sub.id}/rotate-secret`);
    enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "ref-3", body: tagsBody("ref-3") }]);
    const refused = await until(
      async () => {
        const [d] = await deliveries(wired, sub.id, "?productId=ref-3");
        return d && d.attempts.length >= 1 ? d : null;
      },
      30_000,
      "the refused call",
    );
    expect(refused.attempts[0]!.status).toBe(403);
    expect(refused.attempts[0]!.error).toContain("HTTP 403");
    expect(lines()).toHaveLength(2);
    expect(await (await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`)).status).toBe(204);

    // A forged call straight to the receiver: 403.
    const forged = await fetch(`https://localhost:${port}/tags`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-service-store-id": wired.storeId,
        "x-service-ts": String(Date.now()),
        "x-service-topic": "tags",
        "x-service-webhook-id": sub.id,
        "x-service-hmac-sha256": "Zm9yZ2Vk",
      },
      body: bodies[0],
      tls: { ca: readFileSync(certs.caFile, "utf8") },
    } as RequestInit);
    expect(forged.status).toBe(403);
  }, 30_000);

  test("a receiver answering 500 gets the whole schedule: 16 calls at the spec's intervals, then dead", async () => {
    const dir = tempDir("sfs-schedule-");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    let secret = "";
    const receiver = await startTestReceiver(certs, {
      // Known once subscribed, as for a store.
      secret: () => secret,
      outFile: join(dir, "calls.jsonl"),
      onCall: () => {
        throw new Error("database down");
      },
    });
    cleanup.push(() => receiver.close());
    const failing = await subscribe(wired, receiver.url + "/fail");
    secret = failing.secret;

    enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "sched-1", body: tagsBody("sched-1") }]);
    const dead = await until(
      async () => {
        const [d] = await deliveries(wired, failing.id);
        return d?.status === "dead" ? d : null;
      },
      20_000,
      "the delivery to die",
    );
    await Bun.sleep(300);
    const calls = receiver.calls.filter((c) => c.deliveryId === dead.deliveryId);
    expect(calls).toHaveLength(16);
    expect(calls.every((c) => c.status === 500)).toBe(true);
    expect(dead.attempts).toHaveLength(16);
    expect(dead.nextAttemptAt).toBeNull();
    for (const a of dead.attempts) {
      expect(a.status).toBe(500);
      expect(a.error).toContain("HTTP 500");
    }
    const expected = RETRY_WAITS_MS.map((w) => w * SCALE);
    // A busy machine can only delay an attempt, so the waits are checked from below; the whole schedule (2.8 s
    // scaled) finishing within the 20 s wait above bounds them from above.
    for (let i = 0; i < 15; i++) {
      const prev = dead.attempts[i]!;
      const gap = Date.parse(dead.attempts[i + 1]!.at) - (Date.parse(prev.at) + prev.durationMs!);
      expect(gap).toBeGreaterThanOrEqual(Math.ceil(expected[i]!) - 2);
    }
    // As the receiver saw them: the gaps between calls are at least the waits.
    for (let i = 0; i < 15; i++) {
      expect(calls[i + 1]!.start - calls[i]!.start).toBeGreaterThanOrEqual(expected[i]! - 1);
    }
    // 6 h is six times 1 h and 24 h four times 6 h, as in the spec's table.
    expect(RETRY_WAITS_MS[12]! / RETRY_WAITS_MS[9]!).toBe(6);
    expect(RETRY_WAITS_MS[14]! / RETRY_WAITS_MS[12]!).toBe(4);
    await wired.call("admin", "DELETE", `/1.9/webhooks/${failing.id}`);
  }, 30_000);

  test("a receiver that takes 6 s is a time-out after 5 s", async () => {
    const dir = tempDir("sfs-timeout-");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    let secret = "";
    const receiver = await startTestReceiver(certs, {
      secret: () => secret,
      outFile: join(dir, "calls.jsonl"),
      onCall: () => Promise.race([Bun.sleep(6_000), released]),
    });
    cleanup.push(async () => {
      release();
      await receiver.close();
    });
    const sub = await subscribe(wired, receiver.url + "/slow");
    secret = sub.secret;
    enqueueFromOutside(wired.dataDir, [{ storeId: wired.storeId, productId: "slow-1", body: tagsBody("slow-1") }]);
    const d = await until(
      async () => {
        const [row] = await deliveries(wired, sub.id);
        return row && row.attempts.length >= 1 ? row : null;
      },
      30_000,
      "the first attempt to end",
    );
    await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`);
    const attempt = d.attempts[0]!;
    expect(attempt.status).toBeNull();
    expect(attempt.error).toContain("timeout");
    // Cut by the time-out, not ended by the receiver's answer; a busy machine can only fire the timer later.
    expect(attempt.durationMs!).toBeGreaterThanOrEqual(4_990);
  }, 60_000);

  test(`at most ${PER_SUBSCRIPTION} calls at once per subscription`, async () => {
    const dir = tempDir("sfs-concurrency-");
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    let open = 0;
    let most = 0;
    let secret = "";
    const receiver = await startTestReceiver(certs, {
      secret: () => secret,
      outFile: join(dir, "calls.jsonl"),
      onCall: async () => {
        most = Math.max(most, ++open);
        await Bun.sleep(150);
        open--;
      },
    });
    cleanup.push(() => receiver.close());
    const sub = await subscribe(wired, receiver.url + "/busy");
    secret = sub.secret;
    enqueueFromOutside(
      wired.dataDir,
      Array.from({ length: 30 }, (_, i) => ({ storeId: wired.storeId, productId: `busy-${i}`, body: tagsBody(`busy-${i}`) })),
    );
    await until(async () => (await deliveries(wired, sub.id, "?status=succeeded&limit=1000")).length === 30, 30_000, "30 deliveries");
    expect(most).toBeLessThanOrEqual(PER_SUBSCRIPTION);
    expect(most).toBeGreaterThan(1);
    expect(receiver.calls).toHaveLength(30);

    // Paged newest first by nextCursor.
    const page1 = (await (await wired.call("admin", "GET", `/1.9/webhooks/${sub.id}/deliveries?limit=20`)).json()) as {
      deliveries: Delivery[];
      nextCursor: string;
    };
    expect(page1.deliveries).toHaveLength(20);
    expect(page1.deliveries[0]!.productId).toBe("busy-29");
    const page2 = (await (
      await wired.call("admin", "GET", `/1.9/webhooks/${sub.id}/deliveries?limit=20&cursor=${page1.nextCursor}`)
    ).json()) as { deliveries: Delivery[]; nextCursor: string | null };
    expect(page2.deliveries).toHaveLength(10);
    expect(page2.nextCursor).toBeNull();
    expect(page2.deliveries.at(-1)!.productId).toBe("busy-0");
    expect(await deliveries(wired, sub.id, "?status=dead")).toEqual([]);
    await wired.call("admin", "DELETE", `/1.9/webhooks/${sub.id}`);
  }, 60_000);
});
