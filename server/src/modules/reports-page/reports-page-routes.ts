import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Elysia } from "elysia";
import { ifNoneMatch, shortHash } from "../../http/etag.ts";

/*
 * The reports page for store staff (/reports): a static page whose script signs in with the store's id and admin
 * key (kept in sessionStorage) and reads GET /{v}/reports/*. The page and its assets are served by us, uPlot
 * from node_modules like the docs page's Scalar: no CDN is reachable offline. Nothing on the page is inline, so
 * the Content-Security-Policy allows scripts and styles from this origin only.
 */

export const REPORTS_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": REPORTS_PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

const HTML = "text/html; charset=utf-8";
const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

interface Asset {
  body: string;
  type: string;
  etag: string;
}

const asset = (body: string, type: string): Asset => ({ body, type, etag: `"${shortHash(body)}"` });
const here = (file: string) => readFileSync(join(import.meta.dir, file), "utf8");
const library = (file: string) => readFileSync(Bun.resolveSync(`uplot/dist/${file}`, import.meta.dir), "utf8");

/** Read (and the page's script transpiled) once, on the first request: they change only with a deployment. */
let assets: Record<"page" | "script" | "style" | "uplot" | "uplotStyle", Asset> | null = null;
function loadAssets() {
  assets ??= {
    page: asset(here("reports-page.html"), HTML),
    script: asset(new Bun.Transpiler({ loader: "ts", target: "browser" }).transformSync(here("reports-page.client.ts")), JS),
    style: asset(here("reports-page.css"), CSS),
    uplot: asset(library("uPlot.iife.min.js"), JS),
    uplotStyle: asset(library("uPlot.min.css"), CSS),
  };
  return assets;
}

/** Revalidated on every use (ETag), so a deployment's new page and script are seen at once. */
function serve(a: Asset, request: Request): Response {
  const headers = { ...SECURITY_HEADERS, "content-type": a.type, "cache-control": "no-cache", etag: a.etag };
  if (ifNoneMatch(request, a.etag)) return new Response(null, { status: 304, headers });
  return new Response(a.body, { headers });
}

export function reportsPageRoutes() {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "reports-page-routes" })
    .get("/reports", ({ request }) => serve(loadAssets().page, request), {
      detail: { summary: "The reports page for store staff (HTML; signs in with the store id and admin key)", tags: ["Analytics"] },
    })
    .get("/reports/assets/reports.js", ({ request }) => serve(loadAssets().script, request), hidden)
    .get("/reports/assets/reports.css", ({ request }) => serve(loadAssets().style, request), hidden)
    .get("/reports/assets/uplot.js", ({ request }) => serve(loadAssets().uplot, request), hidden)
    .get("/reports/assets/uplot.css", ({ request }) => serve(loadAssets().uplotStyle, request), hidden);
}
