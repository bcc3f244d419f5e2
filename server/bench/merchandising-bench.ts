/*
 * Merchandising benchmark (not a test): search latency of a store with 1,000 query rules and 1,000 synonym sets
 * against the same store without them, on the same server in the same run (issue 20's bound: p99 within 1.2×).
 *
 * One server, the demo catalog's first products indexed through the public API (enrichment held, as in
 * search-bench.ts, so that it does not compete for the cores). The query mix is the demo's query log, with facets
 * on every search. Rounds alternate without and with the rules and synonyms (created and deleted through the API
 * between rounds), so a drift of the machine falls on both sides; each side's figures are over all its rounds.
 *
 * The rules are what a merchandiser writes: each names a query of the log and pins two products, hides one, boosts a
 * brand or shows a banner; a tenth redirect. Two sets of them: "exact", each rule for its query (every search
 * still fires one or two, as the log has 713 queries), and "broad", naming the query as is, starts with or
 * contains in turn, so that most searches fire several rules and up to 20 pins (a worst case). Of the synonym sets, 100
 * are real (the English names of the enrichment vocabulary's values) and 900 words no product has (a long tail).
 *
 *   bun server/bench/merchandising-bench.ts [--size 20000] [--seconds 3] [--rounds 4] [--only rules|synonyms]
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadDemoCatalog } from "../../demo-store/src/catalog/index.ts";
import { loadConfig } from "../src/config.ts";
import { VOCABULARY } from "../src/modules/enrichment/vocabulary.ts";
import { DEMO_KEYS, spawnDrainedServer } from "../test/support/child-server.ts";
import { tempDir } from "../test/support/test-server.ts";
import { holdEnrichment } from "./hold-enrichment.ts";
import { measureLatencies, summarize } from "./latency-load.ts";
import { stringArg } from "./bench-args.ts";

const SIZE = Number(stringArg("--size", "20000"));
const SECONDS = Number(stringArg("--seconds", "3"));
const ROUNDS = Number(stringArg("--rounds", "4"));
// Few in flight: p99 is then the search's own tail, not a queue behind 16 requests on two cores.
const CONCURRENCY = 4;
const RULES = 1_000;
const SYNONYM_SETS = 1_000;
const GOAL = 1.2;
/** "rules" or "synonyms" measures one of them alone (where the time goes). */
const ONLY = stringArg("--only", "");

