/*
 * Builds the client's ES module (dist/instantsearch-client.js) only when it is missing or was built from other
 * sources (scripts/single-file-build.ts says how that is decided and how the build is put in place).
 *
 *   bun instantsearch-client/scripts/build-if-stale.ts     exit 0 when the module is current, 1 when the build failed
 */
import { join } from "node:path";
import {
  buildSingleFileFromCommandLine,
  buildSingleFileIfStale,
  type BuildResult,
  type SingleFileBuild,
} from "../../scripts/single-file-build.ts";

export const CLIENT_DIR = join(import.meta.dir, "..");

const clientBuild = (dir: string): SingleFileBuild => ({
  dir,
  file: "instantsearch-client.js",
  configFiles: ["vite.config.ts", "package.json", "../package-lock.json", "../scripts/size-limit.ts"],
  bundledDirs: ["../contract/src"],
  title: "the InstantSearch client",
});

/** Builds when stale. Rejects with Vite's output when the build fails (a compile error, or over the size budget). */
export const buildInstantSearchClientIfStale = (dir = CLIENT_DIR): Promise<BuildResult> => buildSingleFileIfStale(clientBuild(dir));

if (import.meta.main) await buildSingleFileFromCommandLine(clientBuild(CLIENT_DIR));
