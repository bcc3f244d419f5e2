import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "./support/test-server.ts";

/*
 * The experiments page as the server serves it from staff-pages/dist (built by the test command before this
 * suite): the shell around its own content, beside the experiments API under the same word. Its headers, 404s and
 * the 503 of an unbuilt server are those of every staff page (staff-pages.test.ts).
 */

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

const get = (server: TestServer, path: string) => fetch(server.url + path);

describe("the experiments page", () => {
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

  test("the experiments API still answers under /{v}/experiments", async () => {
    const api = await s.call("admin", "GET", "/1.9/experiments");
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ experiments: [] });
  });
});
