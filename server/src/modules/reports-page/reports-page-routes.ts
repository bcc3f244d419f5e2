import { Elysia } from "elysia";
import { serveStaffPageFile as serve } from "../staff-pages/staff-page-files.ts";

/*
 * The reports page for store staff (/reports): a static page (staff-pages/src/reports) whose script signs in with
 * the store's id and admin key (kept in sessionStorage) and reads GET /{v}/reports/*. uPlot is copied into the
 * build from node_modules like the docs page's Scalar: no CDN is reachable offline.
 */
export function reportsPageRoutes(staffPagesDir: string) {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "reports-page-routes" })
    .get("/reports", ({ request }) => serve(staffPagesDir, "reports", null, request), {
      detail: { summary: "The reports page for store staff (HTML; signs in with the store id and admin key)", tags: ["Analytics"] },
    })
    .get("/reports/assets/:file", ({ params, request }) => serve(staffPagesDir, "reports", params.file, request), hidden);
}
