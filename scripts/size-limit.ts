import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/**
 * A Vite plugin that prints the gzipped size of a built file and fails the build when it is over the budget:
 * every shopper of every store downloads the head script, and every shopper of an InstantSearch page the client.
 */
export function gzipSizeLimit(options: { file: string; maxBytes: number }): Plugin {
  let outDir = "dist";
  return {
    name: "sfs-gzip-size-limit",
    apply: "build",
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    writeBundle() {
      const path = join(outDir, options.file);
      const code = readFileSync(path);
      const gz = gzipSync(code, { level: 9 }).length;
      const kb = (n: number) => `${(n / 1024).toFixed(2)} KB`;
      const line = `${options.file}: ${kb(code.length)} raw, ${kb(gz)} gzipped (budget ${kb(options.maxBytes)} gzipped)`;
      if (gz > options.maxBytes) this.error(`${line}: over budget by ${kb(gz - options.maxBytes)}`);
      console.log(`\n${line}`);
    },
  };
}
