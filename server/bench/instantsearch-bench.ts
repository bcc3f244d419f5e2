/*
 * InstantSearch session benchmark (not a test: it prints, it does not assert). The real InstantSearch.js (its
 * connectors, headless: the same state and the same queries as its widgets, without a DOM) drives our
 * searchClient against the real server (a child process) holding a sample of the demo catalog. A shopper's
 * session: the first page, "shirt" typed letter by letter, a brand ticked, a category chosen, page 2, sorted by
 * price. For each state change the client sends its queries (the hits, and one per refined facet and menu level)
 * in one POST /multi-search. In the same round the same request is sent again on its own (the client's and
 * InstantSearch's share of the time is the difference), and the same queries as separate GET /search calls, one
 * after another and all at once (as a client without multi-search would). Rounds alternate which side goes first,
 * so that the machine's swings hit both; the figures are medians over the rounds of the time from sending to the
 * whole answer, over loopback: the server's time plus HTTP's own, no network. A count-only query (`pageSize` 0,
 * which only multi-search takes) is sent to GET /search with pageSize=1.
 *
 *   bun server/bench/instantsearch-bench.ts [--products N] [--rounds R]
 */
import { join } from "node:path";
import instantsearch from "instantsearch.js";
import {
  connectHierarchicalMenu,
  connectHits,
  connectPagination,
  connectRefinementList,
  connectSearchBox,
  connectSortBy,
} from "instantsearch.js/es/connectors";
import { configure } from "instantsearch.js/es/widgets";
import type { MultiSearchQuery, MultiSearchRequest } from "@storefront-search/contract";
import { createSearchClient } from "../../instantsearch-client/src/index.ts";
import { DEMO_KEYS } from "../test/support/child-server.ts";
import { demoProducts } from "../test/support/demo-products.ts";
import { startIndexedServer } from "../test/support/indexed-child-server.ts";
import { UNLIMITED } from "../test/support/test-server.ts";
import { numberArg } from "./bench-args.ts";
import { holdEnrichment } from "./hold-enrichment.ts";

const PRODUCTS = numberArg("--products", 5000);
const ROUNDS = numberArg("--rounds", 15);
const HITS_PER_PAGE = 12;

/** What the session can do once InstantSearch has rendered: each connector's refine, and the values it lists. */
interface Controls {
  query(q: string): void;
  brands: { value: string; refine(): void }[];
  categories: { value: string; refine(): void }[];
  page(n: number): void;
  sort(index: string): void;
}

/** One round trip of the client: the searches it carried and how long it took (ms). */
interface Trip {
  queries: MultiSearchQuery[];
  ms: number;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString());

console.error(`[instantsearch-bench] indexing ${PRODUCTS} demo products`);
const server = await startIndexedServer(demoProducts(PRODUCTS), UNLIMITED, { enriched: true });
// The image stage would keep the server's main thread busy for minutes: held, so both sides meet a settled server.
holdEnrichment(join(server.dataDir, "service.db"), Date.now() + 3_600_000);

/** Plays the session through the client; the round trip of each state change, in order, with its name. */
async function session(): Promise<{ name: string; trip: Trip }[]> {
  const trips: Trip[] = [];
  const timed: typeof fetch = Object.assign(
    async (input: RequestInfo | URL, init?: RequestInit) => {
      const started = performance.now();
      const res = await fetch(input, init);
      const body = await res.arrayBuffer();
      trips.push({ queries: (JSON.parse(String(init?.body)) as MultiSearchRequest).requests, ms: performance.now() - started });
      return new Response(body, { status: res.status, headers: res.headers });
    },
    { preconnect: fetch.preconnect },
  );
  const controls: Partial<Controls> = {};
  const search = instantsearch({
    indexName: "products",
    searchClient: createSearchClient({
      host: server.url,
      storeId: DEMO_KEYS.DEMO_STORE_ID,
      searchKey: DEMO_KEYS.DEMO_SEARCH_KEY,
      fetch: timed,
    }),
  });
  search.addWidgets([
    configure({ hitsPerPage: HITS_PER_PAGE }),
    connectSearchBox((r) => (controls.query = r.refine))({}),
    connectHits(() => undefined)({}),
    connectRefinementList((r) => (controls.brands = r.items.map((i) => ({ value: i.value, refine: () => r.refine(i.value) }))))({
      attribute: "brand",
      operator: "or",
    }),
    connectHierarchicalMenu((r) => (controls.categories = r.items.map((i) => ({ value: i.value, refine: () => r.refine(i.value) }))))({
      attributes: ["categories.lvl0", "categories.lvl1", "categories.lvl2"],
    }),
    connectPagination((r) => (controls.page = r.refine))({}),
    connectSortBy((r) => (controls.sort = r.refine))({
      items: [
        { label: "Relevance", value: "products" },
        { label: "Price, low to high", value: "products:pricea" },
      ],
    }),
  ]);
  const states: { name: string; trip: Trip }[] = [];
  /** One state change: its one round trip, once InstantSearch has rendered the answer. */
  const change = async (name: string, action: () => void) => {
    const before = trips.length;
    // Awaited as an event, not polled: a timer waking every millisecond would share the thread the answer comes in on.
    const rendered = new Promise<void>((resolve) => {
      const onRender = () => {
        if (trips.length === before || search.status !== "idle") return;
        search.removeListener("render", onRender);
        resolve();
      };
      search.on("render", onRender);
    });
    action();
    await rendered;
    if (trips.length !== before + 1) throw new Error(`${name}: ${trips.length - before} requests, not one`);
    states.push({ name, trip: trips.at(-1)! });
  };
  const c = controls as Controls;
  try {
    await change("first page (browse)", () => search.start());
    for (let n = 1; n <= "shirt".length; n++) await change(`type "${"shirt".slice(0, n)}"`, () => c.query("shirt".slice(0, n)));
    await change(`tick brand ${c.brands[0]!.value}`, () => c.brands[0]!.refine());
    await change(`category ${c.categories[0]!.value}`, () => c.categories[0]!.refine());
    await change("page 2", () => c.page(1));
    await change("sort by price", () => c.sort("products:pricea"));
  } finally {
    search.dispose();
  }
  return states;
}

