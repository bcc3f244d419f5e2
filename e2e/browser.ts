/*
 * The Chromium that the end-to-end suite and the browser benchmark drive. By default it is @sparticuz/chromium's
 * headless build, which `npm ci` installs, on every machine, so every developer and CI run the same version.
 * CHROMIUM_PATH points at another binary (a system Chromium) instead.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { chromium, type Browser } from "playwright-core";

export interface ChromiumBinary {
  executablePath: string;
  args: string[];
  /** Where the binary came from, for the runner's first line. */
  origin: string;
}

/*
 * Keeps a test browser off the network it does not need and away from first-run screens, and gives it one language
 * whatever the machine's locale: under LANG=C.UTF-8 the headless shell reports `en-US@posix`, which Intl rejects.
 */
const TEST_BROWSER = [
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--accept-lang=en-US",
];

/*
 * The package's flags suit one page per serverless call. Left out: `--single-process`, with which the first
 * closed context takes the whole browser down (the suite opens many), and the two that switch off the same-origin
 * policy and mixed-content blocking, which would let a wrong CORS answer pass: shoppers' browsers enforce both.
 */
const LEFT_OUT = new Set(["--single-process", "--disable-web-security", "--allow-running-insecure-content"]);

export async function chromiumBinary(): Promise<ChromiumBinary> {
  const setting = process.env.CHROMIUM_PATH;
  if (setting) {
    if (!existsSync(setting)) throw new Error(`CHROMIUM_PATH=${setting}: no such file`);
    return { executablePath: setting, args: ["--headless", "--no-sandbox", "--disable-gpu", ...TEST_BROWSER], origin: "CHROMIUM_PATH" };
  }
  const sparticuz = (await import("@sparticuz/chromium")).default;
  const { path, version } = await unpackedChromium(() => sparticuz.executablePath());
  const args = sparticuz.args.filter((arg) => !LEFT_OUT.has(arg));
  return { executablePath: path, args: [...args, ...TEST_BROWSER], origin: `@sparticuz/chromium ${version}` };
}

export async function launchChromium(binary?: ChromiumBinary): Promise<Browser> {
  const { executablePath, args } = binary ?? (await chromiumBinary());
  return chromium.launch({ executablePath, args });
}

/*
 * The package unpacks its binary into os.tmpdir() and reuses any `chromium` file it finds there, whichever version
 * or half-written run left it. So it unpacks into a fresh directory of ours, which then moves into a place named by
 * the version in one rename: a concurrent run, or the next version, never meets a partial or foreign binary.
 * TMPDIR is borrowed for the unpacking only: the runner and the benchmark read no temp directory meanwhile.
 */
async function unpackedChromium(unpack: () => Promise<string>): Promise<{ path: string; version: string }> {
  const packageDir = join(dirname(Bun.resolveSync("@sparticuz/chromium", import.meta.dir)), "..");
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  const home = join(packageDir, "../../.cache", `sparticuz-chromium-${version}`);
  const path = join(home, "chromium");
  if (existsSync(path)) return { path, version };
  mkdirSync(dirname(home), { recursive: true });
  const staging = mkdtempSync(`${home}.unpacking-`);
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await unpack();
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another run moved its copy into place first.
    if (!existsSync(path)) throw error;
  }
  return { path, version };
}
