/*
 * The demo store (`npm start`'s process: service + demo pages) on a free port with a temp data directory: shared
 * by the end-to-end suite and the browser benchmark. Node APIs only: the Playwright runner's global setup runs
 * under Node, the benchmark under Bun; the store itself always runs under Bun.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const ROOT = join(import.meta.dirname, "..");
export const WIDGET = join(ROOT, "widget/dist/widget.js");
/** The repository's own Bun (npm ci installs it), whichever runtime runs this file. */
const BUN = join(ROOT, "node_modules/.bin/bun");

export interface DemoKeys {
  storeId: string;
  adminKey: string;
  searchKey: string;
  analyticsKey: string;
}

export interface DemoStore {
  /** The demo store's origin: the catalog's product links point at it. */
  base: string;
  port: number;
  keys: DemoKeys;
  stop(): Promise<void>;
}

/** What the demo store lacks to run in a browser, as a line saying how to get it; null when all is there. */
export function missingPrerequisite(): string | null {
  if (!existsSync(WIDGET)) return `The head script is not built (${WIDGET} is missing): run npm run build -w widget`;
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function startDemoStore(catalogLimit: number): Promise<DemoStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "sfs-demo-"));
  const port = await freePort();
  const child = spawn(existsSync(BUN) ? BUN : "bun", [join(ROOT, "demo-store/src/start.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", DEMO_CATALOG_LIMIT: String(catalogLimit) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const started = new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      stdout += text;
      if (/Analytics key\s+\S+/.test(stdout)) resolve();
    });
    void exited.then(resolve);
    setTimeout(resolve, 90_000).unref();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill();
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  await started;
  const key = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(stdout)?.[1] ?? "";
  const keys = { storeId: key("Store id"), adminKey: key("Admin key"), searchKey: key("Search key"), analyticsKey: key("Analytics key") };
  if (!keys.storeId || !keys.adminKey) {
    await stop();
    throw new Error(`The demo store did not start:\n${stdout}\n${stderr.slice(-2000)}`);
  }
  const base = (/Demo store\s+(\S+?)\/?\s/.exec(stdout)?.[1] ?? `http://localhost:${port}`).replace(/\/$/, "");
  return { base, port, keys, stop };
}
