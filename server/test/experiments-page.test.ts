import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { startTestServer, tempDir, type TestServer } from "./support/test-server.ts";

/*
 * The experiments page as the server serves it from staff-pages/dist (built by the test command before this
 * suite): its page and assets with the staff pages' headers, beside the experiments API under the same word, and a
 * 503 saying how to build it when the pages were never built.
 */

let s: TestServer;
let unbuilt: TestServer;
const emptyDir = tempDir("sfs-no-experiments-page-");
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

describe("the experiments page", () => {
  test("its page and assets answer 200 with their type, the CSP and no-cache, and revalidate with an ETag", async () => {
    for (const [path, type] of [
      ["/experiments", "text/html; charset=utf-8"],
      ["/experiments/assets/experiments.js", "text/javascript; charset=utf-8"],
      ["/experiments/assets/experiments.css", "text/css; charset=utf-8"],
    ] as const) {
      const res = await get(s, path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe(type);
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const etag = res.headers.get("etag")!;
      expect((await get(s, path, { "if-none-match": etag })).status).toBe(304);
    }
  });

  test("the page is the shell around its own content, loading its one script and stylesheet", async () => {
    const page = await (await get(s, "/experiments")).text();
    expect(page).toContain("<title>Experiments</title>");
    expect(page).toContain('id="sign-in-form"');
    expect(page).toContain('id="experiments-table"');
    expect(page).toContain('src="/experiments/assets/experiments.js"');
    expect(page).toContain('href="/experiments/assets/experiments.css"');
    const js = await (await get(s, "/experiments/assets/experiments.js")).text();
    expect(js).not.toMatch(/\bimport\s*[{("'*]|\bfrom\s*["']/);
    expect(js).not.toContain("innerHTML");
  });

  test("a file the page does not name answers 404, and the experiments API still answers under /{v}/experiments", async () => {
    for (const path of ["/experiments/assets/merchandising.js", "/experiments/assets/..%2f..%2fpackage.json"]) {
      const res = await get(s, path);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { message: string }).message).toBe("Not found");
    }
    const api = await s.call("admin", "GET", "/1.9/experiments");
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ experiments: [] });
  });
});

test("a server whose staff pages were never built answers 503 with a JSON message saying how to build them", async () => {
  for (const path of ["/experiments", "/experiments/assets/experiments.js"]) {
    const res = await get(unbuilt, path);
    expect(res.status).toBe(503);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(((await res.json()) as { message: string }).message).toContain("npm run build -w staff-pages");
  }
});
