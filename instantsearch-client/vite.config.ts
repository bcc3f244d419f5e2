import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { gzipSizeLimit } from "../scripts/size-limit.ts";

/*
 * The client for pages without a build step: ONE ES module, dist/instantsearch-client.js (no chunks, no imports),
 * built from the same source a bundler imports (src/served.ts: the package without its insights client), that the server serves at
 * /widget/v1/instantsearch-client.js. The build fails when it is over 6 KB gzipped.
 */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2021",
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    lib: {
      entry: fileURLToPath(new URL("./src/served.ts", import.meta.url)),
      formats: ["es"],
      fileName: () => "instantsearch-client.js",
    },
    rolldownOptions: {
      // Lib mode keeps an ES module's whitespace; the page downloads it, so it is minified whole.
      output: { codeSplitting: false, minify: true },
    },
  },
  plugins: [gzipSizeLimit({ file: "instantsearch-client.js", maxBytes: 6 * 1024 })],
});
