/*
 * End-to-end: the demo store as a shopper sees it, in a real Chromium, against `npm start` (the service and the
 * demo store in one process). Run with `bun e2e/run.ts`; prints one line per spec and ends with "N passed, M failed".
 *
 * Needs the built head script (npm run build -w widget); the browser is e2e/browser.ts's (npm's, or CHROMIUM_PATH).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { chromiumBinary, launchChromium } from "./browser.ts";
import { missingPrerequisite, ROOT, startDemoStore, type DemoStore } from "./demo-session.ts";
import { specs, type Env } from "./specs.ts";
import { widgetPassSpecs } from "./widget-pass-specs.ts";
import { merchandisingSpecs } from "./merchandising-specs.ts";
import { noDeadEndsSpecs } from "./no-dead-ends-specs.ts";
import { docsPageSpecs } from "./docs-page-specs.ts";

const ARTIFACTS = join(ROOT, ".artifacts/e2e");

async function main(): Promise<number> {
  const missing = missingPrerequisite();
  if (missing) {
    console.error(missing);
    console.log("0 passed, 1 failed");
    return 1;
  }
  mkdirSync(ARTIFACTS, { recursive: true });
  const started = Date.now();
  let demo: DemoStore | null = null;
  let browser: Browser | null = null;
  let passed = 0;
  let failed = 0;
  try {
    demo = await startDemoStore(3000);
    console.log(`demo store up on port ${demo.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const chromium = await chromiumBinary();
    console.log(`chromium ${chromium.executablePath} (${chromium.origin})`);
    browser = await launchChromium(chromium);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    const env: Env = { base: demo.base, keys: demo.keys, browser, context, page, artifacts: ARTIFACTS, pageErrors };
    // E2E_ONLY=text runs only the specs whose name contains it (while working on one).
    const only = process.env.E2E_ONLY;
    for (const spec of [...specs, ...merchandisingSpecs, ...widgetPassSpecs, ...noDeadEndsSpecs, ...docsPageSpecs].filter(
      (s) => !only || s.name.includes(only),
    )) {
      const t0 = Date.now();
      try {
        await spec.run(env);
        passed++;
        console.log(`✓ ${spec.name} (${Date.now() - t0} ms)`);
      } catch (error) {
        failed++;
        console.log(
          `✗ ${spec.name} (${Date.now() - t0} ms)\n    ${String(error instanceof Error ? error.message : error)
            .split("\n")
            .join("\n    ")}`,
        );
      }
    }
  } finally {
    await browser?.close().catch(() => {});
    await demo?.stop();
  }
  console.log(`e2e took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    console.log("0 passed, 1 failed");
    process.exit(1);
  },
);
