import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { LATEST_API_VERSION } from "../../http/api-versions.ts";

/* The OpenAPI document and its reference page. The page's script is served by us: no CDN is reachable offline. */

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
        scalar: { cdn: "/docs/assets/scalar.js" } as never,
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
