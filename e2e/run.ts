/*
 * End-to-end: the demo store as a shopper sees it, in a real Chromium, against `npm start` (the service and the
 * demo store in one process). Run with `bun e2e/run.ts`; prints one line per spec and ends with "N passed, M failed".
 *
 * Needs /usr/bin/chromium (apt-get install -y chromium) and the built head script (npm run build -w widget).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { specs, type Env } from "./specs.ts";

const ROOT = join(import.meta.dir, "..");
const CHROMIUM = "/usr/bin/chromium";
const WIDGET = join(ROOT, "widget/dist/widget.js");
const ARTIFACTS = join(ROOT, ".artifacts/e2e");

function fail(message: string): never {
  console.error(message);
  console.log("0 passed, 1 failed");
  process.exit(1);
}

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

async function main(): Promise<number> {
  if (!existsSync(CHROMIUM)) fail("Chromium is missing: apt-get install -y chromium (CI installs it in .ci/run)");
  if (!existsSync(WIDGET)) fail(`The head script is not built (${WIDGET} is missing): run npm run build -w widget`);
  mkdirSync(ARTIFACTS, { recursive: true });

  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), "sfs-e2e-"));
  const port = freePort();
  const child = Bun.spawn([process.execPath, join(ROOT, "demo-store/src/start.ts")], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn", DEMO_CATALOG_LIMIT: "3000" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let stderr = "";
  void (async () => {
    for await (const chunk of child.stderr as unknown as AsyncIterable<Uint8Array>) stderr += new TextDecoder().decode(chunk);
  })();
  let browser: Browser | null = null;
  const cleanup = () => {
    try {
      child.kill();
    } catch {
      // already gone
    }
  };
  process.on("exit", cleanup);
  process.on("SIGINT", () => process.exit(130));
  process.on("SIGTERM", () => process.exit(143));

  let passed = 0;
  let failed = 0;
  try {
    let stdout = "";
    const decoder = new TextDecoder();
    const reader = child.stdout.getReader();
    const deadline = Date.now() + 90_000;
    while (!/Analytics key\s+\S+/.test(stdout) && Date.now() < deadline) {
      const { value, done } = await Promise.race([
        reader.read(),
        Bun.sleep(Math.max(0, deadline - Date.now())).then(() => ({ value: undefined, done: true })),
      ]);
      if (done) break;
      stdout += decoder.decode(value);
    }
    reader.releaseLock();
    const key = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(stdout)?.[1] ?? "";
    const keys = { storeId: key("Store id"), adminKey: key("Admin key"), searchKey: key("Search key"), analyticsKey: key("Analytics key") };
    if (!keys.storeId || !keys.adminKey) {
      console.error(`The demo store did not start:\n${stdout}\n${stderr.slice(-2000)}`);
      return (console.log("0 passed, 1 failed"), 1);
    }
    console.log(`demo store up on port ${port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    // The demo store's own origin: the catalog's product links point at it.
    const base = (/Demo store\s+(\S+?)\/?\s/.exec(stdout)?.[1] ?? `http://localhost:${port}`).replace(/\/$/, "");
    const env: Env = { base, keys, browser, context, page, artifacts: ARTIFACTS, pageErrors };

    for (const spec of specs) {
      const t0 = Date.now();
      try {
        await spec.run(env);
        passed++;
        console.log(`✓ ${spec.name} (${Date.now() - t0} ms)`);
      } catch (error) {
        failed++;
        console.log(`✗ ${spec.name} (${Date.now() - t0} ms)\n    ${String(error instanceof Error ? error.message : error).split("\n").join("\n    ")}`);
      }
    }
  } finally {
    await browser?.close().catch(() => {});
    cleanup();
    await child.exited;
    rmSync(dataDir, { recursive: true, force: true });
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
