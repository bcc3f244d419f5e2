import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorBody, startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

let s: TestServer;
let noScript: TestServer;
const scriptDir = tempDir("sfs-widget-");
const SCRIPT = "/* head script */ console.log('sfs');";
const CLIENT = "/* InstantSearch client */ export const createSearchClient = () => ({});";
const INSIGHTS = "/* InstantSearch insights */ export const createInsightsClient = () => ({});";

beforeAll(async () => {
  const file = join(scriptDir, "widget.js");
  writeFileSync(file, SCRIPT);
  const client = join(scriptDir, "instantsearch-client.js");
  writeFileSync(client, CLIENT);
  writeFileSync(join(scriptDir, "instantsearch-insights.js"), INSIGHTS);
  s = await startTestServer({ WIDGET_SCRIPT_FILE: file, INSTANTSEARCH_CLIENT_FILE: client });
  noScript = await startTestServer({
    WIDGET_SCRIPT_FILE: join(scriptDir, "absent.js"),
    // A folder of its own: the insights module is looked for beside the client.
    INSTANTSEARCH_CLIENT_FILE: join(scriptDir, "absent", "instantsearch-client.js"),
  });
});
afterAll(async () => {
  await s.stop();
  await noScript.stop();
});

describe("widget configuration", () => {
  test("a search key reads it, with defaults; other kinds and no key are 401", async () => {
    const res = await s.call("search", "GET", "/1.9/widget-config");
    expect(res.status).toBe(200);
    const config = (await res.json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      targetId: "product-search-results",
      queryParam: "q",
      searchPagePath: "/search-results",
      pageSize: 24,
      preprod: false,
      facetsOpen: 4,
      popularQueries: [],
    });
    expect((config.texts as Record<string, Record<string, string>>).en!.results).toBe("{count} results");
    expect((await s.call("analytics", "GET", "/1.9/widget-config")).status).toBe(401);
    expect((await s.call(null, "GET", "/1.9/widget-config")).status).toBe(401);
  });

  test("the store sets it through its settings; members it sets replace the defaults", async () => {
    const set = await s.call("admin", "PATCH", "/1.9/settings", {
      widget: {
        targetId: "results",
        pageSize: 12,
        theme: { "--sfs-color-accent": "#c0392b" },
        texts: { en: { results: "{count} items" }, de: { results: "{count} Treffer" } },
        preprod: true,
        facetsOpen: 2,
        popularQueries: ["jeans", "kurta"],
      },
    });
    expect(set.status).toBe(200);
    const config = (await (
      await s.call("search", "GET", "/1.9/widget-config", undefined, { origin: "https://shop.example" })
    ).json()) as Record<string, unknown>;
    expect(config).toMatchObject({
      targetId: "results",
      pageSize: 12,
      preprod: true,
      queryParam: "q",
      theme: { "--sfs-color-accent": "#c0392b" },
      facetsOpen: 2,
      popularQueries: ["jeans", "kurta"],
    });
    const texts = config.texts as Record<string, Record<string, string>>;
    expect(texts.en!.results).toBe("{count} items");
    expect(texts.en!.clearAll).toBe("Clear all");
    expect(texts.de!.results).toBe("{count} Treffer");
  });

  test("theme values cannot break out of a CSS declaration; bad members name their path", async () => {
    const cases: [unknown, string][] = [
      [{ theme: { "--sfs-color-accent": "red; } body { display: none" } }, "body.widget.theme"],
      [{ theme: { color: "red" } }, "body.widget.theme"],
      [{ targetId: "1 bad" }, "body.widget.targetId"],
      [{ pageSize: 500 }, "body.widget.pageSize"],
      [{ facetsOpen: -1 }, "body.widget.facetsOpen"],
      [{ popularQueries: [""] }, "body.widget.popularQueries"],
    ];
    for (const [widget, path] of cases) {
      const res = await s.call("admin", "PATCH", "/1.9/settings", { widget });
      expect(res.status).toBe(400);
      expect((await errorBody(res)).details?.[0]?.path).toStartWith(path);
    }
  });

  test("browsers on store pages may read it (CORS)", async () => {
    const res = await s.call("search", "GET", "/1.9/widget-config", undefined, { origin: "https://shop.example" });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://shop.example");
  });

  test("a store that limits its origins: its own pages read it, compressed or not, as they read searches; others get a 403", async () => {
    expect((await s.call("admin", "PATCH", "/1.9/settings", { allowedOrigins: ["https://shop.example"] })).status).toBe(200);
    try {
      for (const encoding of ["identity", "gzip", "br"]) {
        const headers = {
          "x-service-store-id": s.storeId,
          "x-service-api-key": s.keys.search,
          origin: "https://shop.example",
          "accept-encoding": encoding,
        };
        const [config, search] = await Promise.all([
          fetch(s.url + "/1.9/widget-config", { headers }),
          fetch(s.url + "/1.9/search?query=shirt", { headers }),
        ]);
        expect([config.status, search.status]).toEqual([200, 200]);
        expect(config.headers.get("access-control-allow-origin")).toBe("https://shop.example");
        expect(config.headers.get("access-control-allow-origin")).toBe(search.headers.get("access-control-allow-origin"));
      }
      const foreign = await s.call("search", "GET", "/1.9/widget-config", undefined, { origin: "https://evil.example" });
      expect(foreign.status).toBe(403);
      expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await s.call("admin", "PATCH", "/1.9/settings", { allowedOrigins: ["*"] });
    }
  });
});

