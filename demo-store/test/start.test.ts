import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "../../server/test/support/child-server.ts";
import { tempDir } from "../../server/test/support/test-server.ts";

/*
 * `npm start` as a shopper and a store owner meet it: one process, keys printed, catalog converted and indexed
 * once; a second start reads the converted catalog back from DATA_DIR; a changed catalog is converted again.
 */

const START = join(import.meta.dir, "../src/start.ts");
const dataDir = tempDir("sfs-demo-");
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const cacheFiles = () => readdirSync(join(dataDir, "demo-catalog"));

async function start(port: number, limit = 600): Promise<{ stdout: string; stderr: () => string; stop: () => Promise<void> }> {
  const proc = Bun.spawn([process.execPath, START], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "info", DEMO_CATALOG_LIMIT: String(limit) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stdout = "";
  let stderr = "";
  void (async () => {
    for await (const chunk of proc.stderr as unknown as AsyncIterable<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  const decoder = new TextDecoder();
  const reader = proc.stdout.getReader();
  const deadline = Date.now() + 60_000;
  while (!stdout.includes("Analytics key") && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += decoder.decode(value);
  }
  reader.releaseLock();
  return {
    stdout,
    stderr: () => stderr,
    stop: async () => {
      proc.kill();
      await proc.exited;
    },
  };
}

test("npm start: store, keys, indexed catalog, pages and images; a second start does not index again", async () => {
  const port = freePort();
  const first = await start(port);
  const key = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(first.stdout)?.[1] ?? "";
  const storeId = key("Store id");
  const admin = key("Admin key");
  expect(storeId).toBe("demo");
  expect(admin).toStartWith("sk_admin_");
  expect(key("Search key")).toStartWith("pk_search_");
  const base = `http://localhost:${port}`;
  const headers = { "x-service-store-id": storeId, "x-service-api-key": admin };

  const home = await (await fetch(base + "/")).text();
  // Pages embed the head script with the browser keys, never the admin key.
  expect(home).toContain(`data-search-key="${key("Search key")}"`);
  expect(home).toContain('src="/widget/v1/widget.js"');
  expect(home).not.toContain(admin);
  const productPath = /href="(\/products\/[^"]+)"/.exec(home)?.[1];
  expect(productPath).toBeDefined();
  const id = decodeURIComponent(productPath!.split("/")[2]!);
  const entry = (await (await fetch(`${base}/1.9/products/${encodeURIComponent(id)}`, { headers })).json()) as {
    product: { name: string; url: string; media: { url: string }[] };
    version: number;
  };
  expect(entry.version).toBe(1);
  expect(entry.product.url).toBe(`${base}/products/${encodeURIComponent(id)}`);
  const page = await fetch(base + productPath!);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(entry.product.name.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/"/g, "&quot;"));
  const image = await fetch(entry.product.media[0]!.url);
  expect(image.headers.get("content-type")).toStartWith("image/svg+xml");
  expect(await image.text()).toStartWith("<svg");
  expect((await fetch(base + "/images/products/../../etc/passwd")).status).toBe(404);
  expect((await fetch(base + "/search-results")).status).toBe(200);
  // Not a terminal: a few plain lines, no bar redraws; the server's log lines of that phase went to a file.
  const progress = first.stderr();
  expect(progress).toContain("Indexing demo catalog: 600 products\n");
  expect(progress).toMatch(/Indexing demo catalog: 600\/600 in [\d.]+ s/);
  expect(progress).toMatch(
    /Since the process started: server up [\d.]+ s, (first search [\d.]+ s, )?converted [\d.]+ s, all indexed [\d.]+ s\./,
  );
  expect(progress).not.toContain("\r");
  expect(progress).not.toContain('"level"');
  expect(first.stdout).not.toContain('"level"');
  const serverLog = readFileSync(join(dataDir, "logs", "server.log"), "utf8");
  expect(serverLog).toContain('"msg":"listening"');
  const [cached] = cacheFiles();
  expect(cacheFiles()).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.jsonl$/)]);
  const cachedAt = statSync(join(dataDir, "demo-catalog", cached!)).mtimeMs;
  await first.stop();

  // Unchanged: nothing converted or indexed again, and the pages still know every product.
  const second = await start(port);
  expect(second.stdout).toContain(admin);
  expect(second.stderr()).toContain("Demo catalog already indexed (600 products");
  // The store's index loads in the background and says when search answers.
  for (const until = Date.now() + 20_000; !second.stderr().includes("Search ready") && Date.now() < until; ) await Bun.sleep(50);
  expect(second.stderr()).toMatch(/Search ready [\d.]+ s after the process started\./);
  expect(second.stderr()).not.toContain("Indexing demo catalog");
  expect(second.stderr()).not.toContain("converted");
  expect(cacheFiles()).toEqual([cached!]);
  expect(statSync(join(dataDir, "demo-catalog", cached!)).mtimeMs).toBe(cachedAt);
  expect((await fetch(base + productPath!)).status).toBe(200);
  const again = (await (await fetch(`${base}/1.9/products/${encodeURIComponent(id)}`, { headers })).json()) as { version: number };
  expect(again.version).toBe(1);
  await second.stop();

  // Another catalog (here a larger sample): converted and indexed again, and it replaces the kept one.
  const third = await start(port, 700);
  expect(third.stderr()).toContain("Indexing demo catalog: 700/700");
  expect(third.stderr()).toMatch(/, converted [\d.]+ s/);
  expect(cacheFiles()).toHaveLength(1);
  expect(cacheFiles()[0]).not.toBe(cached);
  expect(existsSync(join(dataDir, "demo-catalog", cached!))).toBe(false);
  await third.stop();
}, 120_000);
