import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Elysia } from "elysia";
import type { StoreEmbed } from "../demo-catalog.ts";
import { html, htmlResponse } from "../html.ts";

/*
 * /instantsearch: the demo store's search page built on InstantSearch.js (and an Autocomplete box) instead of the
 * head script, to show a store keeping its InstantSearch UI with the service's client. Both libraries are the real
 * ones, from the client workspace's devDependencies, served here from node_modules (never from a CDN: the page
 * works offline).
 * The page's script is plain JavaScript that imports the service's client module from /widget/v1/.
 */

const fromClientWorkspace = createRequire(join(import.meta.dir, "../../../instantsearch-client/package.json"));

const JS = "text/javascript; charset=utf-8";
/** The page's files by their name under /instantsearch/assets/: where each is read from (per request: a demo). */
const ASSETS: Record<string, { path: () => string; type: string }> = {
  "instantsearch.js": { path: () => fromClientWorkspace.resolve("instantsearch.js/dist/instantsearch.production.min.js"), type: JS },
  "autocomplete.js": { path: () => fromClientWorkspace.resolve("@algolia/autocomplete-js/dist/umd/index.production.js"), type: JS },
  "page.js": { path: () => join(import.meta.dir, "instantsearch-page.js"), type: JS },
  "page.css": { path: () => join(import.meta.dir, "instantsearch-page.css"), type: "text/css; charset=utf-8" },
};

function page(embed: StoreEmbed) {
  return html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>InstantSearch · Demo Fashion Store</title>
<link rel="stylesheet" href="/instantsearch/assets/page.css">
<script src="/instantsearch/assets/instantsearch.js"></script>
<script src="/instantsearch/assets/autocomplete.js"></script>
<script type="module" src="/instantsearch/assets/page.js"></script>
</head>
<body>
<header><a class="brand" href="/">Demo Fashion Store</a> <div id="autocomplete"></div></header>
<main id="instantsearch" data-store-id="${embed.storeId}" data-search-key="${embed.searchKey}">
  <aside>
    <h2>Category</h2><div id="categories"></div>
    <h2>Brand</h2><div id="brands"></div>
    <h2>Price</h2><div id="price"></div>
    <div id="more-facets"></div>
  </aside>
  <section>
    <h1>Search with InstantSearch.js</h1>
    <div id="searchbox"></div>
    <div class="toolbar"><div id="stats"></div><div id="sort"></div></div>
    <div id="hits"></div>
    <div id="pagination"></div>
  </section>
</main>
</body>
</html>`;
}

export function instantsearchPageRoutes(embed: StoreEmbed) {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "demo-instantsearch-page" })
    .get("/instantsearch", () => htmlResponse(page(embed)), hidden)
    .get(
      "/instantsearch/assets/:file",
      ({ params }) => {
        const asset = Object.hasOwn(ASSETS, params.file) ? ASSETS[params.file]! : null;
        if (!asset) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
        return new Response(readFileSync(asset.path()), { headers: { "content-type": asset.type, "cache-control": "no-cache" } });
      },
      hidden,
    );
}
