import { NOT_BUILT_MESSAGE, readStaffPageFile } from "@storefront-search/staff-pages/files";
import type { StaffPageName } from "@storefront-search/staff-pages/pages";
import { ifNoneMatch, shortHash } from "../../http/etag.ts";

/*
 * The pages we serve to store staff (/reports, /merchandising), built by the staff-pages workspace into
 * staff-pages/dist and served here as static files. Nothing on them is inline, so the Content-Security-Policy
 * allows scripts, styles and requests from this origin only; they are revalidated on every use (ETag), so a
 * deployment's new page is seen at once.
 */

export const STAFF_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const SECURITY_HEADERS = {
  "content-security-policy": STAFF_PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** A page's HTML (`file` null) or one of its assets from `dist`; 503 with a JSON message when it is not built. */
export function serveStaffPageFile(dist: string, page: StaffPageName, file: string | null, request: Request): Response {
  const found = readStaffPageFile(dist, page, file);
  if (found === "unknown") return Response.json({ message: "Not found" }, { status: 404 });
  if (found === "not built")
    return Response.json({ message: NOT_BUILT_MESSAGE }, { status: 503, headers: { "cache-control": "no-store" } });
  const etag = `"${shortHash(found.body)}"`;
  const headers = { ...SECURITY_HEADERS, "content-type": found.type, "cache-control": "no-cache", etag };
  if (ifNoneMatch(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(found.body, { headers });
}