/** The session's request for a state sent again on its own (no InstantSearch, no client): ms until its answer. */
async function multiSearchAlone(queries: readonly MultiSearchQuery[]): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/1.9/multi-search`, {
    method: "POST",
    headers: { ...server.searchHeaders, "content-type": "application/json" },
    body: JSON.stringify({ requests: queries }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`POST /multi-search answered ${res.status}`);
  return performance.now() - started;
}

/** The same searches as separate GET /search calls: one after another, or all at once; ms until the last answer. */
async function separately(queries: readonly MultiSearchQuery[], atOnce: boolean): Promise<number> {
  const one = async (q: MultiSearchQuery) => {
    const params = new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)]));
    if (q.pageSize === 0) params.set("pageSize", "1");
    const res = await fetch(`${server.url}/1.9/search?${params}`, { headers: server.searchHeaders });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`GET /search?${params} answered ${res.status}`);
  };
  const started = performance.now();
  if (atOnce) await Promise.all(queries.map(one));
  else for (const q of queries) await one(q);
  return performance.now() - started;
}

try {
  // Warm-up (the engine's index, the JIT), and the searches of each state change: every session sends the same.
  const plan = await session();
  const rows = new Map(
    plan.map(({ name, trip }) => [
      name,
      { searches: trip.queries.length, multi: [] as number[], alone: [] as number[], sequential: [] as number[], parallel: [] as number[] },
    ]),
  );
  const measureSession = async () => {
    for (const { name, trip } of await session()) rows.get(name)!.multi.push(trip.ms);
  };
  const measureSeparately = async () => {
    for (const { name, trip } of plan) {
      rows.get(name)!.alone.push(await multiSearchAlone(trip.queries));
      rows.get(name)!.sequential.push(await separately(trip.queries, false));
      rows.get(name)!.parallel.push(await separately(trip.queries, true));
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round the separate calls go first, so that neither side always runs second.
    if (round % 2 === 0) await measureSession().then(measureSeparately);
    else await measureSeparately().then(measureSession);
  }

  console.log(
    `\n### InstantSearch session, ${PRODUCTS.toLocaleString("en")} demo products (${navigator.hardwareConcurrency} cores, ${ROUNDS} rounds)\n`,
  );
  console.log(
    "| state change | searches | through the client, one /multi-search (ms) | that request alone (ms) | separate /search, one after another (ms) | separate, all at once (ms) | client ÷ one after another | alone ÷ one after another | client ÷ all at once | alone ÷ all at once |\n|---|---|---|---|---|---|---|---|---|---|",
  );
  const total = { searches: 0, multi: 0, alone: 0, sequential: 0, parallel: 0 };
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  const line = (name: string, r: typeof total) =>
    `| ${name} | ${r.searches} | ${ms(r.multi)} | ${ms(r.alone)} | ${ms(r.sequential)} | ${ms(r.parallel)} | ${ratio(r.multi, r.sequential)} | ${ratio(r.alone, r.sequential)} | ${ratio(r.multi, r.parallel)} | ${ratio(r.alone, r.parallel)} |`;
  for (const [name, row] of rows) {
    const r = {
      searches: row.searches,
      multi: median(row.multi),
      alone: median(row.alone),
      sequential: median(row.sequential),
      parallel: median(row.parallel),
    };
    for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r[k];
    console.log(line(name, r));
  }
  console.log(line("whole session", total));
  console.log("\nBelow 1: the one request answers sooner than the separate calls.");
} finally {
  await server.stop();
}
