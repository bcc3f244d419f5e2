import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/* The reports page (/reports) and its assets: served by us, nothing inline, under a strict Content-Security-Policy. */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(s.url + path, { headers });

const ASSETS: [path: string, type: string][] = [
  ["/reports", "text/html; charset=utf-8"],
  ["/reports/assets/reports.js", "text/javascript; charset=utf-8"],
  ["/reports/assets/reports.css", "text/css; charset=utf-8"],
  ["/reports/assets/uplot.js", "text/javascript; charset=utf-8"],
  ["/reports/assets/uplot.css", "text/css; charset=utf-8"],
];

describe("GET /reports and its assets", () => {
  test("each answers 200 with its content type, the CSP, nosniff and no-referrer", async () => {
    for (const [path, type] of ASSETS) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe(type);
      const csp = res.headers.get("content-security-policy") ?? "";
      for (const directive of [
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "frame-ancestors 'none'",
        "img-src 'self' data:",
      ]) {
        expect(csp, path).toContain(directive);
      }
      expect(csp).toMatch(/default-src '(self|none)'/);
      expect(csp).not.toContain("unsafe-inline");
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(res.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect((await res.text()).length, path).toBeGreaterThan(100);
    }
  });

  test("uplot.js and uplot.css are the library's own files from node_modules", async () => {
    const file = (name: string) => readFileSync(Bun.resolveSync(`uplot/dist/${name}`, import.meta.dir), "utf8");
    expect(await (await get("/reports/assets/uplot.js")).text()).toBe(file("uPlot.iife.min.js"));
    expect(await (await get("/reports/assets/uplot.css")).text()).toBe(file("uPlot.min.css"));
  });

  test("the page has no inline script, style or handler, and loads its own assets", async () => {
    const html = await (await get("/reports")).text();
    expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/i);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    for (const [path] of ASSETS.slice(1)) expect(html).toContain(`"${path}"`);
    // Sign-in inputs have no name: a form submitted without the script could not put the key in a URL.
    expect(html).not.toMatch(/<input[^>]*id="admin-key"[^>]*\sname=/);
  });

  test("the page's script is transpiled JavaScript that writes shopper text with textContent only", async () => {
    const js = await (await get("/reports/assets/reports.js")).text();
    expect(() => new Function(js)).not.toThrow();
    expect(js).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|localStorage|document\.cookie/);
    expect(js).toContain("sessionStorage");
    // The shared session's API root and the reports' path under it.
    expect(js).toMatch(/["'`]\/1\.9[/"'`]/);
    expect(js).toContain("/reports/");
  });

  test("assets revalidate with an ETag (304); the asset routes are not in the OpenAPI document", async () => {
    const first = await get("/reports/assets/reports.js");
    const etag = first.headers.get("etag")!;
    expect(etag).toBeTruthy();
    expect((await get("/reports/assets/reports.js", { "if-none-match": etag })).status).toBe(304);
    const spec = (await (await get("/docs/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).filter((p) => p.startsWith("/reports/assets"))).toEqual([]);
  });

  test("an admin key as the page sends it (same origin: no Origin header) reads a report", async () => {
    const res = await s.call("admin", "GET", "/1.9/reports/overview", undefined, {
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "cors",
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ searches: 0, orders: 0 });
  });
});
