import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { gzipSizeLimit } from "../scripts/size-limit.ts";

/*
 * The client for pages without a build step, from the same source a bundler imports: ONE ES module per file (no
 * chunks, no imports), served under /widget/v1/. The default mode builds the search client (src/served.ts,
 * dist/instantsearch-client.js, at most 6 KB gzipped); mode "insights" the insights client (src/insights.ts,
 * dist/instantsearch-insights.js, at most 3 KB), beside it. Each build fails over its budget.
 */
const FILES = {
  client: { entry: "./src/served.ts", file: "instantsearch-client.js", maxBytes: 6 * 1024 },
  insights: { entry: "./src/insights.ts", file: "instantsearch-insights.js", maxBytes: 3 * 1024 },
};

export default defineConfig(({ mode }) => {
  const built = mode === "insights" ? FILES.insights : FILES.client;
  return {
    root: fileURLToPath(new URL(".", import.meta.url)),
    publicDir: false,
    build: {
      outDir: "dist",
      // The insights build runs second (npm run build) and must leave the client in place.
      emptyOutDir: built === FILES.client,
      target: "es2021",
      minify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: fileURLToPath(new URL(built.entry, import.meta.url)),
        formats: ["es"],
        fileName: () => built.file,
      },
      rolldownOptions: {
        // Lib mode keeps an ES module's whitespace; the page downloads it, so it is minified whole.
        output: { codeSplitting: false, minify: true },
      },
    },
    plugins: [gzipSizeLimit({ file: built.file, maxBytes: built.maxBytes })],
  };
});
