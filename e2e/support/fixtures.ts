/*
 * What every end-to-end test gets: the demo store's address and keys (started once by global-setup.ts), the
 * browser of e2e/browser.ts, and a context of its own (a new shopper, nothing cached) that watches what the
 * shopper's pages do. When the test ends, the pages close as a shopper closes tabs, so the widget sends its last
 * events (pagehide), and the test fails if a page threw an uncaught error or asked a host beyond this machine
 * for anything (fonts, images, scripts from elsewhere).
 */
import { test as base, expect } from "@playwright/test";
import { chromiumBinary } from "../browser.ts";
import { publishedDemo, type Demo } from "./demo-env.ts";

export { expect, type Demo };

export const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

export const test = base.extend<object, { demo: Demo }>({
  demo: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      await use(publishedDemo());
    },
    { scope: "worker" },
  ],
  launchOptions: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const { executablePath, args } = await chromiumBinary();
      await use({ executablePath, args });
    },
    { scope: "worker" },
  ],
  context: async ({ context }, use) => {
    const outside: string[] = [];
    const errors: string[] = [];
    context.on("request", (r) => {
      const url = new URL(r.url());
      if (url.protocol.startsWith("http") && !LOCAL_HOSTS.has(url.hostname)) outside.push(r.url());
    });
    context.on("weberror", (e) => errors.push(String(e.error())));
    // Layout shift as the Core Web Vitals count it: shifts not caused by the shopper's input, summed.
    await context.addInitScript(() => {
      const w = window as unknown as { sfsShift: number };
      w.sfsShift = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
          if (!e.hadRecentInput) w.sfsShift += e.value;
      }).observe({ type: "layout-shift", buffered: true });
    });
    await use(context);
    // Chromium's headless shell fires no pagehide when a whole context closes, so each page closes first.
    for (const open of context.pages()) await Promise.all([open.waitForEvent("close"), open.close({ runBeforeUnload: true })]);
    expect(errors, "uncaught errors in the pages").toEqual([]);
    expect(outside, "requests beyond this machine").toEqual([]);
  },
});
