/*
 * Benchmark (not a test): on the demo store over loopback, in Chromium, the time from the head script's start
 * (its request) to the first product card painted on the search results page. The baseline, measured in the
 * same run on the same page, is the page's own first contentful paint, so the ratio holds on a noisy machine.
 *
 *   npm run build -w widget && bun widget/bench/time-to-results.ts [--runs 15]
 */
import { launchChromium, missingPrerequisite, startDemoStore } from "../../e2e/demo-session.ts";

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
}

const demo = await startDemoStore(5000);
const browser = await launchChromium();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))]!;

async function sample(context: Awaited<ReturnType<typeof browser.newContext>>): Promise<Sample> {
  const page = await context.newPage();
  await page.goto(`${demo.base}/search-results?q=jackets`);
  // Poll from the page itself, one check per frame, so the time is when the card could first be painted.
  const cards = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const check = () => {
          const root = document.querySelector("sfs-search-results")?.shadowRoot;
          if (root?.querySelector("sfs-product-card")) resolve(performance.now());
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  const timings = await page.evaluate(() => {
    const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
    const script = performance.getEntriesByType("resource").find((e) => e.name.includes("/widget/v1/widget.js"));
    return { fcp, scriptStart: script?.startTime ?? NaN };
  });
  await page.close();
  return { ...timings, cards };
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
    rows.push(`| ${label}: script start to first product card | ${median(fromScript).toFixed(1)} ms (p90 ${p90(fromScript).toFixed(1)}) | ${(median(fromScript) / median(fcp)).toFixed(2)} |`);
    rows.push(`| ${label}: page first contentful paint (baseline) | ${median(fcp).toFixed(1)} ms | 1.00 |`);
    rows.push(`| ${label}: navigation start to first product card | ${median(samples.map((s) => s.cards)).toFixed(1)} ms | ${(median(samples.map((s) => s.cards)) / median(fcp)).toFixed(2)} |`);
  }
  console.log(`\nTime to results, demo store over loopback, Chromium, ${RUNS} runs each, medians`);
  console.log("| measure | time | ratio to the page's first contentful paint |\n|---|---|---|");
  for (const row of rows) console.log(row);
} finally {
  await browser.close();
  await demo.stop();
}
