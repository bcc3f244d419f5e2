/*
 * Request garbage probe (not a test: it prints): what one request of each kind leaves on the serving thread's heap
 * for the collector. The real server runs in this process on N products (the demo's real ones, multiplied beyond
 * them); a client in another process sends the requests, so that only the server's allocations land on this heap.
 * Between a count before and one after, no collection runs (no type's count falls: checked), so the difference in
 * JavaScriptCore's cells by type is what the requests allocated.
 *
 *   bun server/bench/request-garbage.ts [--size 20000] [--requests 200] [--top 12]
 */
import { heapStats } from "bun:jsc";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { indexOver } from "../test/support/indexed-child-server.ts";
import { startTestServer } from "../test/support/test-server.ts";
import { stringArg } from "./bench-args.ts";
import { multiplyCatalog } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { settled } from "./load.ts";

const SIZE = Number(stringArg("--size", "20000"));
const REQUESTS = Number(stringArg("--requests", "200"));
const TOP = Number(stringArg("--top", "12"));
const DATA_DIR = loadConfig({}).demoCatalog.dir;
const QUERIES_FILE = join(DATA_DIR, "query-suggestions", "fashion-query-suggestions.json");
const SORTS = ["", "pricea", "priced", "new", "rating"];

const real = loadDemoCatalog({ dataDir: DATA_DIR, baseUrl: "http://localhost:8080" });
const products = multiplyCatalog(real, SIZE, 42);
const queries = ((await Bun.file(QUERIES_FILE).json()) as { query: string }[]).map((q) => q.query.trim()).filter(Boolean);
const server = await startTestServer();
const admin = { "x-service-store-id": server.storeId, "x-service-api-key": server.keys.admin };
const search = { "x-service-store-id": server.storeId, "x-service-api-key": server.keys.search };

try {
  await indexOver(server.url, admin, products, 2000);
  holdEnrichment(join(server.dataDir, "service.db"), Date.now() + 3_600_000);
  // Learned meaning trains on its own thread after a bulk: its allocations would be counted with the requests'.
  await settled(process.pid, { maxMs: 600_000 });
  const step = Math.max(1, Math.floor(products.length / 500));
  const paths: Record<string, (i: number) => string> = {
    search: (i) =>
      `search?${new URLSearchParams({ query: queries[i % queries.length]!, returnFacets: "true", ...(SORTS[i % SORTS.length] ? { sortBy: SORTS[i % SORTS.length]! } : {}) })}`,
    similarity: (i) => `similarity?${new URLSearchParams({ productId: products[(i * step) % products.length]!.id })}`,
    ctl: (i) => `ctl?${new URLSearchParams({ productId: products[(i * step) % products.length]!.id })}`,
  };
  for (const [kind, path] of Object.entries(paths)) {
    const urls = Array.from({ length: REQUESTS }, (_, i) => `${server.url}/1.9/${path(i)}`);
    // Warm: models built, code compiled, caches filled by other requests than the ones counted.
    await sendFromChild(urls.map((u) => u.replace(/productId=[^&]+/, `productId=${encodeURIComponent(products[1]!.id)}`)));
    await sendFromChild(urls.slice(0, 20));
    Bun.gc(true);
    const before = heapStats();
    await sendFromChild(urls);
    const after = heapStats();
    const shrank = Object.entries(before.objectTypeCounts).some(([t, n]) => (after.objectTypeCounts[t] ?? 0) < n);
    console.log(`\n${kind}: ${REQUESTS} requests, cells allocated${shrank ? " (a collection ran meanwhile: counts are low)" : ""}`);
    const added = Object.entries(after.objectTypeCounts)
      .map(([type, n]) => [type, (n - (before.objectTypeCounts[type] ?? 0)) / REQUESTS] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, TOP);
    for (const [type, n] of added) console.log(`  ${type.padEnd(28)} ${n.toFixed(0).padStart(8)} per request`);
  }
} finally {
  await server.stop();
}

/** Sends the GETs one at a time from another process and waits for it: this process only serves meanwhile. */
async function sendFromChild(urls: string[]): Promise<void> {
  const script = `const [h, ...urls] = JSON.parse(await Bun.stdin.text()); for (const u of urls) { const r = await fetch(u, { headers: h }); await r.arrayBuffer(); if (!r.ok) { console.error(u, r.status); process.exit(1); } }`;
  const child = Bun.spawn([process.execPath, "-e", script], { stdin: "pipe", stdout: "inherit", stderr: "inherit" });
  child.stdin.write(JSON.stringify([search, ...urls]));
  await child.stdin.end();
  if ((await child.exited) !== 0) throw new Error("the client process failed");
}
