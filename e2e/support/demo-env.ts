/*
 * How the demo store global-setup.ts started reaches the tests: through the environment, which Playwright's
 * workers inherit from the runner.
 */
import type { DemoKeys } from "../demo-session.ts";

export interface Demo {
  /** The demo store's origin: the catalog's product links point at it. */
  base: string;
  keys: DemoKeys;
}

const NAME = "SFS_E2E_DEMO";

export function publishDemo(demo: Demo): void {
  process.env[NAME] = JSON.stringify({ base: demo.base, keys: demo.keys });
}

export function publishedDemo(): Demo {
  const json = process.env[NAME];
  if (!json) throw new Error(`${NAME} is not set: run the suite with npx playwright test -c e2e`);
  return JSON.parse(json) as Demo;
}
