/*
 * Benchmark (not a test): on the demo store over loopback, in Chromium, the time from the head script's start
 * (its request) to the first product card painted on the search results page. The baseline, measured in the
 * same run on the same page, is the page's own first contentful paint, so the ratio holds on a noisy machine.
 *
 *   npm run build -w widget && bun widget/bench/time-to-results.ts [--runs 15]
 */
import { chromiumBinary, launchChromium } from "../../e2e/browser.ts";
import { missingPrerequisite, startDemoStore } from "../../e2e/demo-session.ts";

const at = process.argv.indexOf("--runs");
const RUNS = at >= 0 ? Number(process.argv[at + 1]) : 15;

const missing = missingPrerequisite();
if (missing) {
  console.error(missing);
  process.exit(1);
}

interface Sample {
  /** First contentful paint of the page (the store's own HTML), from navigation start. */
  fcp: number;
  /** The head script's request start, from navigation start. */
  scriptStart: number;
  /** First product card in the results, from navigation start. */
  cards: number;
  /** The search request: sent, and its answer in (the service's share). */
  searchStart: number;
  searchEnd: number;
}

// The demo store indexes, then enriches its catalog (text, then images) in the background: measured meanwhile,
// the figure is the enrichment's load on the server, not the page. The store's queues are read from /metrics.
process.env.METRICS_TOKEN ??= crypto.randomUUID();
const demo = await startDemoStore(5000);
await settled(demo.base, process.env.METRICS_TOKEN);

const chromium = await chromiumBinary();
const browser = await launchChromium(chromium);
/** Waits until nothing is left to index or enrich (at most 5 minutes). */
async function settled(base: string, token: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
    const depth = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
    if (depth("indexing_queue_depth") === 0 && depth("enrichment_queue_depth") === 0) break;
    if (performance.now() - started > 300_000)
      throw new Error(`the demo store is still enriching after 5 minutes:\n${text.match(/^\w+_queue_depth .*$/gm)?.join("\n")}`);
    await Bun.sleep(500);
  }
  console.log(
    `The demo store finished indexing and enriching ${((performance.now() - started) / 1000).toFixed(1)} s after it started answering.`,
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;

/**
 * Records, from the page itself and from before its first byte, when the first product card exists (checked every
 * frame): polling only once page.goto() had returned measured the harness (the load event and a DevTools round
 * trip), not the page, whenever the card came sooner.
 */
function watchFirstCard() {
  const w = window as unknown as { sfsFirstCard?: number };
  const check = () => {
    if (w.sfsFirstCard === undefined && document.querySelector("sfs-search-results")?.shadowRoot?.querySelector("sfs-product-card"))
      w.sfsFirstCard = performance.now();
    else if (w.sfsFirstCard === undefined) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

async function sample(context: Awaited<ReturnType<typeof browser.newContext>>): Promise<Sample> {
  const page = await context.newPage();
  await page.addInitScript(watchFirstCard);
  await page.goto(`${demo.base}/search-results?q=jackets`);
  await page.waitForFunction(() => (window as unknown as { sfsFirstCard?: number }).sfsFirstCard !== undefined);
  const timings = await page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const script = resources.find((e) => e.name.includes("/widget/v1/widget.js"));
    const search = resources.find((e) => e.name.includes("/search?"));
    return {
      fcp,
      scriptStart: script?.startTime ?? NaN,
      cards: (window as unknown as { sfsFirstCard: number }).sfsFirstCard,
      searchStart: search?.startTime ?? NaN,
      searchEnd: search?.responseEnd ?? NaN,
    };
  });
  await page.close();
  return timings;
}

try {
  const rows: string[] = [];
  for (const warm of [false, true]) {
    const samples: Sample[] = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    if (warm) await sample(context);
    for (let i = 0; i < RUNS; i++) {
      // Cold: a new context each time, so nothing is cached (script, config, results).
      const ctx = warm ? context : await browser.newContext({ viewport: { width: 1280, height: 900 } });
      samples.push(await sample(ctx));
      if (!warm) await ctx.close();
    }
    await context.close();
    const fromScript = samples.map((s) => s.cards - s.scriptStart);
    const fcp = samples.map((s) => s.fcp);
    const label = warm ? "warm (script and config cached)" : "cold (new browser context)";
    rows.push(
      `| ${label}: script start to first product card | ${median(fromScript).toFixed(1)} ms (p90 ${p90(fromScript).toFixed(1)}) | ${(median(fromScript) / median(fcp)).toFixed(2)} |`,
    );
    rows.push(`| ${label}: page first contentful paint (baseline) | ${median(fcp).toFixed(1)} ms | 1.00 |`);
    rows.push(
      `| ${label}: navigation start to first product card | ${median(samples.map((s) => s.cards)).toFixed(1)} ms | ${(median(samples.map((s) => s.cards)) / median(fcp)).toFixed(2)} |`,
    );
    // Where the time goes: the service answering the search, and the page from that answer to the first card.
    const answering = samples.map((s) => s.searchEnd - s.searchStart);
    const drawing = samples.map((s) => s.cards - s.searchEnd);
    rows.push(
      `| ${label}: of which the search request, sent to answered | ${median(answering).toFixed(1)} ms | ${(median(answering) / median(fcp)).toFixed(2)} |`,
    );
    rows.push(
      `| ${label}: of which the search answered to first product card | ${median(drawing).toFixed(1)} ms | ${(median(drawing) / median(fcp)).toFixed(2)} |`,
    );
  }
  console.log(
    `\nTime to results, demo store over loopback, Chromium (${chromium.origin}, ${browser.version()}), ${RUNS} runs each, medians`,
  );
  console.log("| measure | time | ratio to the page's first contentful paint |\n|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  await demo.stop();
}
