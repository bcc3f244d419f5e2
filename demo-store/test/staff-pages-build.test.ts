import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../server/test/support/test-server.ts";
import { buildStaffPagesIfStale, STAFF_PAGES_DIR, staffPagesStaleReason } from "../../staff-pages/scripts/build-if-stale.ts";

/*
 * The staff pages are built when missing or stale and only then (`npm start`, `npm run server`). On a copy of the
 * workspace in a temp folder: the real staff-pages/dist is read by other suites meanwhile.
 */

const ROOT = join(STAFF_PAGES_DIR, "..");
const outer = tempDir("sfs-staff-pages-");
const dir = join(outer, "staff-pages");
const page = join(dir, "dist/merchandising/index.html");
const entry = join(dir, "src/merchandising/merchandising.ts");

beforeAll(() => {
  for (const part of ["src", "scripts", "vite.config.ts", "package.json"])
    cpSync(join(STAFF_PAGES_DIR, part), join(dir, part), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(outer, "node_modules"));
});
afterAll(() => rmSync(outer, { recursive: true, force: true }));

describe("staff pages build-if-stale", () => {
  test("builds every page when dist/ is missing, each script one file", async () => {
    expect(staffPagesStaleReason(dir)).toBe("staff-pages/dist is missing");
    expect(await buildStaffPagesIfStale(dir)).toEqual({ built: true, reason: "staff-pages/dist is missing" });
    expect(staffPagesStaleReason(dir)).toBeNull();
    const files = readdirSync(join(dir, "dist"), { recursive: true }).map(String).sort();
    expect(files).toEqual([
      "build.stamp.json",
      "experiments",
      "experiments/assets",
      "experiments/assets/experiments.css",
      "experiments/assets/experiments.js",
      "experiments/index.html",
      "merchandising",
      "merchandising/assets",
      "merchandising/assets/merchandising.css",
      "merchandising/assets/merchandising.js",
      "merchandising/index.html",
      "reports",
      "reports/assets",
      "reports/assets/reports.css",
      "reports/assets/reports.js",
      "reports/assets/uplot.css",
      "reports/assets/uplot.js",
      "reports/index.html",
      "theme",
      "theme/assets",
      "theme/assets/preview.css",
      "theme/assets/preview.js",
      "theme/assets/theme.css",
      "theme/assets/theme.js",
      "theme/index.html",
    ]);
    // No staging or previous folder is left beside dist/.
    expect(readdirSync(dir).sort()).toEqual(["dist", "package.json", "scripts", "src", "vite.config.ts"]);
  }, 60_000);

  test("skips the build when nothing changed, and rebuilds after a source change", async () => {
    const before = statSync(page).mtimeMs;
    expect(await buildStaffPagesIfStale(dir)).toEqual({ built: false, reason: null });
    expect(statSync(page).mtimeMs).toBe(before);
    appendFileSync(entry, '\nconsole.info("a change");\n');
    expect(staffPagesStaleReason(dir)).toBe("their sources changed");
    expect(await buildStaffPagesIfStale(dir)).toEqual({ built: true, reason: "their sources changed" });
    expect(readFileSync(join(dir, "dist/merchandising/assets/merchandising.js"), "utf8")).toContain("a change");
  }, 60_000);

  test("a failed build reports Vite's error and leaves the previous pages in place", async () => {
    const previous = readFileSync(page, "utf8");
    const source = readFileSync(entry, "utf8");
    writeFileSync(entry, source + "\nconst broken = ;\n");
    try {
      await expect(buildStaffPagesIfStale(dir)).rejects.toThrow(/merchandising\/merchandising\.ts did not build/);
      expect(readFileSync(page, "utf8")).toBe(previous);
      expect(staffPagesStaleReason(dir)).toBe("their sources changed");
      expect(readdirSync(dir).sort()).toEqual(["dist", "package.json", "scripts", "src", "vite.config.ts"]);
    } finally {
      writeFileSync(entry, source);
    }
  }, 60_000);
});
