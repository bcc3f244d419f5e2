/*
 * Builds the client's ES modules (dist/instantsearch-client.js, and dist/instantsearch-insights.js in Vite's
 * "insights" mode) only when missing or built from other sources (scripts/single-file-build.ts says how that is
 * decided and how the build is put in place).
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

const INPUTS = {
  configFiles: ["vite.config.ts", "package.json", "../package-lock.json", "../scripts/size-limit.ts"],
  bundledDirs: ["../contract/src"],
};

const builds = (dir: string): SingleFileBuild[] => [
  { dir, ...INPUTS, file: "instantsearch-client.js", title: "the InstantSearch client" },
  { dir, ...INPUTS, file: "instantsearch-insights.js", title: "the InstantSearch insights client", mode: "insights" },
];

/**
 * Builds each module when stale, the search client first; the answer is the search client's, with the insights
 * client's output after it. Rejects with Vite's output when a build fails (a compile error, or over its budget).
 */
export async function buildInstantSearchClientIfStale(dir = CLIENT_DIR): Promise<BuildResult> {
  const [client, insights] = builds(dir);
  const first = await buildSingleFileIfStale(client!);
  const second = await buildSingleFileIfStale(insights!);
  return { ...first, output: [first.output, second.output].filter(Boolean).join("\n") };
}

if (import.meta.main) for (const build of builds(CLIENT_DIR)) await buildSingleFileFromCommandLine(build);
