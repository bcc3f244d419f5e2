/*
 * Builds the head script (dist/widget.js) only when it is missing or was built from other sources, so that
 * `npm start` and `npm run server` serve a current script on a fresh clone and skip the build on every later
 * start. "Other sources" is decided by content, not by file times (a copy or checkout can give old sources new
 * times and new sources old ones): a hash of the sources and the build configuration is kept in a stamp beside
 * the script, together with the hash of the script it describes, so a script rebuilt or edited by other means is
 * not taken for current either. The build is Vite's own (same config, same size budget) into a staging folder,
 * and the script is renamed into place: a server starting meanwhile reads the old script or the new one, never half.
 *
 *   bun widget/scripts/build-if-stale.ts     exit 0 when the script is current (built or not), 1 when the build failed
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { buildInputsHash } from "../../scripts/build-inputs.ts";

export const WIDGET_DIR = join(import.meta.dir, "..");

const SCRIPT = "widget.js";
const STAMP = "widget.js.stamp.json";
/** What a build reads besides src/: the build config, its plugins, the package and the locked dependency versions. */
const CONFIG_FILES = ["vite.config.ts", "package.json", "tsconfig.json", "../package-lock.json"];

interface Stamp {
  inputs: string;
  script: string;
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");

/** One hash over every input of the build (path and content), in a fixed order. */
export const widgetInputsHash = (widgetDir = WIDGET_DIR): string => buildInputsHash(widgetDir, CONFIG_FILES);

/** Why the script must be built, or null when dist/widget.js is the build of the current sources. */
export function staleReason(widgetDir = WIDGET_DIR, inputs = widgetInputsHash(widgetDir)): string | null {
  const dist = join(widgetDir, "dist");
  if (!existsSync(join(dist, SCRIPT))) return `dist/${SCRIPT} is missing`;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(join(dist, STAMP), "utf8")) as Stamp;
  } catch {
    return `dist/${SCRIPT} has no build stamp`;
  }
  if (stamp.inputs !== inputs) return "its sources changed";
  if (stamp.script !== sha256(readFileSync(join(dist, SCRIPT)))) return `dist/${SCRIPT} was changed after its build`;
  return null;
}

export interface BuildResult {
  built: boolean;
  /** Why it was built, e.g. "dist/widget.js is missing". */
  reason: string | null;
  /** Vite's output (its last line is the gzipped size against the budget). */
  output: string;
}

/** Builds when stale. Rejects with Vite's output when the build fails (a compile error, or over the size budget). */
export async function buildWidgetIfStale(widgetDir = WIDGET_DIR): Promise<BuildResult> {
  const inputs = widgetInputsHash(widgetDir);
  const reason = staleReason(widgetDir, inputs);
  if (reason === null) return { built: false, reason, output: "" };

  const dist = join(widgetDir, "dist");
  const staging = join(dist, `.staging-${process.pid}-${Date.now()}`);
  mkdirSync(dist, { recursive: true });
  try {
    const vite = join(dirname(createRequire(join(widgetDir, "package.json")).resolve("vite/package.json")), "bin", "vite.js");
    const proc = Bun.spawn(["node", vite, "build", "--outDir", relative(widgetDir, staging), "--emptyOutDir", "--logLevel", "warn"], {
      cwd: widgetDir,
      // A production build whoever runs it: Vite keeps an inherited NODE_ENV (bun test sets "test"), and Lit's
      // development build would then be bundled.
      env: { ...process.env, NODE_ENV: "production" },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const output = (out + err).trim();
    if (code !== 0) throw new Error(`The head script build failed (${reason}):\n${output}`);
    const script = readFileSync(join(staging, SCRIPT));
    renameSync(join(staging, SCRIPT), join(dist, SCRIPT));
    const stamp: Stamp = { inputs, script: sha256(script) };
    writeFileSync(join(staging, STAMP), JSON.stringify(stamp));
    renameSync(join(staging, STAMP), join(dist, STAMP));
    return { built: true, reason, output };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    const result = await buildWidgetIfStale();
    if (result.built) console.error(`Built the head script (${result.reason}). ${result.output.split("\n").at(-1)}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
