/*
 * What the server spends per search (not a test: it prints, it does not assert): the search mix of search-bench.ts
 * (search-mix.ts) over HTTP at 16 in flight, as searches/s and as CPU milliseconds of the server per search (its
 * serving thread, and the whole process), for two builds of the server taken in turns on the same data.
 *
 * The catalog (catalog-multiplier.ts) is indexed once through POST /products, its enrichment backlog held; then
 * each round starts each build on that data directory in turn (this checkout's, and the one --compare names),
 * waits for it to settle, warms it up under load and measures it, and stops it. With --answers, each build first
 * answers every request of the mix once, on a copy of the data taken before any build searched (searches are
 * logged, and what the log teaches changes answers), and the answers' bodies and headers (less the request id and
 * the date) are written to <dir>/<build>.txt, to be compared byte for byte. With --cpu-prof, one more run of this
 * build under load writes a CPU profile (Bun's --cpu-prof-md) to that directory.
 *
 *   bun server/bench/search-server-bench.ts [--size 50000] [--rounds 2] [--seconds 10] [--warm-seconds 8]
 *        [--compare <other checkout>/server/src/main.ts] [--answers <dir>] [--cpu-prof <dir>] [--keep <data dir>]
 */
import type { SearchResponse } from "@storefront-search/contract";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { chunked } from "../src/lib/chunked.ts";
import { DEMO_KEYS, freePort, MAIN, spawnDrainedServer, type ChildServer } from "../test/support/child-server.ts";
import { UNLIMITED } from "../test/support/test-server.ts";
import { indexBulksOver } from "../test/support/indexed-child-server.ts";
import { numberArg, stringArg } from "./bench-args.ts";
import { multipliedProducts } from "./catalog-multiplier.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, summarize } from "./latency-load.ts";
import { cpuMsOf, settled, threadCpuMs } from "./load.ts";
import { buildMix, factsOfAnswer, querySuggestions, queryTexts, searchParams, type MixItem } from "./search-mix.ts";

const SIZE = numberArg("--size", 50_000);
const ROUNDS = numberArg("--rounds", 2);
const SECONDS = numberArg("--seconds", 10);
const WARM_SECONDS = numberArg("--warm-seconds", 8);
const COMPARE = stringArg("--compare", "");
const ANSWERS = stringArg("--answers", "");
const CPU_PROF = stringArg("--cpu-prof", "");
/** A data directory kept between runs: indexed when it holds no database yet, used as it is otherwise. */
const KEEP = stringArg("--keep", "");
const CONCURRENCY = 16;
const MIX_SIZE = 4000;

const log = (text: string) => console.error(`[search-server-bench ${SIZE}] ${text}`);
const admin = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY };
const searchKey = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY };
/** Headers that differ on every answer by design. */
const VARYING_HEADERS = new Set(["x-request-id", "date"]);

interface Build {
  name: string;
  main: string;
}

/** A build of the server started on `dataDir`, its output dropped. */
async function startBuild(build: Build, dataDir: string, execArgs: string[] = []): Promise<ChildServer> {
  const port = freePort();
  const proc = Bun.spawn([process.execPath, ...execArgs, build.main], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "error", ...UNLIMITED, DATA_DIR: dataDir, ...DEMO_KEYS },
    stdout: "ignore",
    stderr: "ignore",
  });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 600_000; Date.now() < deadline; await Bun.sleep(100)) {
    if (proc.exitCode !== null) throw new Error(`${build.name} exited with ${proc.exitCode}`);
    const ok = await fetch(`${url}/1.9/search?query=shirt`, { headers: searchKey }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, proc };
  }
  proc.kill(9);
  throw new Error(`${build.name} did not answer a search in time`);
}

async function stop(server: ChildServer): Promise<void> {
  server.proc.kill("SIGTERM");
  await server.proc.exited;
}

const searchUrl = (server: ChildServer, item: MixItem) => `${server.url}/1.9/search?${searchParams(item)}`;

/** Every request of the mix once, in order: each answer's status, headers and body. */
async function answersOf(server: ChildServer, mix: readonly MixItem[]): Promise<string> {
  const out: string[] = [];
  for (const item of mix) {
    const res = await fetch(searchUrl(server, item), { headers: { ...searchKey, origin: "https://shop.example" } });
    const headers = [...res.headers].filter(([name]) => !VARYING_HEADERS.has(name)).map(([n, v]) => `${n}: ${v}`);
    out.push(`${searchParams(item)}\n${res.status}\n${headers.join("\n")}\n${await res.text()}\n`);
  }
  return out.join("\n");
}

interface Measured {
  perSecond: number;
  p99: number;
  failures: number;
  /** Server CPU ms per search: its serving thread, and all its threads. */
  mainMs: number;
  processMs: number;
}

