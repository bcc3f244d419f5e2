import { demoProducts } from "./server/test/support/demo-products.ts";
import { productFeatures } from "./server/src/modules/similarity/product-features.ts";
import { SimilarityIndex } from "./server/src/modules/similarity/similarity-index.ts";
const products = demoProducts(50000);
const index = new SimilarityIndex();
for (const p of products) index.put(productFeatures(p));
const sources = products.filter((_, i) => i % 100 === 0).map((p) => p.id);
for (const id of sources.slice(0, 50)) index.similar(id);
const times: number[] = []; const out: string[] = [];
for (const id of sources) { const t = performance.now(); const r = index.similar(id)!; times.push(performance.now() - t); out.push(r.slice(0, 5).map((x) => x.id).join(",")); }
times.sort((a, b) => a - b);
console.log("ranking p50", times[times.length >> 1]!.toFixed(1), "p99", times[Math.floor(times.length * 0.99)]!.toFixed(1), "checksum", Bun.hash(out.join("|")).toString(16));
