import { Elysia } from "elysia";
import { browserScript, CSS, fileIn, HTML, JS, pageAsset, servePageAsset, type PageAsset } from "../staff-pages/staff-page-assets.ts";

/*
 * The merchandising page for store staff (/merchandising): query rules and synonyms, a product picker for pins
 * and hides, and a preview of a draft rule beside the live search, all through the admin API. Its writes send the
 * admin key from a browser, which the service accepts only from PUBLIC_URL's origin (auth-plugin.ts).
 */

const here = (file: string) => fileIn(import.meta.dir, file);

/** Read (and the script transpiled) once, on the first request: they change only with a deployment. */
let assets: Record<"page" | "script" | "style", PageAsset> | null = null;
function loadAssets() {
  assets ??= {
    page: pageAsset(here("merchandising-page.html"), HTML),
    script: pageAsset(browserScript(import.meta.dir, "merchandising-page.client.ts"), JS),
    style: pageAsset(here("merchandising-page.css"), CSS),
  };
  return assets;
}

export function merchandisingPageRoutes() {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "merchandising-page-routes" })
    .get("/merchandising", ({ request }) => servePageAsset(loadAssets().page, request), {
      detail: { summary: "The merchandising page for store staff (HTML; signs in with the store id and admin key)", tags: ["Merchandising"] },
    })
    .get("/merchandising/assets/merchandising.js", ({ request }) => servePageAsset(loadAssets().script, request), hidden)
    .get("/merchandising/assets/merchandising.css", ({ request }) => servePageAsset(loadAssets().style, request), hidden);
}
