/*
 * Compression benchmark (not a test): what zstd, gzip and brotli cost on a real search answer (the demo catalog,
 * 30 products with facets), to choose the levels in server/src/http/compression.ts.
 *
 *   codec  each level on the answer's bytes: milliseconds per answer, size, and the time as a ratio to
 *          serializing the same answer as the server does (what every answer costs already), measured in the
 *          same run; plain JSON.stringify beside it, which leaves its fast path on the answer's wide characters;
 *          the dynamic levels also on 1 MiB of catalog JSON (the largest body compressed per request).
 *   HTTP   GET /search requests/s on the real server (child process) with Accept-Encoding identity, gzip, br
 *          and zstd, as ratios to identity and to GET /health measured on the same server in the same rounds.
 *
 *   bun server/bench/compression-bench.ts [--limit N] [--seconds S] [--rounds R]
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { MAX_DYNAMIC_COMPRESS_BYTES } from "../src/http/compression.ts";
import { stringifyOnFastPath } from "../src/http/fast-json.ts";
import { DEMO_KEYS } from "../test/support/child-server.ts";
import { startIndexedServer } from "../test/support/indexed-child-server.ts";
import { measureRate } from "./load.ts";
import { numberArg } from "./bench-args.ts";

const SECONDS = numberArg("--seconds", 3);
const ROUNDS = numberArg("--rounds", 3);
const LIMIT = numberArg("--limit", 3000);
const CONCURRENCY = 8;
const SEARCH = "/1.9/search?query=shirt&returnFacets=true&pageSize=30";

/** Median milliseconds of `fn` over enough runs to fill about half a second (at least 3). */
function timeMs(fn: () => unknown): number {
  const samples: number[] = [];
  const until = performance.now() + 500;
  while (samples.length < 3 || (performance.now() < until && samples.length < 2000)) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return samples.sort((a, b) => a - b)[samples.length >> 1]!;
}

const brotli = (quality: number) => (body: Uint8Array) =>
  brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: quality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
const gzip = (level: 1 | 2 | 6 | 9) => (body: Uint8Array) => gzipSync(body, { level });
const zstd = (level: number) => (body: Uint8Array) => Bun.zstdCompressSync(body, { level });
const CODECS: [string, (body: Uint8Array) => Uint8Array][] = [
  ["zstd 1 (dynamic)", zstd(1)],
  ["zstd 3", zstd(3)],
  ["zstd 19 (static)", zstd(19)],
  ["gzip 1", gzip(1)],
  ["gzip 2 (dynamic)", gzip(2)],
  ["gzip 6", gzip(6)],
  ["gzip 9 (static)", gzip(9)],
  ["brotli 1 (dynamic)", brotli(1)],
  ["brotli 4", brotli(4)],
  ["brotli 5", brotli(5)],
  ["brotli 6", brotli(6)],
  ["brotli 9", brotli(9)],
  ["brotli 11 (static)", brotli(11)],
];

const catalog = loadDemoCatalog({
  dataDir: loadConfig(process.env).demoCatalog.dir,
  baseUrl: "http://localhost:8080",
  limit: LIMIT || undefined,
});
const server = await startIndexedServer(catalog);
const headers = (key: string, extra: Record<string, string> = {}) => ({
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": key,
  "content-type": "application/json",
  ...extra,
});
const fmt = (n: number, digits = 0) => n.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });

try {
  const answer = await (
    await fetch(server.url + SEARCH, { headers: headers(DEMO_KEYS.DEMO_SEARCH_KEY, { "accept-encoding": "identity" }) })
  ).json();
  const body = new TextEncoder().encode(JSON.stringify(answer));
  const stringifyMs = timeMs(() => stringifyOnFastPath(answer));
  const plainStringifyMs = timeMs(() => JSON.stringify(answer));
  // Distinct text, as a large page of events or products would be: repeating the answer would flatter the codecs.
  const big = new TextEncoder().encode(JSON.stringify(catalog)).subarray(0, MAX_DYNAMIC_COMPRESS_BYTES);

  console.log(
    `\nCompression benchmark: one search answer of ${fmt(body.length / 1024, 1)} KB (${SEARCH}, ${fmt(catalog.length)} demo products)`,
  );
  console.log(
    `serialized as the server serializes answers (stringifyOnFastPath): ${stringifyMs.toFixed(3)} ms (the baseline); ` +
      `plain JSON.stringify: ${plainStringifyMs.toFixed(3)} ms (${(plainStringifyMs / stringifyMs).toFixed(1)}×)\n`,
  );
  console.log("| codec | ms per answer | ratio to serializing | size | share of original | ms per MiB |\n|---|---|---|---|---|---|");
  for (const [name, codec] of CODECS) {
    const size = codec(body).length;
    const ms = timeMs(() => codec(body));
    const perMiB = name.includes("dynamic") ? timeMs(() => codec(big)).toFixed(1) : "";
    console.log(
      `| ${name} | ${ms.toFixed(3)} | ${(ms / stringifyMs).toFixed(1)} | ${fmt(size / 1024, 1)} KB | ${fmt((100 * size) / body.length, 1)} % | ${perMiB} |`,
    );
  }

  // Rounds alternate the encodings, and each row is its median round, so drift in the machine's load (other
  // processes on 2 cores) spreads over every row instead of landing on one.
  const ENCODINGS = ["identity", "gzip", "br", "zstd"] as const;
  const rates = new Map<string, number[]>([["health", []], ...ENCODINGS.map((e) => [e, []] as [string, number[]])]);
  const sent = new Map<string, number>();
  for (let round = 0; round < ROUNDS; round++) {
    rates.get("health")!.push((await measureRate(SECONDS, CONCURRENCY, () => fetch(server.url + "/health"))).perSecond);
    for (const encoding of ENCODINGS) {
      const h = headers(DEMO_KEYS.DEMO_SEARCH_KEY, { "accept-encoding": encoding });
      sent.set(encoding, (await (await fetch(server.url + SEARCH, { headers: h, decompress: false })).arrayBuffer()).byteLength);
      const run = await measureRate(SECONDS, CONCURRENCY, () => fetch(server.url + SEARCH, { headers: h, decompress: false }));
      if (run.failures) throw new Error(`${run.failures} searches failed`);
      rates.get(encoding)!.push(run.perSecond);
    }
  }
  const median = (key: string) => rates.get(key)!.sort((a, b) => a - b)[ROUNDS >> 1]!;
  console.log(
    `\nHTTP, median of ${ROUNDS} rounds of ${SECONDS} s, ${CONCURRENCY} requests in flight (the client reads the bytes, does not decode them)\n`,
  );
  console.log("| GET /search with Accept-Encoding | req/s | ratio to identity | ratio to /health | bytes sent |\n|---|---|---|---|---|");
  for (const encoding of ENCODINGS) {
    const rate = median(encoding);
    console.log(
      `| ${encoding} | ${fmt(rate)} | ${(rate / median("identity")).toFixed(2)} | ${(rate / median("health")).toFixed(2)} | ${fmt(sent.get(encoding)!)} |`,
    );
  }
  console.log(`| (GET /health) | ${fmt(median("health"))} | | 1.00 | |`);
} finally {
  await server.stop();
}
