/*
 * Similar products' cost by how many products a source is compared with (not a test: it prints, it does not
 * assert). SimilarityIndex alone, in this process, over the demo's real products multiplied with seeded
 * variations (catalog-multiplier.ts): `similar()` for --sources products spread over the catalog, each timed
 * --rounds times after one warm-up answer each, grouped by the source's candidate count (the products of the
 * category level it is compared with: its leaf, widened while that holds too few).
 *
 *   bun server/bench/similar-tail-bench.ts [--size 300000] [--sources 500] [--rounds 3] [--seed 42]
 *        [--module <path>] [--compare <path>] [--answers <file> [--answers-from N]]
 *
 *   --module   the similarity-index.ts measured (default: the repository's own), e.g. an earlier version written
 *              out with `git show <commit>:server/src/modules/similarity/similarity-index.ts` and its relative
 *              imports made absolute.
 *   --compare  a second similarity-index.ts, built from the same products and timed in turns with the first (which
 *              goes first alternates by source), so that the machine's swings hit both alike.
 *   --answers  writes the answer of every product, and of its first variation, one JSON line each, and measures
 *              nothing: two versions' files compared byte for byte show whether a change moved any answer.
 *              --answers-from N answers the products from the N-th on only.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import type { SimilarityIndex } from "../src/modules/similarity/similarity-index.ts";
import { numberArg, stringArg } from "./bench-args.ts";
import { multipliedProducts } from "./catalog-multiplier.ts";
import { percentile } from "./latency-load.ts";

const SIZE = numberArg("--size", 300_000);
const SOURCES = numberArg("--sources", 500);
const ROUNDS = numberArg("--rounds", 3);
const SEED = numberArg("--seed", 42);
const MODULE = stringArg("--module", fileURLToPath(new URL("../src/modules/similarity/similarity-index.ts", import.meta.url)));
const COMPARE = stringArg("--compare", "");
const ANSWERS = stringArg("--answers", "");
/** With --answers, the products answered start here (the multiplied copies start past the real products). */
const ANSWERS_FROM = numberArg("--answers-from", 0);
/** Mirrors the model's widening: a level is compared with once it holds more than this many products. */
const ENOUGH_CANDIDATES = 200;
const BUCKETS = [1000, 5000, 20_000, Infinity];

type Index = Pick<SimilarityIndex, "put" | "similar">;

const indexClass = async (path: string): Promise<new () => Index> => (await import(resolve(path))).SimilarityIndex as new () => Index;

interface Source {
  id: string;
  variantId?: string;
  paths: string[];
}

const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

async function main(): Promise<void> {
  const classes = [await indexClass(MODULE), ...(COMPARE ? [await indexClass(COMPARE)] : [])];
  const names = ["module", ...(COMPARE ? ["compare"] : [])];
  const real = loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
  const indexes = classes.map((C) => new C());
  const perPath = new Map<string, number>();
  const sources: Source[] = [];
  const step = ANSWERS ? 1 : Math.max(1, Math.floor(SIZE / SOURCES));
  let made = 0;
  const buildStarted = performance.now();
  for (const p of multipliedProducts(real, SIZE, SEED)) {
    const paths: string[] = [];
    for (const category of p.categories ?? []) paths.push(paths.length ? `${paths.at(-1)} > ${category}` : category);
    for (const path of paths) perPath.set(path, (perPath.get(path) ?? 0) + 1);
    if (made++ % step === 0 && made > ANSWERS_FROM) sources.push({ id: p.id, variantId: p.variations?.[0]?.id, paths });
    for (const index of indexes) index.put(p);
  }
  console.log(`${made.toLocaleString("en")} products indexed in ${((performance.now() - buildStarted) / 1000).toFixed(1)} s`);

  if (ANSWERS) {
    // Written as they come: a catalog's answers run to gigabytes, past the longest string the runtime makes.
    const file = openSync(ANSWERS, "w");
    let written = 0;
    for (const s of sources) {
      writeSync(file, `${JSON.stringify([s.id, indexes[0]!.similar(s.id)])}\n`);
      if (s.variantId) writeSync(file, `${JSON.stringify([s.id, s.variantId, indexes[0]!.similar(s.id, s.variantId)])}\n`);
      written += s.variantId ? 2 : 1;
    }
    closeSync(file);
    console.log(`${written.toLocaleString("en")} answers written to ${ANSWERS}`);
    return;
  }

  const candidates = (s: Source) => {
    for (let level = s.paths.length - 1; level >= 0; level--) {
      const n = perPath.get(s.paths[level]!)!;
      if (n > ENOUGH_CANDIDATES || level === 0) return n;
    }
    return made;
  };
  for (const s of sources) for (const index of indexes) index.similar(s.id);
  const samples = indexes.map(() => BUCKETS.map(() => ({ wall: [] as number[], cpuMs: 0 })));
  for (let round = 0; round < ROUNDS; round++) {
    sources.forEach((s, i) => {
      const bucket = BUCKETS.findIndex((limit) => candidates(s) <= limit);
      const order = indexes.map((_, k) => k);
      if ((i + round) % 2) order.reverse();
      for (const k of order) {
        const cpu = process.cpuUsage();
        const started = performance.now();
        indexes[k]!.similar(s.id);
        const wall = performance.now() - started;
        const used = process.cpuUsage(cpu);
        samples[k]![bucket]!.wall.push(wall);
        samples[k]![bucket]!.cpuMs += (used.user + used.system) / 1000;
      }
    });
  }
  console.log(`\n### similar() at ${made.toLocaleString("en")} products: ${sources.length} sources × ${ROUNDS} rounds, 1 at a time\n`);
  console.log(`the most candidates of a source: ${Math.max(...sources.map(candidates)).toLocaleString("en")}`);
  console.log(`module: ${MODULE}${COMPARE ? `\ncompare: ${COMPARE}` : ""}\n`);
  console.log("| module | candidates | answers | p50 ms | p99 ms | max ms | CPU ms per answer |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  samples.forEach((buckets, k) => {
    const all = buckets.flatMap((b) => b.wall);
    const cpu = buckets.reduce((sum, b) => sum + b.cpuMs, 0);
    const rows = buckets.map((b, j) => ({
      label: BUCKETS[j] === Infinity ? `> ${BUCKETS[j - 1]!.toLocaleString("en")}` : `≤ ${BUCKETS[j]!.toLocaleString("en")}`,
      ...b,
    }));
    for (const row of [...rows, { label: "all", wall: all, cpuMs: cpu }]) {
      if (!row.wall.length) continue;
      const max = row.wall.reduce((a, b) => Math.max(a, b), 0);
      console.log(
        `| ${names[k]} | ${row.label} | ${row.wall.length} | ${ms(percentile(row.wall, 50))} | ${ms(percentile(row.wall, 99))} | ${ms(max)} | ${ms(row.cpuMs / row.wall.length)} |`,
      );
    }
  });
}

await main();
