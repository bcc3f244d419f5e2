/*
 * Product pages' answers written out (not a test, and it measures nothing): the real server as a child process
 * over HTTP, N products (the demo's real ones, multiplied beyond them: catalog-multiplier.ts) indexed with their
 * enrichment held, then GET /similarity and GET /ctl for --sources products spread over the catalog, each without
 * a variant and with its first variation, one line per answer as the server sent it. Two versions' files compared
 * byte for byte (cmp) show whether a change moved any answer.
 *
 *   bun server/bench/product-page-answers.ts --out <file> [--size 50000] [--sources 2000] [--seed 42]
 */
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { DEMO_KEYS, spawnDrainedServer } from "../test/support/child-server.ts";
import { indexOver } from "../test/support/indexed-child-server.ts";
import { numberArg, stringArg } from "./bench-args.ts";
import { multiplyCatalog } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";

const SIZE = numberArg("--size", 50_000);
const SOURCES = numberArg("--sources", 2000);
const SEED = numberArg("--seed", 42);
const OUT = stringArg("--out", "");
if (!OUT) throw new Error("--out <file> is required");

const real = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
const products = multiplyCatalog(real, SIZE, SEED);
const dataDir = mkdtempSync(join(tmpdir(), "sfs-product-page-answers-"));
const server = await spawnDrainedServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error" }, 30_000);
const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
const search = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY };
try {
  // Held before the first bulk: an image stage that ran for some products in one run and not in the other would
  // change the colours the models compare.
  await indexOver(server.url, { ...admin, "content-type": "application/json" }, products.slice(0, 1), 1);
  holdEnrichment(join(dataDir, "service.db"), Date.now() + 3_600_000);
  await indexOver(server.url, { ...admin, "content-type": "application/json" }, products, 2000);
  holdEnrichment(join(dataDir, "service.db"), Date.now() + 3_600_000);
  const file = openSync(OUT, "w");
  const step = Math.max(1, Math.floor(products.length / SOURCES));
  let written = 0;
  for (let i = 0; i < products.length && written < SOURCES * 4; i += step) {
    const p = products[i]!;
    for (const path of ["similarity", "ctl"]) {
      const first = p.variations?.[0]?.id;
      for (const variantId of first ? [undefined, first] : [undefined]) {
        const query = new URLSearchParams({ productId: p.id, ...(variantId ? { variantId } : {}) });
        const res = await fetch(`${server.url}/1.9/${path}?${query}`, { headers: search });
        writeSync(file, `${path} ${query} ${res.status} ${await res.text()}\n`);
        written++;
      }
    }
  }
  closeSync(file);
  console.log(`${written.toLocaleString("en")} answers written to ${OUT}`);
} finally {
  server.proc.kill();
  await server.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
