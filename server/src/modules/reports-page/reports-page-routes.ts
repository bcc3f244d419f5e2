import { Elysia } from "elysia";
import {
  browserScript,
  CSS,
  fileIn,
  HTML,
  JS,
  pageAsset,
  servePageAsset as serve,
  staffPageCss,
  staffPageHtml,
  type PageAsset,
} from "../staff-pages/staff-page-assets.ts";

/*
 * The reports page for store staff (/reports): a static page whose script signs in with the store's id and admin
 * key (kept in sessionStorage) and reads GET /{v}/reports/*. uPlot is served from node_modules like the docs
 * page's Scalar: no CDN is reachable offline.
 */

const library = (file: string) => fileIn(import.meta.dir, Bun.resolveSync(`uplot/dist/${file}`, import.meta.dir));

/** Read (and the page's script transpiled) once, on the first request: they change only with a deployment. */
let assets: Record<"page" | "script" | "style" | "uplot" | "uplotStyle", PageAsset> | null = null;
function loadAssets() {
  assets ??= {
    page: pageAsset(staffPageHtml(import.meta.dir, "reports-page.html"), HTML),
    script: pageAsset(browserScript(import.meta.dir, "reports-page.client.ts"), JS),
    style: pageAsset(staffPageCss(import.meta.dir, "reports-page.css"), CSS),
    uplot: pageAsset(library("uPlot.iife.min.js"), JS),
    uplotStyle: pageAsset(library("uPlot.min.css"), CSS),
  };
  return assets;
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
