import { Elysia } from "elysia";
import type { StaffPageName } from "@storefront-search/staff-pages/pages";
import { serveStaffPageFile } from "./staff-page-files.ts";

/*
 * The pages for store staff the service serves (the theme page is the demo store's), each at /<page> with its
 * assets under /<page>/assets/. Each signs in with the store id and admin key (kept in sessionStorage) and works
 * through the admin API; writes with the admin key from a browser are accepted only from PUBLIC_URL's origin
 * (auth-plugin.ts).
 */
const SERVED: readonly { page: StaffPageName; summary: string; tag: string }[] = [
  { page: "reports", summary: "The reports page for store staff", tag: "Analytics" },
  {
    page: "merchandising",
    summary: "The merchandising page for store staff: query rules, synonyms, pins and hides, a preview of a draft",
    tag: "Merchandising",
  },
  {
    page: "experiments",
    summary: "The experiments page for store staff: define, start, stop and end A/B tests, and read their results",
    tag: "Experiments",
  },
];

export function staffPageRoutes(staffPagesDir: string) {
  const app = new Elysia({ name: "staff-page-routes" });
  for (const { page, summary, tag } of SERVED) {
    app
      .get(`/${page}`, ({ request }) => serveStaffPageFile(staffPagesDir, page, null, request), {
        detail: { summary: `${summary} (HTML; signs in with the store id and admin key)`, tags: [tag] },
      })
      .get(`/${page}/assets/:file`, ({ params, request }) => serveStaffPageFile(staffPagesDir, page, params.file, request), {
        detail: { hide: true },
      });
  }
  return app;
}
