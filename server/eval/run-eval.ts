/*
 * `npm run eval`: relevance of our search against the libraries a developer could embed instead, on the same
 * demo products and the same judged queries, in one run. Prints Markdown tables: nDCG@10, P@10 and zero-result
 * rate per query family (rows) and system (columns), typo recovery, the zero-result rate on the real query log,
 * index and query times. How the queries are judged: judgments.ts; the metrics: metrics.ts.
 *
 * The peers and their configuration (each what a competent developer would pick from the library's own docs):
 *   bm25 AND / OR  SQLite FTS5, unicode61 remove_diacritics 2, bm25() with equal column weights (systems/bm25.ts)
 *   minisearch     MiniSearch 7: prefix, fuzzy 0.2, OR, boosts name 3, brand 2, categories 2 (systems/minisearch.ts)
 *   orama          Orama 3: tolerance 1, same boosts, default threshold and tokenizer (systems/orama.ts)
 * Every peer indexes name, brand, categories and description; ours gets the whole Product through its API.
 *
 *   bun server/eval/run-eval.ts [--products N]   (default 20,000)
 */
import { buildJudgedSet, FAMILIES, realQueryLog } from "./judgments.ts";
import { demoDataDir, EVAL_PRODUCTS, evalProducts } from "./catalog.ts";
import { runSystem, summarize, type Figures, type Summary } from "./evaluate.ts";
import { PlainBm25 } from "./systems/bm25.ts";
import { MiniSearchSystem } from "./systems/minisearch.ts";
import { OramaSystem } from "./systems/orama.ts";
import { OurEngine } from "./systems/ours.ts";
import type { SearchSystem } from "./systems/system.ts";

const at = process.argv.indexOf("--products");
const size = at >= 0 ? Number(process.argv[at + 1]) : EVAL_PRODUCTS;
if (!Number.isInteger(size) || size <= 0) throw new Error("--products must be a positive integer");

const started = performance.now();
const products = evalProducts(size);
const judged = buildJudgedSet(products);
const real = realQueryLog(demoDataDir());
console.log(
  `${products.length.toLocaleString("en")} demo products (${judged.unjudged} without an article type we can tell), ` +
    `${judged.queries.length} judged queries, ${real.length} real queries; loaded in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
);

const systems: SearchSystem[] = [new OurEngine(), new PlainBm25("AND"), new PlainBm25("OR"), new MiniSearchSystem(), new OramaSystem()];
const summaries: Array<{ name: string; config: string; indexMs: number; summary: Summary; queryMs: number[] }> = [];
for (const system of systems) {
  try {
    const run = await runSystem(system, products, judged.queries, real);
    const queryMs = [...run.judged, ...run.real].map((r) => r.ms);
    summaries.push({ name: run.name, config: run.config, indexMs: run.indexMs, summary: summarize(run), queryMs });
    console.error(`${system.name}: done`);
  } finally {
    await system.close();
  }
}

const f2 = (n: number) => n.toFixed(2);
const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
const row = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
const names = summaries.map((s) => s.name);
const peers = summaries.filter((s) => s.name !== "ours");

function table(title: string, metric: (f: Figures) => number, format: (n: number) => string, withRatio: boolean) {
  console.log(`### ${title}\n`);
  console.log(row(["family", "queries", ...names, ...(withRatio ? ["ours ÷ best peer"] : [])]));
  console.log(row(["---", "---:", ...names.map(() => "---:"), ...(withRatio ? ["---:"] : [])]));
  const line = (label: string, get: (s: Summary) => Figures | undefined) => {
    const values = summaries.map((s) => get(s.summary));
    const ours = get(summaries[0]!.summary);
    const best = Math.max(...peers.map((s) => metric(get(s.summary)!)));
    const ratio = withRatio && ours ? [best === 0 ? "–" : f2(metric(ours) / best)] : [];
    console.log(row([label, values[0]?.n ?? 0, ...values.map((v) => (v ? format(metric(v)) : "–")), ...ratio]));
  };
  for (const family of FAMILIES) line(family, (s) => s.byFamily.get(family));
  line("**overall**", (s) => s.overall);
  console.log("");
}

table("nDCG@10 (graded 0–3)", (f) => f.ndcg, f2, true);
table("Precision@10 (grade 3)", (f) => f.precision, f2, false);
table("Zero-result rate (judged queries)", (f) => f.zeroRate, pct, false);

console.log("### Match sets of the type queries (whole result, and its first page sorted by price ascending)\n");
console.log(row(["", ...names]));
console.log(row(["---", ...names.map(() => "---:")]));
console.log(row(["share of the whole result of the asked type", ...summaries.map((s) => f2(s.summary.matchSet.precision))]));
console.log(row(["share of the first page by price, ascending", ...summaries.map((s) => f2(s.summary.matchSet.cheapestPrecision))]));
console.log(row(["products per result (mean)", ...summaries.map((s) => s.summary.matchSet.total.toFixed(0))]));
console.log("");

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? 0;
console.log("### Typo recovery, real queries, time\n");
console.log(row(["", ...names]));
console.log(row(["---", ...names.map(() => "---:")]));
console.log(row(["typo recovery (nDCG typo ÷ nDCG spelled right)", ...summaries.map((s) => f2(s.summary.typoRecovery))]));
console.log(row([`zero results, ${real.length} real queries`, ...summaries.map((s) => pct(s.summary.realZeroRate))]));
console.log(
  row([
    "recovered by meaning (real queries), and of the logged category",
    ...summaries.map((s) =>
      s.summary.recovered.queries.length ? `${s.summary.recovered.queries.length}, ${pct(s.summary.recovered.relevantShare)}` : "–",
    ),
  ]),
);
console.log(row(["index time (s)", ...summaries.map((s) => (s.indexMs / 1000).toFixed(1))]));
console.log(
  row([
    "query p50 / p99 (ms)",
    ...summaries.map((s) => `${percentile(s.queryMs, 0.5).toFixed(1)} / ${percentile(s.queryMs, 0.99).toFixed(1)}`),
  ]),
);
console.log(row(["slowest query (ms)", ...summaries.map((s) => `${s.summary.slowest.ms.toFixed(0)} "${s.summary.slowest.query}"`)]));
console.log(row(["queries over 2 s", ...summaries.map((s) => s.queryMs.filter((ms) => ms > 2000).length)]));
console.log("\nConfigurations:");
for (const s of summaries) console.log(`- ${s.name}: ${s.config}`);
console.log(
  `\nReal queries ours finds nothing for: ${summaries[0]!.summary.realZeroQueries.map((q) => JSON.stringify(q)).join(", ") || "none"}`,
);
console.log(
  `Real queries ours answers by meaning: ${summaries[0]!.summary.recovered.queries.map((q) => JSON.stringify(q)).join(", ") || "none"}`,
);
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(0)} s`);
