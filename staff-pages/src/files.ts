import { readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { STAFF_PAGES, type StaffPageName } from "./pages.ts";

/*
 * The built staff pages as the servers read them: dist/<page>/index.html and dist/<page>/assets/<file>, from the
 * dist/ the server's configuration names (STAFF_PAGES_DIR). Only the files src/pages.ts names are ever read, so a
 * request cannot reach any other file of the disk.
 */

/** What a server answers with when dist/ has not been built: `npm start` and `npm run server` build it. */
export const NOT_BUILT_MESSAGE =
  "The staff pages are not built: run `npm run build -w staff-pages` (npm start and npm run server build them when stale)";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

export interface StaffPageFile {
  body: string;
  type: string;
}

/** The files a page serves under /<page>/assets/. */
export function assetNames(page: StaffPageName): string[] {
  const p = STAFF_PAGES[page] as { scripts: object; styles: object; libraries?: object };
  return [...Object.keys(p.scripts), ...Object.keys(p.styles), ...Object.keys(p.libraries ?? {})];
}

/**
 * A built file of a page (`file` null: its HTML), or "unknown" when the page serves no such asset, or "not built"
 * when dist/ lacks it. Read from disk on each call: a build renames a new dist/ into place while a server runs.
 */
export function readStaffPageFile(dist: string, page: StaffPageName, file: string | null): StaffPageFile | "unknown" | "not built" {
  if (file !== null && !assetNames(page).includes(file)) return "unknown";
  const path = file === null ? join(dist, page, "index.html") : join(dist, page, "assets", file);
  try {
    return { body: readFileSync(path, "utf8"), type: TYPES[extname(path)] ?? "application/octet-stream" };
  } catch {
    return "not built";
  }
}