describe("widget configuration caching", () => {
  test("browsers keep it a minute (private: the URL does not name the store) and revalidate by ETag", async () => {
    const res = await s.call("search", "GET", "/1.9/widget-config");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=60");
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^W\/"[0-9a-f]{12}"$/);
    const body = await res.json();

    const again = await s.call("search", "GET", "/1.9/widget-config", undefined, { "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("private, max-age=60");
    expect(await again.text()).toBe("");
    // A list of tags, and the strong form of the tag, match too (If-None-Match compares weakly).
    const listed = await s.call("search", "GET", "/1.9/widget-config", undefined, { "if-none-match": `"other", ${etag.slice(2)}` });
    expect(listed.status).toBe(304);
    const stale = await s.call("search", "GET", "/1.9/widget-config", undefined, { "if-none-match": 'W/"000000000000"' });
    expect(stale.status).toBe(200);
    expect(await stale.json()).toEqual(body);
  });

  test("a settings change gives a new tag, so the old one no longer revalidates", async () => {
    const before = (await s.call("search", "GET", "/1.9/widget-config")).headers.get("etag")!;
    expect((await s.call("admin", "PATCH", "/1.9/settings", { widget: { pageSize: 48 } })).status).toBe(200);
    const res = await s.call("search", "GET", "/1.9/widget-config", undefined, { "if-none-match": before });
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).not.toBe(before);
    expect(((await res.json()) as { pageSize: number }).pageSize).toBe(48);
  });

  test("the tag is the same compressed or not, and a CORS answer varies by Origin, store and encoding", async () => {
    const headers = { "x-service-store-id": s.storeId, "x-service-api-key": s.keys.search, origin: "https://shop.example" };
    const plain = await fetch(s.url + "/1.9/widget-config", { headers: { ...headers, "accept-encoding": "identity" } });
    const br = await fetch(s.url + "/1.9/widget-config", { headers: { ...headers, "accept-encoding": "br" }, decompress: false });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("etag")).toBe(plain.headers.get("etag"));
    const vary = (br.headers.get("vary") ?? "").split(",").map((f) => f.trim().toLowerCase());
    expect(vary).toEqual(["origin", "x-service-store-id", "accept-encoding"]);
    const revalidated = await fetch(s.url + "/1.9/widget-config", {
      headers: { ...headers, "accept-encoding": "br", "if-none-match": br.headers.get("etag")! },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("access-control-allow-origin")).toBe("https://shop.example");
  });
});

describe("head script", () => {
  test("served with a short cache and an ETag; revalidation answers 304", async () => {
    const res = await fetch(s.url + "/widget/v1/widget.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/javascript");
    expect(res.headers.get("cache-control")).toContain("max-age=300");
    expect(await res.text()).toBe(SCRIPT);
    const etag = res.headers.get("etag")!;
    const again = await fetch(s.url + "/widget/v1/widget.js", { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
  });

  test("an immutable copy named by its content hash sits beside it", async () => {
    const link = (await fetch(s.url + "/widget/v1/widget.js")).headers.get("link")!;
    const path = /<([^>]+)>/.exec(link)![1]!;
    expect(path).toMatch(/^\/widget\/v1\/widget\.[0-9a-f]{12}\.js$/);
    const pinned = await fetch(s.url + path);
    expect(pinned.headers.get("cache-control")).toContain("immutable");
    expect(await pinned.text()).toBe(SCRIPT);
    expect((await fetch(s.url + "/widget/v1/widget.000000000000.js")).status).toBe(404);
  });

  test("a server without a built widget says how to build it, as JSON", async () => {
    const res = await fetch(noScript.url + "/widget/v1/widget.js");
    expect(res.status).toBe(404);
    expect((await errorBody(res)).message).toContain("npm run build -w widget");
  });
});

describe("InstantSearch client module", () => {
  test("served beside the head script to any origin, with a short cache and an ETag", async () => {
    const res = await fetch(s.url + "/widget/v1/instantsearch-client.js", { headers: { origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/javascript");
    // A module script is fetched with CORS: a store's page on another origin must be let in.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("cache-control")).toContain("max-age=300");
    expect(await res.text()).toBe(CLIENT);
    const again = await fetch(s.url + "/widget/v1/instantsearch-client.js", { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  test("an immutable copy named by its content hash; a hash of the other script is not it", async () => {
    const link = (await fetch(s.url + "/widget/v1/instantsearch-client.js")).headers.get("link")!;
    const path = /<([^>]+)>/.exec(link)![1]!;
    expect(path).toMatch(/^\/widget\/v1\/instantsearch-client\.[0-9a-f]{12}\.js$/);
    const pinned = await fetch(s.url + path);
    expect(pinned.headers.get("cache-control")).toContain("immutable");
    expect(await pinned.text()).toBe(CLIENT);
    const widgetHash = /widget\.([0-9a-f]{12})\.js/.exec((await fetch(s.url + "/widget/v1/widget.js")).headers.get("link")!)![1];
    expect((await fetch(`${s.url}/widget/v1/instantsearch-client.${widgetHash}.js`)).status).toBe(404);
  });

  test("the insights client is served from the same folder, the same way", async () => {
    const res = await fetch(s.url + "/widget/v1/instantsearch-insights.js", { headers: { origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.text()).toBe(INSIGHTS);
    const path = /<([^>]+)>/.exec(res.headers.get("link")!)![1]!;
    expect(path).toMatch(/^\/widget\/v1\/instantsearch-insights\.[0-9a-f]{12}\.js$/);
    expect(await (await fetch(s.url + path)).text()).toBe(INSIGHTS);
    expect((await fetch(noScript.url + "/widget/v1/instantsearch-insights.js")).status).toBe(404);
  });

  test("a server without a built client says how to build it, as JSON", async () => {
    const res = await fetch(noScript.url + "/widget/v1/instantsearch-client.js");
    expect(res.status).toBe(404);
    expect((await errorBody(res)).message).toContain("npm run build -w instantsearch-client");
  });
});
