import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

/*
 * One staff page script per build: STAFF_PAGE_ENTRY (a TypeScript file under src/) into STAFF_PAGE_OUT (a file
 * name under the output folder), one self-contained ES module with no chunks, so a page's script is served at its
 * one URL and imports nothing. scripts/build-if-stale.ts runs this once per script of every page (src/pages.ts)
 * and adds the pages' HTML and stylesheets.
 */
const entry = process.env.STAFF_PAGE_ENTRY;
const out = process.env.STAFF_PAGE_OUT;
if (!entry || !out) throw new Error("STAFF_PAGE_ENTRY and STAFF_PAGE_OUT name the script to build (scripts/build-if-stale.ts sets them)");

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  publicDir: false,
  build: {
    outDir: "dist",
    emptyOutDir: false,
    target: "es2022",
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      input: fileURLToPath(new URL(`./src/${entry}`, import.meta.url)),
      output: { format: "es", codeSplitting: false, entryFileNames: out },
    },
  },
});
