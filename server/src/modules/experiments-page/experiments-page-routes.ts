import { Elysia } from "elysia";
import { serveStaffPageFile as serve } from "../staff-pages/staff-page-files.ts";

/*
 * The experiments page for store staff (/experiments, built from staff-pages/src/experiments): define, start, stop
 * and end A/B tests, estimate the shoppers one needs, and read its results, all through the admin API. Its writes
 * send the admin key from a browser, which the service accepts only from PUBLIC_URL's origin (auth-plugin.ts).
 */
export function experimentsPageRoutes(staffPagesDir: string) {
  const hidden = { detail: { hide: true } };
  return new Elysia({ name: "experiments-page-routes" })
    .get("/experiments", ({ request }) => serve(staffPagesDir, "experiments", null, request), {
      detail: {
        summary: "The experiments page for store staff (HTML; signs in with the store id and admin key)",
        tags: ["Experiments"],
      },
    })
    .get("/experiments/assets/:file", ({ params, request }) => serve(staffPagesDir, "experiments", params.file, request), hidden);
}
