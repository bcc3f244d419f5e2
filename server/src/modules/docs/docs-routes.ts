import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { LATEST_API_VERSION } from "../../http/api-versions.ts";

/*
 * The OpenAPI document and its reference page. The page's script is served by us: no CDN is reachable offline.
 * Scalar's defaults reach out (fonts from fonts.scalar.com, "Try it" requests through proxy.scalar.com, telemetry)
 * and add its own products to the page (an "Ask AI" agent, a "Deploy" toolbar on localhost, a "Powered by" link):
 * all turned off, so the page shows our API and nothing else and makes no request beyond this service
 * (e2e/docs-page.spec.ts).
 */

const SCALAR_CONFIGURATION = {
  cdn: "/docs/assets/scalar.js",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: "never",
  hideClientButton: true,
  // "Try it" requests go straight from the browser to this service (same origin), never through a proxy.
  proxyUrl: "",
  // The sidebar's footer links to the renderer's maker, with no setting to leave it out.
  customCss: 'a[href^="https://www.scalar.com"] { display: none; }',
};

const SCALAR_BUNDLE = Bun.file(Bun.resolveSync("@scalar/api-reference/browser/standalone.js", import.meta.dir));

export function docsRoutes() {
  return new Elysia({ name: "docs-routes" })
    .get(
      "/docs/assets/scalar.js",
      () =>
        new Response(SCALAR_BUNDLE, {
          headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
        }),
      { detail: { hide: true } },
    )
    .use(
      openapi({
        path: "/docs",
        specPath: "/docs/openapi.json",
        provider: "scalar",
        scalar: SCALAR_CONFIGURATION as never,
        exclude: { paths: ["/docs/assets/scalar.js"] },
        documentation: {
          info: {
            title: "Storefront product search",
            version: LATEST_API_VERSION,
            description:
              "Every path is served under each API version 0.9 to 1.9 (the {version} segment). Authenticate with the headers X-Service-Store-ID and X-Service-API-Key.",
          },
          components: {
            securitySchemes: {
              storeId: { type: "apiKey", in: "header", name: "X-Service-Store-ID" },
              apiKey: { type: "apiKey", in: "header", name: "X-Service-API-Key" },
            },
          },
          security: [{ storeId: [], apiKey: [] }],
        },
      }),
    );
}
