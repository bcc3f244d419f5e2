import { Elysia } from "elysia";
import { NOT_BUILT_MESSAGE, readStaffPageFile } from "@storefront-search/staff-pages/files";
import type { DemoCatalog, StoreEmbed } from "../demo-catalog.ts";
import { html, type SafeHtml } from "../html.ts";

/*
 * The theme page (/theme, built from staff-pages/src/theme): where a store's designer edits the widget's theme
 * tokens with a live preview of the results page, the typeahead, the similar-products carousel and the look popup
 * (/theme/preview/*: the store's own widget in frames), and saves them to the store's widget settings with the
 * admin key. Like the service's /reports page, the key is kept in sessionStorage only, and nothing on the pages is inline: the
 * Content-Security-Policy allows scripts, styles, images and requests from this origin only.
 */

const SOURCES = "script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'";
const PAGE_CSP = `default-src 'none'; ${SOURCES}; frame-src 'self'; form-action 'none'; frame-ancestors 'none'`;
const PREVIEW_CSP = `default-src 'none'; ${SOURCES}; form-action 'self'; frame-ancestors 'self'`;

const headers = (type: string, csp: string) => ({
  "content-type": type,
  "content-security-policy": csp,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
});
const HTML = "text/html; charset=utf-8";

/** The page (`file` null) or one of its assets, as staff-pages/dist has them; 503 with a JSON message when not built. */
function servePageFile(staffPagesDir: string, file: string | null): Response {
  const found = readStaffPageFile(staffPagesDir, "theme", file);
  if (found === "unknown") return new Response("Not found", { status: 404 });
  if (found === "not built")
    return Response.json({ message: NOT_BUILT_MESSAGE }, { status: 503, headers: { "cache-control": "no-store" } });
  return new Response(found.body, { headers: headers(found.type, PAGE_CSP) });
}

const VIEWS = ["results", "typeahead", "similar", "look"] as const;
type View = (typeof VIEWS)[number];

/** A store page as shoppers get it, cut down to what one preview shows. No analytics key: previews send no events. */
function previewPage(embed: StoreEmbed, view: View, productId: string): SafeHtml {
  const search = html`<form role="search" action="/search-results" method="get"><input type="search" name="q" aria-label="Search products" autocomplete="off"></form>`;
  const body: Record<View, SafeHtml> = {
    results: html`${search}<div id="product-search-results"></div>`,
    typeahead: search,
    similar: html`<div data-sfs-similar data-product-id="${productId}"></div>`,
    look: html`<div data-sfs-ctl data-product-id="${productId}"></div>`,
  };
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Preview: ${view}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/theme/assets/preview.css">
<script async src="/widget/v1/widget.js" data-store-id="${embed.storeId}" data-search-key="${embed.searchKey}"></script>
<script type="module" src="/theme/assets/preview.js"></script>
</head>
<body data-view="${view}">
<main>${body[view]}</main>
</body>
</html>`;
}

/** A top for the carousel and the looks (they complete a top best), else the newest product. */
function previewProduct(catalog: DemoCatalog): string {
  const newest = catalog.featured();
  return (newest.find((p) => /shirt|top|kurta/i.test(p.name)) ?? newest[0])?.id ?? "";
}

export function themePageRoutes(catalog: DemoCatalog, embed: StoreEmbed, staffPagesDir: string) {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "theme-page" })
    .get("/theme", () => servePageFile(staffPagesDir, null), hidden)
    .get("/theme/assets/:file", ({ params }) => servePageFile(staffPagesDir, params.file), hidden)
    .get(
      "/theme/preview/:view",
      ({ params, query }) => {
        const view = VIEWS.find((v) => v === params.view);
        if (!view) return new Response("Not found", { status: 404 });
        const productId = typeof query.product === "string" && query.product ? query.product : previewProduct(catalog);
        return new Response("<!doctype html>\n" + previewPage(embed, view, productId).value, { headers: headers(HTML, PREVIEW_CSP) });
      },
      hidden,
    );
}
