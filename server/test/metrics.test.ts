import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../src/config.ts";
import { ServiceMetrics } from "../src/modules/metrics/service-metrics.ts";
import { product } from "./support/fixtures.ts";
import { indexProducts } from "./support/search-client.ts";
import { errorBody, startTestServer, type TestServer } from "./support/test-server.ts";

/* GET /metrics (Prometheus text format) behind METRICS_TOKEN, over HTTP against the real server. */

const TOKEN = "metrics-token-0123456789abcdef";

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition text's samples (comment lines skipped); label values here have no escaped quotes. */
function parseSamples(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="([^"]*)"/g)) labels[k!] = v!;
    out.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return out;
}

/** The one sample of `name` whose labels include `labels`; fails when there is none or several. */
function sample(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length !== 1) throw new Error(`${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]!.value;
}

const scrape = (s: TestServer, authorization?: string) =>
  fetch(`${s.url}/metrics`, { headers: authorization === undefined ? {} : { authorization } });

describe("without METRICS_TOKEN", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());

  test("/metrics is a 404 like any unknown path, with or without a bearer", async () => {
    const unknown = await errorBody(await fetch(`${s.url}/no-such-path`));
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const res = await scrape(s, authorization);
      expect(res.status).toBe(404);
      const body = await errorBody(res);
      expect({ message: body.message, code: body.code }).toEqual({ message: unknown.message, code: unknown.code });
      expect(body.code).toBe("not_found");
    }
  });
});

describe("with METRICS_TOKEN", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => s.stop());

  test("a missing or wrong bearer is a 401 in the usual error shape", async () => {
    const wrong = [
      undefined,
      "",
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
      `Bearer`,
      `Bearer ${TOKEN} extra`,
    ];
    for (const authorization of wrong) {
      const res = await scrape(s, authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect((await errorBody(res)).code).toBe("unauthorized");
    }
  });

  test("the right bearer gets the text format, with the scheme in any case", async () => {
    for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
      const res = await scrape(s, authorization);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
      const text = await res.text();
      expect(text).toContain("# TYPE http_request_duration_seconds histogram");
      expect(text).toContain("process_cpu_seconds_total");
    }
  });

  test("requests, searches, events and queue depths after real traffic", async () => {
    await indexProducts(s, [product("m1", { name: "Linen shirt" }), product("m2", { name: "Denim jacket" }), product("m3")]);
    for (const q of ["shirt", "jacket"]) {
      const res = await s.call("search", "GET", `/1.9/search?query=${q}`);
      expect(res.status).toBe(200);
    }
    expect((await s.call("search", "GET", "/1.9/search?query=shirt&pageSize=1000")).status).toBe(400);
    expect((await s.call("search", "GET", "/1.9/search")).status).toBe(400);
    expect((await s.call(null, "GET", "/1.9/search?query=shirt")).status).toBe(401);
    expect((await s.call(null, "GET", "/1.9/no-such-route")).status).toBe(404);

    const one = await s.call("analytics", "POST", "/1.9/tracking", { type: "SiteView", data: {}, userId: "u1" });
    expect(one.status).toBe(200);
    const batch = await s.call("analytics", "POST", "/1.9/tracking", [
      { type: "SiteView", data: {} },
      { type: "ViewSimilarProducts", data: { productId: "m1" } },
      { type: "SiteView", data: {} },
    ]);
    expect(batch.status).toBe(200);
    const refused = await s.call("analytics", "POST", "/1.9/tracking", [
      { type: "SiteView", data: {} },
      { type: "ProductClick", data: { page: "two" } },
    ]);
    expect(refused.status).toBe(400);

    const res = await scrape(s, `Bearer ${TOKEN}`);
    expect(res.status).toBe(200);
    const text = await res.text();
    const samples = parseSamples(text);

    const requests = (route: string, method: string, status: string) =>
      sample(samples, "http_request_duration_seconds_count", { method, route, status });
    expect(requests("/:version/search", "GET", "200")).toBe(2);
    expect(requests("/:version/search", "GET", "400")).toBe(2);
    expect(requests("/:version/search", "GET", "401")).toBe(1);
    expect(requests("/:version/tracking", "POST", "200")).toBe(2);
    expect(requests("/:version/tracking", "POST", "400")).toBe(1);
    expect(requests("/:version/products", "POST", "202")).toBe(1);
    expect(requests("/:version/tasks/:id", "GET", "200")).toBeGreaterThanOrEqual(1);
    // Earlier scrapes, refused and answered, are requests too.
    expect(requests("/metrics", "GET", "401")).toBe(8);
    expect(requests("/metrics", "GET", "200")).toBe(2);
    expect(requests("unmatched", "GET", "404")).toBe(1);
    expect(
      sample(samples, "http_request_duration_seconds_bucket", { method: "GET", route: "/:version/search", status: "200", le: "+Inf" }),
    ).toBe(2);
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/:version\/search"[^}]*status="200"/);
    // The route label is the pattern, never the path a client chose.
    const routes = new Set(samples.filter((x) => x.name === "http_request_duration_seconds_count").map((x) => x.labels.route));
    for (const route of routes) expect(route === "unmatched" || !/\/\d+\.\d+\/|no-such/.test(route!)).toBe(true);

    // Only the two searches that reached the search service; the 400s were refused before it.
    expect(sample(samples, "search_duration_seconds_count")).toBe(2);
    expect(sample(samples, "search_duration_seconds_bucket", { le: "+Inf" })).toBe(2);
    expect(sample(samples, "search_duration_seconds_sum")).toBeGreaterThan(0);
    // 1 + 3 accepted; the refused batch stored nothing and counts nothing.
    expect(sample(samples, "events_ingested_total")).toBe(4);
    // Every task completed before the scrape.
    expect(sample(samples, "indexing_queue_depth")).toBe(0);
    expect(sample(samples, "enrichment_queue_depth")).toBe(0);
  });
});

describe("metrics parts", () => {
  test("each instance has its own registry; gauges read their sources at scrape time; methods are bounded", async () => {
    let depth = 7;
    const a = new ServiceMetrics({ indexingQueueDepth: async () => depth, enrichmentQueueDepth: async () => 3 });
    const b = new ServiceMetrics({ indexingQueueDepth: async () => 0 });
    a.countEvents(5);
    a.countEvents(0);
    a.observeRequest("BREW", "/:version/search", 200, 0.01);
    a.observeRequest("GET", undefined, 404, 0.002);
    a.observeRequest("GET", "", 404, 0.002);
    let samples = parseSamples(await a.render());
    expect(sample(samples, "events_ingested_total")).toBe(5);
    expect(sample(samples, "indexing_queue_depth")).toBe(7);
    expect(sample(samples, "enrichment_queue_depth")).toBe(3);
    expect(sample(samples, "http_request_duration_seconds_count", { method: "other", route: "/:version/search" })).toBe(1);
    expect(sample(samples, "http_request_duration_seconds_count", { method: "GET", route: "unmatched", status: "404" })).toBe(2);
    depth = 2;
    samples = parseSamples(await a.render());
    expect(sample(samples, "indexing_queue_depth")).toBe(2);
    const other = parseSamples(await b.render());
    expect(sample(other, "events_ingested_total")).toBe(0);
    expect(sample(other, "enrichment_queue_depth")).toBe(0);
    expect(other.some((x) => x.name === "http_request_duration_seconds_count")).toBe(false);
  });

  test("METRICS_TOKEN: unset or blank is off; a short or spaced token stops start-up", () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: "  " }).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: ` ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    expect(() => loadConfig({ METRICS_TOKEN: "short" })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: "has a space in it, long enough" })).toThrow("METRICS_TOKEN");
  });
});
