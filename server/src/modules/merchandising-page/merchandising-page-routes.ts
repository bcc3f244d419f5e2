import { Elysia } from "elysia";
import {
  bundledScript,
  CSS,
  HTML,
  JS,
  pageAsset,
  servePageAsset,
  staffPageCss,
  staffPageHtml,
  type PageAsset,
} from "../staff-pages/staff-page-assets.ts";

/*
 * The merchandising page for store staff (/merchandising): query rules and synonyms, a product picker for pins
 * and hides, and a preview of a draft rule beside the live search, all through the admin API. Its writes send the
 * admin key from a browser, which the service accepts only from PUBLIC_URL's origin (auth-plugin.ts).
 */

/** Read (and the script bundled) once, on the first request: they change only with a deployment. */
let assets: Promise<Record<"page" | "script" | "style", PageAsset>> | null = null;
function loadAssets() {
  assets ??= bundledScript(import.meta.dir, "merchandising-page.client.ts").then((script) => ({
    page: pageAsset(staffPageHtml(import.meta.dir, "merchandising-page.html"), HTML),
    script: pageAsset(script, JS),
    style: pageAsset(staffPageCss(import.meta.dir, "merchandising-page.css"), CSS),
  }));
  // A failed build is tried again on the next request, not kept.
  assets.catch(() => (assets = null));
  return assets;
}

export function merchandisingPageRoutes() {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "merchandising-page-routes" })
    .get("/merchandising", async ({ request }) => servePageAsset((await loadAssets()).page, request), {
      detail: {
        summary: "The merchandising page for store staff (HTML; signs in with the store id and admin key)",
        tags: ["Merchandising"],
      },
    })
    .get("/merchandising/assets/merchandising.js", async ({ request }) => servePageAsset((await loadAssets()).script, request), hidden)
    .get("/merchandising/assets/merchandising.css", async ({ request }) => servePageAsset((await loadAssets()).style, request), hidden);
}
