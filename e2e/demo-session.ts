/*
 * The demo store (`npm start`'s process: service + demo pages) on a free port with a temp data directory: shared
 * by the end-to-end suite and the browser benchmark.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../server/test/support/child-server.ts";

export const ROOT = join(import.meta.dir, "..");
export const WIDGET = join(ROOT, "widget/dist/widget.js");

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

export async function startDemoStore(catalogLimit: number): Promise<DemoStore> {
  const dataDir = mkdtempSync(join(tmpdir(), "sfs-demo-"));
  const port = freePort();
  const child = Bun.spawn([process.execPath, join(ROOT, "demo-store/src/start.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", DEMO_CATALOG_LIMIT: String(catalogLimit) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr as unknown as AsyncIterable<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  const stop = async () => {
    child.kill();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
  let stdout = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  const deadline = Date.now() + 90_000;
  while (!/Analytics key\s+\S+/.test(stdout) && Date.now() < deadline) {
    const { value, done } = await Promise.race([
      reader.read(),
      Bun.sleep(Math.max(0, deadline - Date.now())).then(() => ({ value: undefined, done: true as const })),
    ]);
    if (done) break;
    stdout += decoder.decode(value);
  }
  reader.releaseLock();
  const key = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(stdout)?.[1] ?? "";
  const keys = { storeId: key("Store id"), adminKey: key("Admin key"), searchKey: key("Search key"), analyticsKey: key("Analytics key") };
  if (!keys.storeId || !keys.adminKey) {
    await stop();
    throw new Error(`The demo store did not start:\n${stdout}\n${stderr.slice(-2000)}`);
  }
  const base = (/Demo store\s+(\S+?)\/?\s/.exec(stdout)?.[1] ?? `http://localhost:${port}`).replace(/\/$/, "");
  return { base, port, keys, stop };
}
