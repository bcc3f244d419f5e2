import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { ifNoneMatch, shortHash } from "../../http/etag.ts";

/*
 * The pages we serve to store staff (/reports, /merchandising): static files whose scripts sign in with the store
 * id and admin key (kept in sessionStorage) and call the API. Nothing on them is inline, so the
 * Content-Security-Policy allows scripts, styles and requests from this origin only; their assets are revalidated
 * on every use (ETag), so a deployment's new page is seen at once.
 */

export const STAFF_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": STAFF_PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

export const HTML = "text/html; charset=utf-8";
export const JS = "text/javascript; charset=utf-8";
export const CSS = "text/css; charset=utf-8";

export interface PageAsset {
  body: string;
  type: string;
  etag: string;
}

export const pageAsset = (body: string, type: string): PageAsset => ({ body, type, etag: `"${shortHash(body)}"` });

/** A file of `dir` (or at an absolute path), as it is. */
export const fileIn = (dir: string, file: string) => readFileSync(resolve(dir, file), "utf8");

/** A page's TypeScript, transpiled for browsers (one file, no imports). */
export const browserScript = (dir: string, file: string) =>
  new Bun.Transpiler({ loader: "ts", target: "browser" }).transformSync(fileIn(dir, file));

/** A page's TypeScript with what it imports (staff-session.client.ts), bundled into one browser module. */
export async function bundledScript(dir: string, file: string): Promise<string> {
  const built = await Bun.build({ entrypoints: [resolve(dir, file)], target: "browser", format: "esm" });
  if (!built.success || !built.outputs[0]) throw new Error(`bundling ${file} failed: ${built.logs.map(String).join("; ")}`);
  return built.outputs[0].text();
}

/** A staff page's stylesheet: what the pages share (staff-page.css), then its own. */
export const staffPageCss = (dir: string, file: string) => `${fileIn(import.meta.dir, "staff-page.css")}\n${fileIn(dir, file)}`;

/** Where a staff page's HTML takes the sign-in form every such page shares (sign-in.html). */
const SIGN_IN = "<!-- sign-in -->";

/** A staff page's HTML, with the shared sign-in form in place of its marker. */
export function staffPageHtml(dir: string, file: string): string {
  const page = fileIn(dir, file);
  if (!page.includes(SIGN_IN)) throw new Error(`${file} has no ${SIGN_IN} marker`);
  return page.replace(SIGN_IN, () => fileIn(import.meta.dir, "sign-in.html").trimEnd());
}

export function servePageAsset(a: PageAsset, request: Request): Response {
  const headers = { ...SECURITY_HEADERS, "content-type": a.type, "cache-control": "no-cache", etag: a.etag };
  if (ifNoneMatch(request, a.etag)) return new Response(null, { status: 304, headers });
  return new Response(a.body, { headers });
}
