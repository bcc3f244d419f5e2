import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsearchVectors } from "../src/engine/sqlite/usearch-vectors.ts";
import { cosine, type StoredVector } from "../src/engine/vectors/vector-index.ts";
import { percentile } from "./latency-load.ts";

/*
 * Hybrid search's nearest-neighbour lookups on the embedded engine (usearch over SQLite, engine/sqlite/usearch-
 * vectors.ts) beside the baseline a small store could use instead, an exact scan of every vector in memory: time per
 * lookup (p50, p99), recall of the exact ten nearest, writing and loading time, and the size of the graph (what it
 * holds in memory) and of the file.
 * The vectors are clustered like a catalog's (products of one type near each other), not uniform noise.
 * `bun server/bench/vector-bench.ts [products] [dimensions]` (default 20,000 and 1,536: OpenAI's small model).
 */

const N = Number(process.argv[2] ?? 20_000);
const D = Number(process.argv[3] ?? 1536);
const QUERIES = 300;
const CLUSTERS = 200;

/** A deterministic pseudo-random stream, so runs compare. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}

const next = random(37);
const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: D }, next));
const near = (centre: Float32Array, spread: number) => Float32Array.from(centre, (x) => x + spread * next());
const vectors: StoredVector[] = Array.from({ length: N }, (_, i) => ({
  id: `p${i}`,
  hash: "h",
  vector: near(centres[i % CLUSTERS]!, 0.6),
}));
const queries = Array.from({ length: QUERIES }, (_, i) => near(centres[(i * 7) % CLUSTERS]!, 0.8));

const dataDir = mkdtempSync(join(tmpdir(), "vector-bench-"));

try {
  let t = performance.now();
  const index = new UsearchVectors({ dataDir, synchronous: "NORMAL" });
  for (let i = 0; i < N; i += 1000) await index.put("bench", vectors.slice(i, i + 1000));
  const writeMs = performance.now() - t;
  await index.close();

  // close() saved the graph beside the file: a restart loads it instead of rebuilding it.
  t = performance.now();
  const reopened = new UsearchVectors({ dataDir, synchronous: "NORMAL" });
  await reopened.nearest("bench", queries[0]!, 1);
  const loadMs = performance.now() - t;

  const exact = (q: Float32Array) =>
    vectors
      .map((v) => ({ id: v.id, similarity: cosine(q, v.vector) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 10);
  const scanTimes: number[] = [];
  const annTimes: number[] = [];
  let recalled = 0;
  for (const q of queries) {
    let s = performance.now();
    const truth = exact(q);
    scanTimes.push(performance.now() - s);
    s = performance.now();
    const found = await reopened.nearest("bench", q, 10);
    annTimes.push(performance.now() - s);
    const ids = new Set(found.map((f) => f.id));
    recalled += truth.filter((x) => ids.has(x.id)).length;
  }
  await reopened.close();

  const row = (name: string, times: number[], recall: string) =>
    `| ${name} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} | ${recall} |`;
  console.log(`\nvector-bench: ${N.toLocaleString("en")} products, ${D} dimensions, ${QUERIES} queries (10 nearest)\n`);
  console.log("| lookup | p50 ms | p99 ms | recall@10 |\n|---|---:|---:|---:|");
  console.log(row("exact scan in memory (baseline)", scanTimes, "1.00"));
  console.log(row("usearch HNSW (ours)", annTimes, (recalled / (QUERIES * 10)).toFixed(3)));
  console.log(`\np50 ratio (baseline / ours): ${(percentile(scanTimes, 50) / percentile(annTimes, 50)).toFixed(1)}x`);
  console.log(
    `writing ${N.toLocaleString("en")} vectors: ${(writeMs / 1000).toFixed(1)} s (${Math.round(N / (writeMs / 1000)).toLocaleString("en")}/s); loading them after a restart: ${(loadMs / 1000).toFixed(2)} s`,
  );
  const mb = (path: string) => (statSync(join(dataDir, "vectors", path)).size / 2 ** 20).toFixed(0);
  console.log(
    `the graph (held in memory, saved beside the file): ${mb("bench.usearch")} MB; the SQLite file (float32 vectors): ${mb("bench.sqlite")} MB`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
