import { Elysia, t } from "elysia";
import { authPlugin, type AuthDeps } from "../stores/auth-plugin.ts";
import { documentedParam } from "../../http/query-params.ts";
import { toCsv } from "./report-csv.ts";
import { parseReportParams } from "./report-params.ts";
import { REPORT_NAMES, type ReportName } from "@storefront-search/contract";
import { REPORT_LIMITS, type ReportsService } from "./reports-service.ts";

export function reportsRoutes(deps: AuthDeps & { reports: ReportsService }) {
  return new Elysia({ prefix: "/:version" }).use(authPlugin(deps)).get(
    "/reports/:name",
    async ({ params, query, caller }) => {
      const limits = REPORT_LIMITS[params.name as ReportName] ?? REPORT_LIMITS.overview;
      const p = parseReportParams(query as Record<string, string>, deps.now(), limits);
      const report = await deps.reports.report(caller.store.id, params.name, p);
      if (!p.csv) return report.json;
      return new Response(toCsv(report.table), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${params.name}-${p.scope.from}-${p.scope.to}.csv"`,
        },
      });
    },
    {
      auth: "admin",
      query: t.Object(
        {
          from: documentedParam("First day, YYYY-MM-DD (UTC); default 6 days before to"),
          to: documentedParam("Last day, YYYY-MM-DD (UTC), inclusive; default today"),
          region: documentedParam("Only events of this region"),
          language: documentedParam("Only events of this language"),
          currency: documentedParam("Only events of this currency (ISO 4217)"),
          limit: documentedParam("Rows: default 100, at most 1000 (click-positions: clicked positions, lowest first)"),
          format: documentedParam("json (default) or csv"),
          filter: documentedParam("searches: no-results or no-clicks"),
          sort: documentedParam("products: clicks (default), addToCarts or purchases"),
        },
        { additionalProperties: true },
      ),
      detail: {
        summary: "Analytics reports",
        description: `Reports: ${REPORT_NAMES.join(", ")}. Definitions are on the reports page and in docs/analytics.md.`,
        tags: ["Analytics"],
      },
    },
  );
}