async function measure(server: ChildServer, mix: readonly MixItem[], offset: number): Promise<Measured> {
  const pid = server.proc.pid;
  const call = (i: number) => ({ send: () => fetch(searchUrl(server, mix[(offset + i) % mix.length]!), { headers: searchKey }) });
  await measureLatencies(WARM_SECONDS, CONCURRENCY, call);
  const [main, all] = [threadCpuMs(pid).main, cpuMsOf(`/proc/${pid}/stat`)];
  const run = await measureLatencies(SECONDS, CONCURRENCY, (i) => call(i + 100_000));
  return {
    perSecond: run.perSecond,
    p99: summarize(run.latencies).p99,
    failures: run.failures,
    mainMs: (threadCpuMs(pid).main - main) / run.requests,
    processMs: (cpuMsOf(`/proc/${pid}/stat`) - all) / run.requests,
  };
}

/** The catalog indexed on `dataDir` unless it is there already, and the mix built from its answers. */
async function indexed(dataDir: string): Promise<MixItem[]> {
  const fresh = !existsSync(join(dataDir, "service.db"));
  const server = await spawnDrainedServer({ DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error" }, 600_000);
  try {
    if (fresh) {
      log(`indexing ${SIZE} products`);
      const real = await loadDemoCatalog({ dataDir: loadConfig({}).demoCatalog.dir, baseUrl: "http://localhost:8080" });
      await indexBulksOver(server.url, admin, chunked(multipliedProducts(real, SIZE), 2000), { ahead: 4 });
    }
    holdEnrichment(join(dataDir, "service.db"), Date.now() + 86_400_000);
    await settled(server.proc.pid, { windowMs: 6000, maxMs: 1_800_000 });
    log("building the mix");
    const { mix } = await buildMix(queryTexts(await querySuggestions()), MIX_SIZE, async (query) => {
      const res = await fetch(`${server.url}/1.9/search?${new URLSearchParams({ query, returnFacets: "true" })}`, { headers: searchKey });
      if (!res.ok) throw new Error(`GET /search for "${query}" answered ${res.status}`);
      return factsOfAnswer((await res.json()) as SearchResponse);
    });
    return mix;
  } finally {
    await stop(server);
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), "sfs-search-server-bench-"));
  const dataDir = KEEP ? resolve(KEEP) : join(work, "data");
  mkdirSync(dataDir, { recursive: true });
  const builds: Build[] = [...(COMPARE ? [{ name: "compared", main: resolve(COMPARE) }] : []), { name: "this", main: MAIN }];
  try {
    const mix = await indexed(dataDir);
    if (ANSWERS) {
      mkdirSync(ANSWERS, { recursive: true });
      for (const build of builds) {
        const copy = join(work, `answers-${build.name}`);
        cpSync(dataDir, copy, { recursive: true });
        const server = await startBuild(build, copy);
        await settled(server.proc.pid, { windowMs: 6000, maxMs: 600_000 });
        writeFileSync(join(ANSWERS, `${build.name}.txt`), await answersOf(server, mix));
        await stop(server);
        rmSync(copy, { recursive: true, force: true });
        log(`answers of ${build.name} written`);
      }
    }
    const rows: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const build of builds) {
        const server = await startBuild(build, dataDir);
        try {
          await settled(server.proc.pid, { windowMs: 6000, maxMs: 600_000 });
          const m = await measure(server, mix, round * 997);
          const load = loadavg()[0]!.toFixed(1);
          rows.push(
            `| ${round} | ${build.name} | ${Math.round(m.perSecond)} | ${m.mainMs.toFixed(2)} | ${m.processMs.toFixed(2)} | ${m.p99.toFixed(1)} | ${m.failures} | ${load} |`,
          );
          log(rows.at(-1)!);
        } finally {
          await stop(server);
        }
      }
    }
    console.log(`\n### Search over HTTP at ${CONCURRENCY} in flight, ${SIZE} products, ${SECONDS} s per run\n`);
    console.log("| round | build | searches/s | serving thread CPU ms per search | process CPU ms per search | p99 ms | failed | load |");
    console.log("|---|---|---:|---:|---:|---:|---:|---:|");
    for (const row of rows) console.log(row);
    if (CPU_PROF) {
      mkdirSync(CPU_PROF, { recursive: true });
      const profiled = builds.at(-1)!;
      const server = await startBuild(profiled, dataDir, ["--cpu-prof", `--cpu-prof-dir=${resolve(CPU_PROF)}`]);
      await settled(server.proc.pid, { windowMs: 6000, maxMs: 600_000 });
      // The profile's clock is the wall clock in µs: what falls between these two is the measured load.
      const from = Date.now() * 1000;
      const m = await measure(server, mix, 7);
      const to = Date.now() * 1000;
      await stop(server);
      writeFileSync(join(CPU_PROF, "load-window.json"), JSON.stringify({ from, to, warmSeconds: WARM_SECONDS, ...m }));
      log(`profile written to ${CPU_PROF}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
