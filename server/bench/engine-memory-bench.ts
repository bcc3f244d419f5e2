/*
 * Embedded engine memory benchmark (not a test: it prints, it does not assert): the heap one store's in-memory
 * index holds at N products (the demo's real products, multiplied with seeded variations: catalog-multiplier.ts),
 * split by the engine's memoryReport() estimates, in two states:
 *
 *   built     after the products were upserted in bulks of 1,000, as the indexing thread writes them;
 *   reopened  a fresh engine over the same file (a restart): how long its first search waited for the store to
 *             load, and the heap it holds once loaded and its typo index built.
 *
 * Heap figures are JavaScriptCore's heap size after a full collection (which holds typed arrays' buffers).
 * memory-bench.ts prints the built figures beside the server's RSS and the other models'.
 *
 *   bun server/bench/engine-memory-bench.ts [--size 50000] [--seed 42]
 */
import { heapStats } from "bun:jsc";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import type { EngineSearchRequest } from "../src/engine/types.ts";
import { toEngineDocument } from "../src/modules/catalog/engine-document.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { stringArg } from "./bench-args.ts";
import { multiplyCatalog } from "./catalog-multiplier.ts";

const RANKING = { ratingPrior: { mean: 0.7, weight: 10 }, purchases: 0 };
const STORE = "bench";
/** The first search after the restart: a text query with facets and a sort. */
const FIRST_SEARCH: EngineSearchRequest = {
  text: "blue dress",
  matching: { typos: true, prefixLast: false },
  filters: [],
  facets: ["*"],
  rangeFacets: [{ field: "price_min", maxBuckets: 5 }],
  sort: [{ kind: "number", field: "price_min", order: "asc" }],
  offset: 0,
  limit: 24,
};

/**
 * JavaScriptCore's heap after a full collection. Its size already holds the buffers of typed arrays (its "extra
 * memory"): adding extraMemorySize to it counted them twice, 0.87 KB per product of the engine's 2.94 at 50,000.
 */
export function heapNow(): number {
  Bun.gc(true);
  return heapStats().heapSize;
}

export interface EngineHeap {
  /** Heap measured around the build. */
  bytes: number;
  /** memoryReport() estimates by structure. */
  report: Record<string, number>;
}

/** Builds the products into a store of an engine over `dataDir`; the heap it holds, measured and estimated. */
export async function engineHeld(engine: SqliteEngine, products: readonly Product[]): Promise<EngineHeap> {
  const before = heapNow();
  for (let i = 0; i < products.length; i += 1000)
    await engine.upsert(
      STORE,
      products.slice(i, i + 1000).map((p) => toEngineDocument(p, 1, RANKING)),
    );
  return { bytes: heapNow() - before, report: await engine.memoryReport(STORE) };
}

/** A fresh engine over a built store's file: ms to its first search, and what it holds once loaded. */
async function reopened(dataDir: string): Promise<EngineHeap & { loadMs: number }> {
  const before = heapNow();
  const engine = new SqliteEngine({ dataDir, synchronous: "NORMAL" });
  try {
    const started = performance.now();
    await engine.search(STORE, FIRST_SEARCH);
    const loadMs = performance.now() - started;
    // A correction finishes the typo index the load left to build in the background.
    await engine.corrections(STORE, "snikers");
    return { loadMs, bytes: heapNow() - before, report: await engine.memoryReport(STORE) };
  } finally {
    await engine.close();
  }
}

/** Rows of structure, KB per product: the estimates, then the measured heap they leave unaccounted. */
export function heapRows(held: EngineHeap, size: number): [string, number][] {
  const rows = Object.entries(held.report).map(([name, bytes]) => [name, bytes / 1024 / size] as [string, number]);
  const estimated = Object.values(held.report).reduce((a, b) => a + b, 0);
  rows.push(["not accounted by the estimates", (held.bytes - estimated) / 1024 / size], ["measured heap", held.bytes / 1024 / size]);
  return rows;
}

if (import.meta.main) {
  const size = Number(stringArg("--size", "50000"));
  const seed = Number(stringArg("--seed", "42"));
  const dataDir = loadConfig({}).demoCatalog.dir;
  const products = multiplyCatalog(loadDemoCatalog({ dataDir, baseUrl: "http://localhost:8080" }), size, seed);
  const dir = mkdtempSync(join(tmpdir(), "sfs-engine-memory-bench-"));
  try {
    const engine = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
    let built: EngineHeap;
    try {
      built = await engineHeld(engine, products);
    } finally {
      await engine.close();
    }
    const again = await reopened(dir);
    const builtRows = heapRows(built, size);
    const againRows = new Map(heapRows(again, size));
    console.log(`\nEmbedded engine at ${size.toLocaleString("en")} products (seed ${seed}): KB per product\n`);
    console.log("| structure | built | reopened |\n|---|---:|---:|");
    for (const [name, kb] of builtRows) console.log(`| ${name} | ${kb.toFixed(3)} | ${(againRows.get(name) ?? 0).toFixed(3)} |`);
    console.log(`\nReopened: first search answered after ${again.loadMs.toFixed(0)} ms (the store's load).`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
