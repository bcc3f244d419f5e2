/*
 * Builds the staff pages into dist/ (src/pages.ts lists them) only when dist/ is missing or was built from other
 * sources, the way widget/scripts/build-if-stale.ts builds the head script: a hash of the sources and the build
 * configuration is kept in dist/build.stamp.json, and the new dist/ is built in a staging folder and renamed into
 * place, so a server reading meanwhile reads the old pages or the new ones. Each page's scripts are built by Vite
 * (vite.config.ts, one run per script); its HTML is the shared shell (src/shell/page.html) around its content, its
 * stylesheets are joined in order, and libraries are copied from their packages.
 *
 *   bun staff-pages/scripts/build-if-stale.ts [--force]   exit 0 when dist/ is current, 1 when the build failed
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, copyFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { SHELL_HTML, STAFF_PAGES, type StaffPage } from "../src/pages.ts";
import { buildInputsHash } from "../../scripts/build-inputs.ts";

export const STAFF_PAGES_DIR = join(import.meta.dir, "..");
const STAMP = "build.stamp.json";
const CONFIG_FILES = ["vite.config.ts", "package.json", "../package-lock.json"];

/** One hash over every input of the build (path and content), in a fixed order. */
export const staffPagesInputsHash = (dir = STAFF_PAGES_DIR): string => buildInputsHash(dir, CONFIG_FILES);

/** Why dist/ must be built, or null when it is the build of the current sources. */
export function staffPagesStaleReason(dir = STAFF_PAGES_DIR, inputs = staffPagesInputsHash(dir)): string | null {
  try {
    const stamp = JSON.parse(readFileSync(join(dir, "dist", STAMP), "utf8")) as { inputs: string };
    return stamp.inputs === inputs ? null : "their sources changed";
  } catch {
    return "staff-pages/dist is missing";
  }
}

async function buildScript(dir: string, staging: string, entry: string, out: string): Promise<string> {
  const vite = join(dirname(createRequire(join(dir, "package.json")).resolve("vite/package.json")), "bin", "vite.js");
  const proc = Bun.spawn(["node", vite, "build", "--outDir", relative(dir, staging), "--logLevel", "warn"], {
    cwd: dir,
    env: { ...process.env, NODE_ENV: "production", STAFF_PAGE_ENTRY: entry, STAFF_PAGE_OUT: out },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const output = (stdout + stderr).trim();
  if (code !== 0) throw new Error(`The staff page script ${entry} did not build:\n${output}`);
  return output;
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The head's tag for one of the page's assets (StaffPage.head). */
function headTag(name: string, pageName: string, page: StaffPage): string {
  const href = escapeHtml(`/${pageName}/assets/${name}`);
  if (name.endsWith(".css")) return `<link rel="stylesheet" href="${href}">`;
  if (name in page.scripts) return `<script type="module" src="${href}"></script>`;
  if (name in (page.libraries ?? {})) return `<script defer src="${href}"></script>`;
  throw new Error(`The ${pageName} page's head names ${name}, which is none of its assets`);
}

/** The shell (src/shell/page.html) with the page's title, heading, head and content in place of its markers. */
export function pageHtml(shell: string, pageName: string, page: StaffPage, content: string): string {
  const parts: Record<string, string> = {
    title: escapeHtml(page.title),
    heading: escapeHtml(page.heading),
    head: page.head.map((name) => headTag(name, pageName, page)).join("\n"),
    content: content.trimEnd(),
  };
  let html = shell;
  for (const [marker, value] of Object.entries(parts)) {
    const at = `<!-- ${marker} -->`;
    if (html.split(at).length !== 2) throw new Error(`${SHELL_HTML} must hold ${at} once`);
    html = html.replace(at, () => value);
  }
  return html;
}

async function buildPage(dir: string, staging: string, name: string, page: StaffPage): Promise<void> {
  const src = (file: string) => readFileSync(join(dir, "src", file), "utf8");
  const assets = join(staging, name, "assets");
  mkdirSync(assets, { recursive: true });
  writeFileSync(join(staging, name, "index.html"), pageHtml(src(SHELL_HTML), name, page, src(page.content)));
  for (const [out, parts] of Object.entries(page.styles)) writeFileSync(join(assets, out), parts.map(src).join("\n"));
  const require = createRequire(join(dir, "package.json"));
  for (const [out, file] of Object.entries(page.libraries ?? {})) copyFileSync(require.resolve(file), join(assets, out));
  for (const [out, entry] of Object.entries(page.scripts)) await buildScript(dir, staging, entry, `${name}/assets/${out}`);
}

export interface BuildResult {
  built: boolean;
  reason: string | null;
}

/** Builds when stale (or always, with force). Rejects with Vite's output when a script does not build. */
export async function buildStaffPagesIfStale(dir = STAFF_PAGES_DIR, force = false): Promise<BuildResult> {
  const inputs = staffPagesInputsHash(dir);
  const reason = force ? "a build was asked for" : staffPagesStaleReason(dir, inputs);
  if (reason === null) return { built: false, reason };
  const staging = join(dir, `.dist-staging-${process.pid}-${Date.now()}`);
  const old = join(dir, `.dist-old-${process.pid}-${Date.now()}`);
  try {
    for (const [name, page] of Object.entries(STAFF_PAGES)) await buildPage(dir, staging, name, page);
    writeFileSync(join(staging, STAMP), JSON.stringify({ inputs }));
    const dist = join(dir, "dist");
    if (existsSync(dist)) renameSync(dist, old);
    renameSync(staging, dist);
    return { built: true, reason };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(old, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  try {
    const result = await buildStaffPagesIfStale(STAFF_PAGES_DIR, process.argv.includes("--force"));
    if (result.built) console.error(`Built the staff pages (${result.reason}).`);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
