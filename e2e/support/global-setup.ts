/*
 * Starts the demo store once for the whole run, and unpacks the browser before any worker asks for it. The
 * store's address and keys reach the tests through the environment (workers inherit it): support/fixtures.ts.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromiumBinary } from "../browser.ts";
import { missingPrerequisite, ROOT, startDemoStore } from "../demo-session.ts";
import { publishDemo } from "./demo-env.ts";

export default async function globalSetup(): Promise<() => Promise<void>> {
  const missing = missingPrerequisite();
  if (missing) throw new Error(missing);
  mkdirSync(join(ROOT, ".artifacts/e2e"), { recursive: true });
  const started = Date.now();
  const chromium = await chromiumBinary();
  console.log(`chromium ${chromium.executablePath} (${chromium.origin})`);
  const demo = await startDemoStore(3000);
  console.log(`demo store up on port ${demo.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  publishDemo(demo);
  return () => demo.stop();
}
