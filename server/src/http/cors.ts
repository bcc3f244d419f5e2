/*
 * Browser routes (search, multi-search, suggestions, similarity, ctl, tracking, widget config) are called from store pages
 * on other origins. Preflights carry no credentials, so they cannot be checked per store: they are answered
 * for any origin, and the real request is checked against the store's allowed origins. Admin routes send no
 * CORS headers, so a browser can never read an admin response from another origin.
 */

const BROWSER_ROUTE = /^\/\d+\.\d+\/(search|multi-search|suggestions|similarity|ctl|tracking|widget-config)\/?$|^\/ctl\/?$/;

export function isBrowserRoute(pathname: string): boolean {
  return BROWSER_ROUTE.test(pathname);
}

export const ALLOWED_HEADERS = "content-type, x-service-store-id, x-service-api-key";

export function preflightResponse(origin: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, POST, OPTIONS",
      "access-control-allow-headers": ALLOWED_HEADERS,
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** A store's allowedOrigins setting: absent or containing "*" means any origin. */
export function originAllowed(origin: string, allowed: unknown): boolean {
  if (!Array.isArray(allowed) || allowed.length === 0 || allowed.includes("*")) return true;
  return allowed.includes(origin);
}
