/*
 * The end-to-end suite on Playwright's runner: `npx playwright test -c e2e` (one test: add `-g "<part of its
 * name>"`). One demo store serves every test (global-setup.ts); each test has its own browser context, so its own
 * shopper. The browser is e2e/browser.ts's (support/fixtures.ts sets launchOptions): no browser of Playwright's.
 */
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

const ARTIFACTS = join(import.meta.dirname, "../.artifacts/e2e");

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  globalSetup: "./support/global-setup.ts",
  outputDir: join(ARTIFACTS, "results"),
  // Several tests change, for a while, what every shopper meets (the facet and widget settings, a rule on
  // "jackets", the trained query meanings), which a test running beside them would meet: one worker. With
  // Playwright's project dependencies they could run after the rest instead, but then `-g` on one of them
  // would run every other test first. One worker keeps the suite near a minute.
  workers: 1,
  fullyParallel: false,
  // E2E_ONLY="<part of a name>" is the same as -g with that text taken literally.
  ...(process.env.E2E_ONLY ? { grep: new RegExp(process.env.E2E_ONLY.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) } : {}),
  // A flaky test shows up as a failure, not as a pass on the second try.
  retries: 0,
  forbidOnly: true,
  // Against hangs only, sized for a loaded 2-core machine: no test takes near this.
  timeout: 90_000,
  globalTimeout: 10 * 60_000,
  expect: { timeout: 10_000 },
  // `list` for people; the summary reporter's last line `N passed, M failed` for .ci/test-all.ts.
  reporter: [["list"], ["./support/summary-reporter.ts"]],
  use: {
    viewport: { width: 1280, height: 900 },
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
  },
});
