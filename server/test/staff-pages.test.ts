import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * The staff pages as the server serves them from staff-pages/dist (built by the test command before this suite):
 * the same URLs, headers and revalidation as every staff page, only the files the pages name, and a clear 503
 * when the pages were never built.
 */

let s: TestServer;
let unbuilt: TestServer;
const emptyDir = tempDir("sfs-no-staff-pages-");
beforeAll(async () => {
  s = await startTestServer();
  unbuilt = await startTestServer({ STAFF_PAGES_DIR: emptyDir });
});
afterAll(async () => {
  await s.stop();
  await unbuilt.stop();
  rmSync(emptyDir, { recursive: true, force: true });
});

const get = (server: TestServer, path: string, headers: Record<string, string> = {}) => fetch(server.url + path, { headers });

describe("each page the service serves", () => {
  test("its page and assets answer 200 with their type, the CSP and no-cache, and revalidate with an ETag", async () => {
    for (const page of ["merchandising", "experiments"]) {
      for (const [path, type] of [
        [`/${page}`, "text/html; charset=utf-8"],
        [`/${page}/assets/${page}.js`, "text/javascript; charset=utf-8"],
        [`/${page}/assets/${page}.css`, "text/css; charset=utf-8"],
      ] as const) {
        const res = await get(s, path);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("content-type"), path).toBe(type);
        expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
        expect(res.headers.get("x-frame-options")).toBe("DENY");
        expect(res.headers.get("cache-control")).toBe("no-cache");
        const etag = res.headers.get("etag")!;
        expect((await get(s, path, { "if-none-match": etag })).status).toBe(304);
      }
    }
  });
});

describe("the merchandising page", () => {
  test("the page carries the shared sign-in form, its stylesheet starts with the shared one, its script imports nothing", async () => {
    const page = await (await get(s, "/merchandising")).text();
    expect(page).toContain('id="sign-in-form"');
    expect(page).not.toContain("<!-- sign-in -->");
    const css = await (await get(s, "/merchandising/assets/merchandising.css")).text();
    const shared = readFileSync(join(import.meta.dir, "../../staff-pages/src/shell/staff-page.css"), "utf8");
    expect(css.startsWith(shared)).toBe(true);
    expect((await (await get(s, "/reports/assets/reports.css")).text()).startsWith(shared)).toBe(true);
    const js = await (await get(s, "/merchandising/assets/merchandising.js")).text();
    expect(js).not.toMatch(/\bimport\s*[{("'*]|\bfrom\s*["']/);
    expect(js).toContain("sessionStorage");
  });
});

describe("files the pages do not name", () => {
  test("answer 404 with a JSON message, whatever the path spells", async () => {
    for (const path of [
      "/reports/assets/other.js",
      "/merchandising/assets/reports.js",
      "/reports/assets/..%2f..%2fpackage.json",
      "/reports/assets/index.html",
      "/experiments/assets/merchandising.js",
      "/experiments/assets/..%2f..%2fpackage.json",
    ]) {
      const res = await get(s, path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe("Not found");
    }
  });
});

describe("a server whose staff pages were never built", () => {
  test("answers 503 with a JSON message saying how to build them, and keeps serving the API", async () => {
    for (const path of [
      "/reports",
      "/reports/assets/reports.js",
      "/merchandising",
      "/merchandising/assets/merchandising.css",
      "/experiments",
      "/experiments/assets/experiments.js",
    ]) {
      const res = await get(unbuilt, path);
      expect(res.status).toBe(503);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(((await res.json()) as { message: string }).message).toContain("npm run build -w staff-pages");
    }
    expect((await get(unbuilt, "/health")).status).toBe(200);
  });
});
