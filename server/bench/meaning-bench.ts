/*
 * The learned meaning (issue 37) on the whole demo catalog: training time on one thread (the meaning thread's work:
 * the catalog's products and the shipped query log's categories as evidence), the vectors' size, and what recovering
 * a search costs, against the search itself: the real queries of the log, each as the engine answers it with the
 * request the service builds (the baseline), and the recovery's nearest-product lookup for each. Budgets: training
 * ≤ 30 s, vectors ≤ 30 MB, recovery ≤ 5 ms added at p99.
 *
 *   bun server/bench/meaning-bench.ts
 */
import { rmSync } from "node:fs";
import { toEngineDocument } from "../src/modules/catalog/engine-document.ts";
import type { Product } from "../src/modules/catalog/product-schema.ts";
import { addProductWords } from "../src/modules/meaning/meaning-evidence.ts";
import { MeaningModel } from "../src/modules/meaning/meaning-model.ts";
import { trainSpace } from "../src/modules/meaning/semantic-space.ts";
import { TrainingEvidence } from "../src/modules/meaning/training-evidence.ts";
import { QueryVocabularies } from "../src/modules/search/query-vocabulary.ts";
import { understoodRequest } from "../src/modules/search/understood-query.ts";
import { SqliteEngine } from "../src/engine/sqlite/sqlite-engine.ts";
import { tokenize } from "../src/text/normalize.ts";
import { demoDataDir } from "../eval/catalog.ts";
import { realQueryLog } from "../eval/judgments.ts";
import { demoProducts } from "../test/support/demo-products.ts";
import { tempDir } from "../test/support/test-server.ts";

const ROUNDS = 5;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))] ?? 0;

const products: Product[] = demoProducts(100_000);
const log = realQueryLog(demoDataDir());
const evidence = new TrainingEvidence();
for (const p of products) {
  addProductWords(evidence, p);
  evidence.end(p.id);
}
for (const q of log) {
  if (!q.categories.length) continue;
  for (const t of tokenize(q.query)) evidence.add(t, 2);
  for (const c of q.categories) for (const t of tokenize(c)) evidence.add(t, 1);
  evidence.end();
}

const t = performance.now();
const space = trainSpace(evidence);
const trainMs = performance.now() - t;
const model = new MeaningModel(space, Date.now());

// The baseline: the engine's answer to each real query with the request the service builds.
const dir = tempDir("sfs-meaning-bench-");
const engine = new SqliteEngine({ dataDir: dir, synchronous: "NORMAL" });
const ranking = { ratingPrior: { mean: 0.7, weight: 10 }, purchases: 0 };
for (let i = 0; i < products.length; i += 2000)
  await engine.upsert(
    "bench",
    products.slice(i, i + 2000).map((p) => toEngineDocument(p, 1, ranking)),
  );
const vocabularies = new QueryVocabularies(engine, Date.now);
const base = (text: string) => ({
  text,
  matching: { typos: false, prefixLast: false },
  filters: [],
  facets: ["designer", "gender", "color", "category.lvl0"],
  rangeFacets: [],
  sort: [{ kind: "relevance" as const }],
  offset: 0,
  limit: 30,
});
const requests = await Promise.all(log.map((q) => understoodRequest(engine, vocabularies, "bench", base(q.query))));
const searchMs: number[] = [];
const recoveryMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, q] of log.entries()) {
    let s = performance.now();
    await engine.search("bench", requests[i]!);
    searchMs.push(performance.now() - s);
    s = performance.now();
    const vector = model.queryVector(q.query);
    if (vector) model.nearestProducts(vector, 100, 0.4);
    recoveryMs.push(performance.now() - s);
  }
}
await engine.close();
rmSync(dir, { recursive: true, force: true });

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
console.log(
  `\n## Learned meaning: ${products.length.toLocaleString("en")} products, ${(evidence.documents - products.length).toLocaleString("en")} imported queries with categories\n`,
);
console.log("| figure | value | budget |");
console.log("| --- | ---: | ---: |");
console.log(`| training on one thread | ${(trainMs / 1000).toFixed(1)} s | 30 s |`);
console.log(
  `| vectors (${space.words.length.toLocaleString("en")} words, ${space.productIds.length.toLocaleString("en")} products, ${space.dimensions} dimensions) | ${mb(model.size.bytes)} MB | 30 MB |`,
);
console.log(
  `| search p50 / p99, the log's ${log.length} queries × ${ROUNDS} (baseline) | ${percentile(searchMs, 0.5).toFixed(2)} / ${percentile(searchMs, 0.99).toFixed(2)} ms | |`,
);
console.log(
  `| recovery lookup p50 / p99 | ${percentile(recoveryMs, 0.5).toFixed(2)} / ${percentile(recoveryMs, 0.99).toFixed(2)} ms | 5 ms at p99 |`,
);
console.log(`| recovery p99 ÷ search p99 | ${(percentile(recoveryMs, 0.99) / percentile(searchMs, 0.99)).toFixed(2)} | |`);
