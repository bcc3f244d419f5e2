/*
 * Learned meaning's training alone (not a test: it prints, it does not assert): N products (the demo's real ones,
 * multiplied: catalog-multiplier.ts) are committed to a SQLite state in a temp dir, then a child process does what
 * the meaning thread does (threads/meaning-thread-main.ts: gather the evidence through a read-only connection, train
 * the space) and prints its peak RSS (VmHWM, reset at its start), its RSS and heap after each step, and a hash of
 * every trained vector, so that two commits' spaces can be compared to the bit.
 *
 *   bun server/bench/meaning-training-bench.ts [--size 50000] [--seed 42]
 */
import { heapStats } from "bun:jsc";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { connectState } from "../src/composition/service-state.ts";
import { SqliteStoresRepo } from "../src/modules/stores/storage/stores.sqlite.ts";
import { SqliteTasksRepo } from "../src/modules/indexing/storage/tasks.sqlite.ts";
import { gatherEvidence } from "../src/modules/meaning/meaning-evidence.ts";
import { trainSpace } from "../src/modules/meaning/semantic-space.ts";
import { openServiceDatabase } from "../src/platform/sqlite/connection.ts";
import { tempDir } from "../test/support/test-server.ts";
import { stringArg } from "./bench-args.ts";
import { multipliedProducts } from "./catalog-multiplier.ts";

const SIZE = Number(stringArg("--size", "50000"));
const SEED = Number(stringArg("--seed", "42"));
const CHILD = stringArg("--child", "");
const STORE = "bench";
const MiB = 1024 * 1024;

const status = (field: string) => Number(/(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8").split(`${field}:`)[1]!)![1]) * 1024;

function step(name: string, start: number): void {
  const heap = heapStats();
  console.log(
    `${name.padEnd(18)} rss ${((status("VmRSS") - start) / MiB).toFixed(0).padStart(5)} MiB  peak ${((status("VmHWM") - start) / MiB).toFixed(0).padStart(5)} MiB  heap ${(heap.heapSize / MiB).toFixed(0).padStart(5)} MiB  outside ${(heap.extraMemorySize / MiB).toFixed(0).padStart(5)} MiB`,
  );
}

if (CHILD) {
  // What the process holds before the training (runtime, modules) is the baseline every figure is above.
  Bun.gc(true);
  writeFileSync("/proc/self/clear_refs", "5");
  const start = status("VmRSS");
  const state = connectState({ kind: "sqlite", path: CHILD }, { readonly: true, maxConnections: 1 });
  const evidence = await gatherEvidence({ catalog: state.catalog, events: state.events, searchLog: state.searchLog, now: Date.now }, STORE);
  // Collected after each step, as the meaning thread does.
  Bun.gc(true);
  step("evidence", start);
  const space = trainSpace(evidence, (name) => {
    Bun.gc(true);
    step(name, start);
  });
  const hash = createHash("sha256");
  for (const part of [space.wordVectors, space.productVectors, space.centroids, space.clusterStart])
    hash.update(new Uint8Array(part.buffer));
  hash.update(space.words.join("\n")).update(space.productIds.join("\n"));
  console.log(`${space.words.length} words, ${space.productIds.length} products, space ${hash.digest("hex").slice(0, 16)}`);
  await state.close();
} else {
  const dir = tempDir("sfs-meaning-training-");
  try {
    const db = openServiceDatabase(dir, { synchronous: "NORMAL" });
    await new SqliteStoresRepo(db).create(STORE, 1);
    const tasks = new SqliteTasksRepo(db);
    const real = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
    let batch = [];
    for (const p of multipliedProducts(real, SIZE, SEED)) {
      batch.push({ id: p.id, version: 1, contentHash: null, deleted: false, doc: JSON.stringify(p) });
      if (batch.length === 2000) {
        await tasks.commitBatch({ storeId: STORE, at: 1, products: batch, advances: [] });
        batch = [];
      }
    }
    if (batch.length) await tasks.commitBatch({ storeId: STORE, at: 1, products: batch, advances: [] });
    const path = db.filename;
    db.close();
    console.log(`${SIZE} products committed; training in a child process`);
    const child = Bun.spawnSync([process.execPath, import.meta.path, "--child", path], { stdout: "inherit", stderr: "inherit" });
    if (child.exitCode !== 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
