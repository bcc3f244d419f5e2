import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/*
 * What a workspace's browser build is made from, as one hash: the head script's and the staff pages' builds run
 * only when it changes (their build-if-stale scripts).
 */

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/**
 * One hash over every input of the build in `dir` (src/, scripts/, these config files, the source folders of
 * other workspaces it bundles, relative to `dir`, and the repository's tsconfig.json beside the workspace; path
 * and content), in a fixed order. The tsconfig.json is every build's: esbuild reads `useDefineForClassFields`,
 * which Lit's reactive properties depend on, from the nearest one.
 */
export function buildInputsHash(dir: string, configFiles: readonly string[], bundledDirs: readonly string[] = []): string {
  const files = [
    join(dir, "..", "tsconfig.json"),
    ...filesUnder(join(dir, "src")),
    ...filesUnder(join(dir, "scripts")),
    ...bundledDirs.flatMap((d) => filesUnder(join(dir, d))),
    ...configFiles.map((f) => join(dir, f)),
  ]
    .filter((f) => existsSync(f))
    .sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(relative(dir, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}
