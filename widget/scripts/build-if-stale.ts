/*
 * Builds the head script (dist/widget.js) only when it is missing or was built from other sources
 * (scripts/single-file-build.ts says how that is decided and how the build is put in place).
 *
 *   bun widget/scripts/build-if-stale.ts     exit 0 when the script is current (built or not), 1 when the build failed
 */
import { join } from "node:path";
import {
  buildSingleFileFromCommandLine,
  buildSingleFileIfStale,
  singleFileStaleReason,
  type BuildResult,
  type SingleFileBuild,
} from "../../scripts/single-file-build.ts";

export const WIDGET_DIR = join(import.meta.dir, "..");

/**
 * What a build reads besides src/ and the repository's tsconfig.json: the build config, its plugins, the package, the
 * locked dependency versions and the contract it bundles.
 */
const widgetBuild = (dir: string): SingleFileBuild => ({
  dir,
  file: "widget.js",
  configFiles: ["vite.config.ts", "package.json", "../package-lock.json", "../scripts/size-limit.ts"],
  bundledDirs: ["../contract/src"],
  title: "the head script",
});

/** Why the script must be built, or null when dist/widget.js is the build of the current sources. */
export const staleReason = (widgetDir = WIDGET_DIR): string | null => singleFileStaleReason(widgetBuild(widgetDir));

/** Builds when stale. Rejects with Vite's output when the build fails (a compile error, or over the size budget). */
export const buildWidgetIfStale = (widgetDir = WIDGET_DIR): Promise<BuildResult> => buildSingleFileIfStale(widgetBuild(widgetDir));

if (import.meta.main) await buildSingleFileFromCommandLine(widgetBuild(WIDGET_DIR));
