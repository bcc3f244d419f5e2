/*
 * Event-flood benchmark (not a test: it prints, it does not assert). The real server (a child process) holding a
 * sample of the demo catalog answers searches one at a time, in the same run:
 *
 *   at rest          nothing else;
 *   during a flood   while one client keeps 10 POST /tracking requests of 500 Search events in flight, with the
 *                    events limit off (as many clients at once would, each within its own limit);
 *   after it         while the events thread counts the backlog the flood left.
 *
 * Before events had a thread of their own, the same flood moved the search median from 8 ms to 337 ms, and it
 * stayed at 250-550 ms for 20 s after the flood stopped (issue 43, on a 2-core machine).
 *
 *   bun server/bench/event-flood-bench.ts [--products N] [--seconds S]
 */
import { DEMO_KEYS } from "../test/support/child-server.ts";
import { demoProducts } from "../test/support/demo-products.ts";
import { startIndexedServer } from "../test/support/indexed-child-server.ts";
import { UNLIMITED } from "../test/support/test-server.ts";
import { measureLatencies, summarize, type LatencySummary } from "./latency-load.ts";
import { numberArg } from "./bench-args.ts";
import { searchEventBatch } from "../test/support/fixtures.ts";

const PRODUCTS = numberArg("--products", 3000);
const SECONDS = numberArg("--seconds", 5);
const IN_FLIGHT = 10;
const QUERIES = ["shirt", "blue jeans", "watch", "kurta", "running shoes", "dress", "black bag", "white sneakers"];

const ms = (n: number) => (Number.isNaN(n) ? "–" : n < 10 ? n.toFixed(2) : n < 100 ? n.toFixed(1) : Math.round(n).toString());
const line = (s: LatencySummary) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} ms (n=${s.n})`;

console.error(`[event-flood-bench] indexing ${PRODUCTS} demo products`);
// Enriched first: the text stage's work would otherwise share the machine with the first measurement only.
const server = await startIndexedServer(demoProducts(PRODUCTS), UNLIMITED, { enriched: true });
const analytics = {
  "x-service-store-id": DEMO_KEYS.DEMO_STORE_ID,
  "x-service-api-key": DEMO_KEYS.DEMO_ANALYTICS_KEY,
  "content-type": "application/json",
};
const searches = (seconds: number) =>
  measureLatencies(seconds, 1, (i) => ({
    send: () =>
      fetch(`${server.url}/1.9/search?query=${encodeURIComponent(QUERIES[i % QUERIES.length]!)}&returnFacets=true`, {
        headers: server.searchHeaders,
      }),
  }));
const body = (i: number) => JSON.stringify(searchEventBatch("flood", i));

try {
  for (let i = 0; i < 200; i++)
    await (await fetch(`${server.url}/1.9/search?query=${QUERIES[i % QUERIES.length]}`, { headers: server.searchHeaders })).arrayBuffer();
  const rest = summarize((await searches(SECONDS)).latencies);

  let flooding = true;
  let sent = 0;
  let refused = 0;
  const lane = async () => {
    while (flooding) {
      const res = await fetch(`${server.url}/1.9/tracking`, { method: "POST", headers: analytics, body: body(sent++) });
      await res.arrayBuffer();
      if (!res.ok) refused++;
    }
  };
  const started = performance.now();
  const lanes = Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const during = summarize((await searches(SECONDS)).latencies);
  flooding = false;
  await lanes;
  const accepted = (sent - refused) * 500;
  const perSecond = accepted / ((performance.now() - started) / 1000);
  const after = summarize((await searches(SECONDS)).latencies);
  // A report counts whatever is still waiting before it answers.
  await (await fetch(`${server.url}/1.9/reports/overview`, { headers: server.adminHeaders })).arrayBuffer();
  const restAgain = summarize((await searches(SECONDS)).latencies);

  console.log(`\n### Event-flood benchmark, ${PRODUCTS.toLocaleString("en")} demo products (${navigator.hardwareConcurrency} cores)\n`);
  console.log("| GET /search with facets, 1 in flight | latency | p50 / at rest | p99 / at rest |\n|---|---|---|---|");
  for (const [name, s] of [
    ["at rest", rest],
    [`during a flood (${IN_FLIGHT} × 500 events in flight)`, during],
    [`the ${SECONDS} s after it (the backlog being counted)`, after],
    ["at rest again, every event counted", restAgain],
  ] as const) {
    console.log(`| ${name} | ${line(s)} | ${(s.p50 / rest.p50).toFixed(2)} | ${(s.p99 / rest.p99).toFixed(2)} |`);
  }
  console.log(
    `\nThe flood: ${accepted.toLocaleString("en")} events acknowledged, ${Math.round(perSecond).toLocaleString("en")} a second${refused ? `, ${refused} requests refused` : ""}.`,
  );
} finally {
  await server.stop();
}
