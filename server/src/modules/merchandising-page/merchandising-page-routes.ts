import { Elysia } from "elysia";
import { serveStaffPageFile as serve } from "../staff-pages/staff-page-files.ts";

/*
 * The merchandising page for store staff (/merchandising, built from staff-pages/src/merchandising): query rules
 * and synonyms, a product picker for pins and hides, and a preview of a draft rule beside the live search, all
 * through the admin API. Its writes send the admin key from a browser, which the service accepts only from
 * PUBLIC_URL's origin (auth-plugin.ts).
 */
export function merchandisingPageRoutes(staffPagesDir: string) {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "merchandising-page-routes" })
    .get("/merchandising", ({ request }) => serve(staffPagesDir, "merchandising", null, request), {
      detail: {
        summary: "The merchandising page for store staff (HTML; signs in with the store id and admin key)",
        tags: ["Merchandising"],
      },
    })
    .get("/merchandising/assets/:file", ({ params, request }) => serve(staffPagesDir, "merchandising", params.file, request), hidden);
}
