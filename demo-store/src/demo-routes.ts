import { Elysia } from "elysia";
import type { Product } from "@storefront-search/contract";
import type { DemoCatalog, StoreEmbed } from "./demo-catalog.ts";
import { IMAGE_CONTENT_TYPE, parseImagePath, renderImage } from "./catalog/images.ts";
import { CART_SCRIPT } from "./cart-script.ts";
import { html, htmlResponse, rawHtml, type SafeHtml } from "./html.ts";
import { instantsearchPageRoutes } from "./instantsearch-page/instantsearch-page-routes.ts";
import { themePageRoutes } from "./theme-page/theme-page-routes.ts";

/*
 * The demo storefront, served beside the API on the same port: plain server-rendered pages of a store that
 * uses the service. Its product data is the converted catalog it fed to the API.
 */

/** Seconds a page that cannot answer yet asks the browser to wait before it asks again. */
const RETRY_AFTER_S = 2;

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1f1f1f; background: #fafaf8; }
  header { display: flex; gap: 1.5rem; align-items: center; padding: 1rem 2rem; background: #fff; border-bottom: 1px solid #e5e3de; }
  header a.brand { font-weight: 700; font-size: 1.25rem; color: inherit; text-decoration: none; }
  header form { flex: 1; display: flex; max-width: 36rem; }
  header input { flex: 1; padding: .5rem .75rem; font: inherit; border: 1px solid #b9b6ae; border-radius: 4px 0 0 4px; }
  header button { padding: .5rem 1rem; font: inherit; border: 0; background: #1f1f1f; color: #fff; border-radius: 0 4px 4px 0; }
  main { padding: 1.5rem 2rem; max-width: 72rem; margin: 0 auto; }
  .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 1.25rem; }
  .card { background: #fff; border: 1px solid #e5e3de; border-radius: 6px; padding: .75rem; color: inherit; text-decoration: none; }
  .card img, .product img { width: 100%; height: auto; display: block; }
  .price { font-weight: 600; } .was { color: #5c5c5c; text-decoration: line-through; margin-left: .5rem; font-weight: 400; }
  .add-to-cart, .place-order { padding: .6rem 1.25rem; font: inherit; border: 0; border-radius: 4px; background: #1f1f1f; color: #fff; cursor: pointer; }
  .place-order:disabled { opacity: .5; cursor: default; }
  .cart-list { list-style: none; padding: 0; } .cart-item { padding: .5rem 0; border-bottom: 1px solid #e5e3de; }
  .product { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 2rem; }
  @media (max-width: 40rem) { .product { grid-template-columns: 1fr; } header { flex-wrap: wrap; } }
`;

function layout(embed: StoreEmbed, title: string, body: SafeHtml, head: SafeHtml = html``): SafeHtml {
  return html`<html lang="en">
<head>
<meta charset="utf-8">${head}
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Demo Fashion Store</title>
<script async src="/widget/v1/widget.js" data-store-id="${embed.storeId}" data-search-key="${embed.searchKey}" data-analytics-key="${embed.analyticsKey}"></script>
<style>${rawHtml(STYLE)}</style>
<script>${rawHtml(CART_SCRIPT)}</script>
</head>
<body>
<header>
  <a class="brand" href="/">Demo Fashion Store</a>
  <form action="/search-results" method="get" role="search">
    <input type="search" name="q" id="store-search-input" placeholder="Search products" aria-label="Search products" autocomplete="off">
    <button type="submit">Search</button>
  </form>
  <a href="/cart" id="cart-link">Cart (<span id="cart-count">0</span>)</a>
  <a href="/docs">API docs</a>
  <a href="/theme">Search theme</a>
</header>
<main>${body}</main>
</body>
</html>`;
}

/**
 * A page asked for before start-up brought what it shows: says so, and reloads by itself (Retry-After for clients,
 * a refresh for browsers) rather than answering "No such product" for a product that is on its way.
 */
function startingPage(embed: StoreEmbed, progress: { loaded: number; total: number | null }): Response {
  const howFar =
    progress.total === null
      ? "The store is starting."
      : `The store is starting: ${progress.loaded.toLocaleString("en")} of ${progress.total.toLocaleString("en")} products loaded (${Math.floor((100 * progress.loaded) / Math.max(progress.total, 1))}%).`;
  const page = layout(
    embed,
    "Starting",
    html`<h1>One moment</h1><p role="status">${howFar} This page reloads by itself.</p>`,
    html`<meta http-equiv="refresh" content="${String(RETRY_AFTER_S)}">`,
  );
  const response = htmlResponse(page, 503);
  response.headers.set("retry-after", String(RETRY_AFTER_S));
  return response;
}

const formatPrice = (n: number) => `₹${n.toLocaleString("en-IN")}`;

/** The price paid for the product (its cheapest SKU), if it has one. */
function minPrice(p: Product): number | undefined {
  const prices = (p.skus ?? []).map((s) => s.promoPrice ?? s.price).filter((x): x is number => x !== undefined);
  return prices.length ? Math.min(...prices) : undefined;
}

function priceOf(p: Product): SafeHtml {
  const prices = (p.skus ?? []).map((s) => s.promoPrice ?? s.price).filter((x): x is number => x !== undefined);
  const initial = (p.skus ?? []).map((s) => s.initialPrice).filter((x): x is number => x !== undefined);
  if (!prices.length) return html``;
  const min = Math.min(...prices);
  const was = initial.length ? Math.max(...initial) : undefined;
  return html`<span class="price">${formatPrice(min)}${was && was > min ? html`<span class="was">${formatPrice(was)}</span>` : ""}</span>`;
}

function card(p: Product): SafeHtml {
  const image = p.media?.[0];
  return html`<a class="card" href="/products/${encodeURIComponent(p.id)}">
    ${image ? html`<img src="${image.url}" alt="${image.altText ?? p.name}" width="400" height="400" loading="lazy">` : ""}
    <div>${p.brand ?? ""}</div><div>${p.name}</div>${priceOf(p)}</a>`;
}

function productPage(embed: StoreEmbed, p: Product): SafeHtml {
  const image = p.media?.[0];
  return layout(
    embed,
    p.name,
    html`<article class="product">
      ${image ? html`<img src="${image.highResUrl ?? image.url}" alt="${image.altText ?? p.name}" width="800" height="800">` : html`<div></div>`}
      <div>
        <p>${p.brand ?? ""}</p>
        <h1>${p.name}</h1>
        <p>${priceOf(p)}</p>
        <p><button type="button" id="add-to-cart" class="add-to-cart" data-product-id="${p.id}" data-name="${p.name}" data-price="${String(minPrice(p) ?? 0)}">Add to cart</button>
          <span id="cart-status" role="status"></span> <a href="/cart">View cart</a></p>
        <p>${(p.categories ?? []).join(" › ")}</p>
        ${p.description ? html`<p>${p.description}</p>` : ""}
        ${p.features?.length ? html`<ul>${p.features.map((f) => html`<li>${f}</li>`)}</ul>` : ""}
      </div>
    </article>
    <div data-sfs-similar data-product-id="${p.id}" data-variant-id="${p.variations?.[0]?.id ?? ""}"></div>
    <div data-sfs-ctl data-product-id="${p.id}" data-variant-id="${p.variations?.[0]?.id ?? ""}"></div>
    <div data-sfs-recommend="bought-together" data-product-id="${p.id}"></div>
    <div data-sfs-recommend="recently-viewed"></div>`,
  );
}

/** `staffPagesDir`: the built staff pages (staff-pages/dist), where the theme page is read from. */
export function demoStoreRoutes(catalog: DemoCatalog, embed: StoreEmbed, staffPagesDir: string) {
  return new Elysia({ name: "demo-store" })
    .use(themePageRoutes(catalog, embed, staffPagesDir))
    .use(instantsearchPageRoutes(embed))
    .get(
      "/",
      () => {
        const starting = catalog.starting();
        if (starting && catalog.size === 0) return startingPage(embed, starting);
        return htmlResponse(
          layout(
            embed,
            "Home",
            html`<h1>New arrivals</h1>
              <p>${catalog.size.toLocaleString("en")} real products from public fashion data sets, searchable through the service.</p>
              <div data-sfs-recommend="trending"></div>
              <div data-sfs-recommend="for-you"></div>
              <div class="grid">${catalog.featured().map(card)}</div>`,
          ),
        );
      },
      { detail: { hide: true } },
    )
    .get(
      "/search-results",
      () => htmlResponse(layout(embed, "Search results", html`<h1>Search results</h1><div id="product-search-results"></div>`)),
      { detail: { hide: true } },
    )
    .get(
      "/cart",
      () =>
        htmlResponse(
          layout(
            embed,
            "Cart",
            html`<h1>Your cart</h1><div id="cart-items"></div><p><a href="/checkout" id="go-to-checkout">Go to checkout</a></p>`,
          ),
        ),
      { detail: { hide: true } },
    )
    .get(
      "/checkout",
      () =>
        htmlResponse(
          layout(
            embed,
            "Checkout",
            html`<h1>Checkout</h1><div id="cart-items"></div>
              <p><button type="button" id="place-order" class="place-order">Place order</button></p>
              <p id="order-confirmation" role="status" hidden></p>`,
          ),
        ),
      { detail: { hide: true } },
    )
    .get(
      "/products/:id",
      ({ params }) => {
        const p = catalog.get(params.id);
        if (p) return htmlResponse(productPage(embed, p));
        const starting = catalog.starting();
        return starting ? startingPage(embed, starting) : htmlResponse(layout(embed, "Not found", html`<h1>No such product</h1>`), 404);
      },
      { detail: { hide: true } },
    )
    .get(
      "/images/*",
      ({ request }) => {
        const url = new URL(request.url);
        const parsed = parseImagePath(url.pathname, url.search);
        if (!parsed) return new Response("Not found", { status: 404, headers: { "content-type": "text/plain" } });
        return new Response(renderImage(parsed), {
          headers: { "content-type": IMAGE_CONTENT_TYPE, "cache-control": "public, max-age=31536000, immutable" },
        });
      },
      { detail: { hide: true } },
    );
}
