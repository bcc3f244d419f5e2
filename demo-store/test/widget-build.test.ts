import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { appendFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../server/test/support/test-server.ts";
import { buildWidgetIfStale, staleReason, WIDGET_DIR } from "../../widget/scripts/build-if-stale.ts";

/*
 * The head script is built when missing or stale and only then (`npm start`, `npm run server`). On a copy of the
 * widget's sources in a temp folder: the real widget/dist is read by other suites meanwhile.
 */

const ROOT = join(WIDGET_DIR, "..");
const outer = tempDir("sfs-widget-");
const widget = join(outer, "widget");
const script = join(widget, "dist/widget.js");
const entry = join(widget, "src/index.ts");

beforeAll(() => {
  for (const part of ["src", "scripts", "vite.config.ts", "package.json"])
    cpSync(join(WIDGET_DIR, part), join(widget, part), { recursive: true });
  // Resolved as in the repository: the copy's imports (vite, lit, ky) find the installed dependencies.
  symlinkSync(join(ROOT, "node_modules"), join(outer, "node_modules"));
  // The size budget's plugin is shared with the other workspaces' builds, from the repository's scripts/.
  cpSync(join(ROOT, "scripts"), join(outer, "scripts"), { recursive: true });
  // Vite's TypeScript transform reads the nearest tsconfig.json, the repository's: without it class fields compile
  // to defineProperty calls (useDefineForClassFields) and the copy builds a larger script than the real build.
  cpSync(join(ROOT, "tsconfig.json"), join(outer, "tsconfig.json"));
});
afterAll(() => rmSync(outer, { recursive: true, force: true }));

describe("build-if-stale", () => {
  test("builds when the script is missing, with the size budget's report", async () => {
    expect(staleReason(widget)).toBe("dist/widget.js is missing");
    const result = await buildWidgetIfStale(widget);
    expect(result).toMatchObject({ built: true, reason: "dist/widget.js is missing" });
    expect(result.output).toMatch(/widget\.js: .* gzipped \(budget 30\.00 KB gzipped\)/);
    const built = readFileSync(script, "utf8");
    expect(built).toContain("[storefront-search]");
    expect(built).not.toContain("Lit is in dev mode"); // a production build, though bun test sets NODE_ENV=test
    expect(staleReason(widget)).toBeNull();
    // The staging folder is gone; only the script and its stamp are left.
    expect(readdirSync(join(widget, "dist")).sort()).toEqual(["widget.js", "widget.js.stamp.json"]);
  }, 60_000);

  test("skips the build when nothing changed", async () => {
    const before = statSync(script).mtimeMs;
    expect(await buildWidgetIfStale(widget)).toMatchObject({ built: false, reason: null });
    expect(statSync(script).mtimeMs).toBe(before);
  });

  test("rebuilds after a source change, a change of the compiler options, and after the script was changed by other means", async () => {
    appendFileSync(entry, "\n// a change\n");
    expect(staleReason(widget)).toBe("its sources changed");
    expect(await buildWidgetIfStale(widget)).toMatchObject({ built: true, reason: "its sources changed" });
    expect(staleReason(widget)).toBeNull();

    // The repository's compiler options are an input too (they decide how class fields compile).
    appendFileSync(join(outer, "tsconfig.json"), "\n");
    expect(staleReason(widget)).toBe("its sources changed");
    expect(await buildWidgetIfStale(widget)).toMatchObject({ built: true, reason: "its sources changed" });

    appendFileSync(script, "\n/* edited by hand */\n");
    expect(staleReason(widget)).toBe("dist/widget.js was changed after its build");
    expect(await buildWidgetIfStale(widget)).toMatchObject({ built: true });
    expect(readFileSync(script, "utf8")).not.toContain("edited by hand");
  }, 60_000);

  test("a failed build reports Vite's error and leaves the previous script in place", async () => {
    const previous = readFileSync(script, "utf8");
    const source = readFileSync(entry, "utf8");
    writeFileSync(entry, source + "\nconst broken = ;\n");
    try {
      await expect(buildWidgetIfStale(widget)).rejects.toThrow(/The head script build failed \(its sources changed\)/);
      expect(readFileSync(script, "utf8")).toBe(previous);
      expect(readdirSync(join(widget, "dist")).sort()).toEqual(["widget.js", "widget.js.stamp.json"]);
      expect(staleReason(widget)).toBe("its sources changed");
    } finally {
      writeFileSync(entry, source);
    }
    expect(existsSync(script)).toBe(true);
  }, 60_000);
});
