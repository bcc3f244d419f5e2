import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { gzipSizeLimit } from "../scripts/size-limit.ts";
import { minifyLitTemplatesPlugin } from "./scripts/minify-lit-templates.ts";

/*
 * The head script: ONE self-contained file, dist/widget.js (an IIFE with no chunks, no CSS file, no imports), that
 * the server serves at /widget/v1/widget.js. The build fails when it is over 30 KB gzipped.
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
      entry: fileURLToPath(new URL("./src/index.ts", import.meta.url)),
      formats: ["iife"],
      name: "StorefrontSearchWidget",
      fileName: () => "widget.js",
    },
    rolldownOptions: {
      // One file: dynamic imports (none today) are inlined rather than split into chunks.
      output: { codeSplitting: false },
    },
  },
  plugins: [
    minifyLitTemplatesPlugin(fileURLToPath(new URL("./src", import.meta.url))),
    gzipSizeLimit({ file: "widget.js", maxBytes: 30 * 1024 }),
  ],
});
