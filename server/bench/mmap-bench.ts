/*
 * Mapped reads benchmark (not a test: it prints, it does not assert): what a request gains when SQLite reads the
 * server's files mapped (SQLITE_MMAP_MB) instead of through read(), and what the mapping holds in memory. Two
 * servers hold the same N products (the demo's real ones, multiplied beyond its size: catalog-multiplier.ts),
 * indexed through POST /products with their enrichment held; one as started, one with each setting given. They
 * run at the same time and take turns: each round sends the search mix (every search with facets, sorts
 * rotating), similar products and looks at 1 in flight to each server in turn, the first one changing every
 * round, so that the swings of a shared machine hit every server alike. Prints p50 and p99 by kind over all
 * rounds, then each server's resident and mapped file memory (RSS, RssFile).
 *
 *   bun server/bench/mmap-bench.ts [--size 50000] [--rounds 10] [--round-seconds 3] [--seed 42]
 *                                  [--compare-env SQLITE_MMAP_MB=1024,...]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { startIndexedServer, type IndexedChildServer } from "../test/support/indexed-child-server.ts";
import { stringArg } from "./bench-args.ts";
import { multiplyCatalog } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, percentile } from "./latency-load.ts";
import { buildProductPageModels, latenciesByKind, MIX_KINDS, productMix } from "./product-mix.ts";

const SIZE = Number(stringArg("--size", "50000"));
const ROUNDS = Number(stringArg("--rounds", "10"));
const ROUND_SECONDS = Number(stringArg("--round-seconds", "3"));
const SEED = Number(stringArg("--seed", "42"));
const COMPARE_ENV = stringArg("--compare-env", "SQLITE_MMAP_MB=1024")
  .split(",")
  .filter((e) => e.includes("="));
const DATA_DIR = loadConfig({}).demoCatalog.dir;
const QUERIES_FILE = join(DATA_DIR, "query-suggestions", "fashion-query-suggestions.json");

const log = (text: string) => console.error(`[mmap-bench ${SIZE.toLocaleString("en")}] ${text}`);
const mib = (kb: number) => (kb / 1024).toFixed(0);

/** The server's resident and mapped file memory (KB): its threads are in its process. */
function rssOf(pid: number): { rss: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS"), file: kb("RssFile") };
}

const real = loadDemoCatalog({ dataDir: DATA_DIR, baseUrl: "http://localhost:8080" });
const products = multiplyCatalog(real, SIZE, SEED);
const ids = products.map((p) => p.id);
const queries = ((await Bun.file(QUERIES_FILE).json()) as { query: string }[]).map((q) => q.query.trim()).filter(Boolean);
log(`${products.length.toLocaleString("en")} products (${Math.min(real.length, SIZE).toLocaleString("en")} real)`);

const servers: { label: string; server: IndexedChildServer; samples: Map<string, number[]> }[] = [];
try {
  for (const label of ["as started", ...COMPARE_ENV]) {
    log(`server ${label}: indexing through POST /products`);
    const env = label === "as started" ? {} : Object.fromEntries([label.split("=") as [string, string]]);
    const server = await startIndexedServer(products, env);
    servers.push({ label, server, samples: new Map() });
    // Enrichment would keep a core busy for minutes, unevenly between the servers.
    holdEnrichment(join(server.dataDir, "service.db"), Date.now() + 3_600_000);
    await buildProductPageModels(server.url, server.searchHeaders, ids[0]!);
  }
  for (let round = 0; round < ROUNDS; round++) {
    log(`round ${round + 1} of ${ROUNDS}`);
    for (let k = 0; k < servers.length; k++) {
      const { server, samples } = servers[(round + k) % servers.length]!;
      const run = await measureLatencies(ROUND_SECONDS, 1, productMix(server.url, server.searchHeaders, ids, queries));
      for (const [kind, ms] of latenciesByKind(run)) samples.set(kind, [...(samples.get(kind) ?? []), ...ms]);
    }
  }
  console.log(
    `\nMapped reads: ${SIZE.toLocaleString("en")} products (seed ${SEED}), ${ROUNDS} rounds of ${ROUND_SECONDS} s per server, 1 in flight\n`,
  );
  console.log(`| | ${servers.map((s) => s.label).join(" | ")} |\n|---|${servers.map(() => "---:").join("|")}|`);
  for (const kind of new Set(MIX_KINDS)) {
    const cell = (samples: Map<string, number[]>) => {
      const ms = samples.get(kind) ?? [];
      return `${percentile(ms, 50).toFixed(2)} / ${percentile(ms, 99).toFixed(2)} (${ms.length})`;
    };
    console.log(`| ${kind} p50 / p99 ms (requests) | ${servers.map((s) => cell(s.samples)).join(" | ")} |`);
  }
  const memory = servers.map((s) => rssOf(s.server.proc.pid));
  console.log(`| RSS, MiB (KB per product) | ${memory.map((m) => `${mib(m.rss)} (${(m.rss / SIZE).toFixed(2)})`).join(" | ")} |`);
  console.log(
    `| of which mapped file pages, MiB (KB per product) | ${memory.map((m) => `${mib(m.file)} (${(m.file / SIZE).toFixed(2)})`).join(" | ")} |`,
  );
} finally {
  for (const { server } of servers) await server.stop();
}