const DATA_DIR = loadConfig({}).demoCatalog.dir;
const admin = {
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": DEMO_KEYS.DEMO_ADMIN_KEY,
  "content-type": "application/json",
};
const searchKey = { "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID, "x-service-api-key": DEMO_KEYS.DEMO_SEARCH_KEY };
const ms = (n: number) => n.toFixed(2);

const products = loadDemoCatalog({ dataDir: DATA_DIR, baseUrl: "http://localhost:8080" }).slice(0, SIZE);
const queryLog = ((await Bun.file(join(DATA_DIR, "query-suggestions", "fashion-query-suggestions.json")).json()) as { query: string }[])
  .map((q) => q.query.trim().toLowerCase())
  .filter((q) => /^[a-z][a-z' -]*$/.test(q));
const queries = [...new Set(queryLog)];
const brands = [...new Set(products.map((p) => p.brand).filter((b): b is string => !!b))];

/** How the rules name their queries: the query itself, or (broad) in turn is, starts with and contains. */
type Scenario = "exact" | "broad";

function rule(i: number, scenario: Scenario) {
  const pattern = queries[i % queries.length]!;
  const anchoring = scenario === "exact" ? "is" : (["is", "startsWith", "contains"] as const)[i % 3]!;
  const pick = (k: number) => products[(i * 7 + k * 101) % products.length]!.id;
  const consequence =
    i % 10 === 9
      ? { redirect: `/collections/${i}` }
      : {
          pins: [
            { productId: pick(1), position: 1 },
            { productId: pick(2), position: 3 },
          ],
          hide: [pick(3)],
          ...(i % 2
            ? { boost: [{ filter: `designer:${brands[i % brands.length]}`, amount: 2 }] }
            : { userData: [{ type: "banner", title: `Offer ${i}` }] }),
        };
  return { conditions: [{ pattern, anchoring }], consequence, description: `bench ${i}` };
}

/** Real synonyms: the English names of the enrichment vocabulary's values ("crew neck", "round neck"). */
const realSets = VOCABULARY.flatMap((a) => a.values)
  .map((v) => [...new Set([v.displayName.en, ...v.synonyms.en].map((w) => w.toLowerCase()))].slice(0, 20))
  .filter((set) => set.length > 1);

function synonymSet(i: number) {
  if (i < Math.min(100, realSets.length)) return { synonyms: realSets[i]! };
  return { synonyms: [`zqv${i}alpha`, `zqv${i}beta`, `zqv${i}gamma`] };
}

async function call(server: string, method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${server}/1.9${path}`, {
    method,
    headers: admin,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  // A round "without" deletes what the round before created: the first has nothing to delete.
  if (!res.ok && !(method === "DELETE" && res.status === 404)) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function merchandise(server: string, scenario: Scenario | null): Promise<void> {
  const on = scenario !== null;
  const jobs: Promise<void>[] = [];
  for (let i = 0; i < (ONLY === "synonyms" ? 0 : RULES); i++)
    jobs.push(on ? call(server, "PUT", `/rules/bench-${i}`, rule(i, scenario)) : call(server, "DELETE", `/rules/bench-${i}`));
  for (let i = 0; i < (ONLY === "rules" ? 0 : SYNONYM_SETS); i++)
    jobs.push(on ? call(server, "PUT", `/synonyms/bench-${i}`, synonymSet(i)) : call(server, "DELETE", `/synonyms/bench-${i}`));
  // 16 at a time: the writes are acknowledged one by one.
  for (let i = 0; i < jobs.length; i += 16) await Promise.all(jobs.slice(i, i + 16));
}

const dataDir = tempDir("sfs-merch-bench-");
const server = await spawnDrainedServer(
  { DATA_DIR: dataDir, ...DEMO_KEYS, LOG_LEVEL: "error", RATE_LIMIT_BROWSER_PER_SECOND: "0", RATE_LIMIT_ADMIN_PER_SECOND: "0" },
  30_000,
);
try {
  console.error(`indexing ${products.length.toLocaleString("en")} demo products`);
  const tasks: string[] = [];
  for (let i = 0; i < products.length; i += 5000) {
    const res = await fetch(`${server.url}/1.9/products`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify(products.slice(i, i + 5000)),
    });
    tasks.push(((await res.json()) as { taskId: string }).taskId);
  }
  for (const id of tasks) {
    while (((await (await fetch(`${server.url}/1.9/tasks/${id}`, { headers: admin })).json()) as { status: string }).status !== "complete")
      await Bun.sleep(50);
  }
  holdEnrichment(join(dataDir, "service.db"), Date.now() + 3_600_000);
  await Bun.sleep(1000);

  const searchCall = (i: number) => {
    const q = queries[(i * 7) % queries.length]!;
    return {
      send: () => fetch(`${server.url}/1.9/search?${new URLSearchParams({ query: q, returnFacets: "true" })}`, { headers: searchKey }),
    };
  };
  for (let i = 0; i < 300; i++) await (await searchCall(i).send()).arrayBuffer();

  const scenarios = [null, "exact", "broad"] as const;
  const latencies = new Map<Scenario | null, number[]>(scenarios.map((k) => [k, []]));
  let failures = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of scenarios) {
      console.error(`round ${round + 1}/${ROUNDS}: ${scenario ?? "without"} rules and synonyms`);
      await merchandise(server.url, null);
      if (scenario) await merchandise(server.url, scenario);
      // Settle after the 2,000 writes (the rule book and synonym map rebuilt, their garbage collected), and search
      // the whole log once: a store's queries repeat, so its pin checks are kept (PinChecks) as the measure finds them.
      await Bun.sleep(1000);
      for (let i = 0; i < queries.length; i++) await (await searchCall(i).send()).arrayBuffer();
      Bun.gc(true);
      const run = await measureLatencies(SECONDS, CONCURRENCY, searchCall);
      failures += run.failures;
      latencies.get(scenario)!.push(...run.latencies);
    }
  }
  const a = summarize(latencies.get(null)!);
  console.log(
    `\nMerchandising: GET /search (query log, facets), ${CONCURRENCY} in flight, ${products.length.toLocaleString("en")} products, ${ROUNDS} alternating rounds of ${SECONDS} s`,
  );
  console.log("| store | searches | p50 ms | p99 ms | p99 ratio |\n|---|---|---|---|---|");
  console.log(`| without rules or synonyms (baseline) | ${a.n} | ${ms(a.p50)} | ${ms(a.p99)} | 1.00 |`);
  const what =
    ONLY === "rules"
      ? `${RULES} rules`
      : ONLY === "synonyms"
        ? `${SYNONYM_SETS} synonym sets`
        : `${RULES} rules and ${SYNONYM_SETS} synonym sets`;
  for (const [scenario, label] of [
    ["exact", "each rule names one query of the log"],
    ["broad", "rules name their query as is, starts with or contains in turn: most searches fire several"],
  ] as const) {
    const b = summarize(latencies.get(scenario)!);
    console.log(`| with ${what}; ${label} | ${b.n} | ${ms(b.p50)} | ${ms(b.p99)} | ${(b.p99 / a.p99).toFixed(2)} (goal ≤ ${GOAL}) |`);
  }
  if (failures) console.log(`${failures} searches failed`);
} finally {
  server.proc.kill();
  await server.proc.exited;
  rmSync(dataDir, { recursive: true, force: true });
}
