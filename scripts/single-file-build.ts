/*
 * Builds a workspace's one-file browser build (the head script, the InstantSearch client) only when it is missing
 * or was built from other sources, so that `npm start` and `npm run server` serve a current file on a fresh clone
 * and skip the build on every later start. "Other sources" is decided by content, not by file times (a copy or
 * checkout can give old sources new times and new sources old ones): a hash of the sources and the build
 * configuration is kept in a stamp beside the file, together with the hash of the file it describes, so a file
 * rebuilt or edited by other means is not taken for current either. The build is Vite's own (the workspace's
 * vite.config.ts, with its size budget) into a staging folder, and the file is renamed into place: a server
 * starting meanwhile reads the old file or the new one, never half.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { buildInputsHash } from "./build-inputs.ts";

export interface SingleFileBuild {
  /** The workspace folder (its vite.config.ts builds `dist/<file>`). */
  dir: string;
  /** The one file the build writes into dist/, e.g. "widget.js". */
  file: string;
  /** What a build reads besides src/ and scripts/, relative to `dir`. */
  configFiles: readonly string[];
  /** Source folders of other workspaces the build bundles (the contract's), relative to `dir`. */
  bundledDirs: readonly string[];
  /** What the file is, for the build's messages: "the head script". */
  title: string;
  /** Vite's mode, when the workspace's vite.config.ts builds more than one file (one per mode). */
  mode?: string;
}

interface Stamp {
  inputs: string;
  script: string;
}

export interface BuildResult {
  built: boolean;
  /** Why it was built, e.g. "dist/widget.js is missing". */
  reason: string | null;
  /** Vite's output (its last line is the gzipped size against the budget). */
  output: string;
}

const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest("hex");
const stampName = (build: SingleFileBuild) => `${build.file}.stamp.json`;

/** One hash over every input of the build (path and content), in a fixed order. */
export const singleFileInputsHash = (build: SingleFileBuild): string => buildInputsHash(build.dir, build.configFiles, build.bundledDirs);

/** Why the file must be built, or null when dist/<file> is the build of the current sources. */
export function singleFileStaleReason(build: SingleFileBuild, inputs = singleFileInputsHash(build)): string | null {
  const dist = join(build.dir, "dist");
  if (!existsSync(join(dist, build.file))) return `dist/${build.file} is missing`;
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(join(dist, stampName(build)), "utf8")) as Stamp;
  } catch {
    return `dist/${build.file} has no build stamp`;
  }
  if (stamp.inputs !== inputs) return "its sources changed";
  if (stamp.script !== sha256(readFileSync(join(dist, build.file)))) return `dist/${build.file} was changed after its build`;
  return null;
}

/** Builds when stale. Rejects with Vite's output when the build fails (a compile error, or over the size budget). */
export async function buildSingleFileIfStale(build: SingleFileBuild): Promise<BuildResult> {
  const inputs = singleFileInputsHash(build);
  const reason = singleFileStaleReason(build, inputs);
  if (reason === null) return { built: false, reason, output: "" };

  const dist = join(build.dir, "dist");
  const staging = join(dist, `.staging-${process.pid}-${Date.now()}`);
  mkdirSync(dist, { recursive: true });
  try {
    const vite = join(dirname(createRequire(join(build.dir, "package.json")).resolve("vite/package.json")), "bin", "vite.js");
    const mode = build.mode ? ["--mode", build.mode] : [];
    const proc = Bun.spawn(
      ["node", vite, "build", ...mode, "--outDir", relative(build.dir, staging), "--emptyOutDir", "--logLevel", "warn"],
      {
        cwd: build.dir,
        // A production build whoever runs it: Vite keeps an inherited NODE_ENV (bun test sets "test"), and Lit's
        // development build would then be bundled.
        env: { ...process.env, NODE_ENV: "production" },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const output = (out + err).trim();
    if (code !== 0) throw new Error(`${build.title[0]!.toUpperCase()}${build.title.slice(1)} build failed (${reason}):\n${output}`);
    const script = readFileSync(join(staging, build.file));
    renameSync(join(staging, build.file), join(dist, build.file));
    const stamp: Stamp = { inputs, script: sha256(script) };
    writeFileSync(join(staging, stampName(build)), JSON.stringify(stamp));
    renameSync(join(staging, stampName(build)), join(dist, stampName(build)));
    return { built: true, reason, output };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The command-line entry of a workspace's build-if-stale script: builds when stale, exit 1 when the build failed. */
export async function buildSingleFileFromCommandLine(build: SingleFileBuild): Promise<void> {
  try {
    const result = await buildSingleFileIfStale(build);
    if (result.built) console.error(`Built ${build.title} (${result.reason}). ${result.output.split("\n").at(-1)}`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
