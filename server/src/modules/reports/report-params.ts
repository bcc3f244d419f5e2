import { ValidationError } from "../../errors.ts";
import type { ReportScope } from "./storage/reports-repository.ts";
import { dayOf } from "../analytics/event-facts.ts";

const DAY_MS = 86_400_000;
/** Days a report may span: a year and a bit, so a year-on-year range fits and a scan stays bounded. */
export const MAX_REPORT_DAYS = 400;
export const DEFAULT_REPORT_DAYS = 7;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface ReportParams {
  scope: Omit<ReportScope, "storeId">;
  limit: number;
  csv: boolean;
  /** searches: filter=no-results | no-clicks; products: sort=clicks | addToCarts | purchases. */
  filter: string | null;
  sort: string | null;
}

export const invalidParam = (name: string, problem: string) =>
  new ValidationError(`query.${name} ${problem}`, [{ path: `query.${name}`, problem }]);

function date(raw: string | undefined, name: string, fallback: string): string {
  if (raw === undefined || raw === "") return fallback;
  if (!DATE.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`)) || dayOf(Date.parse(`${raw}T00:00:00Z`)) !== raw) {
    throw invalidParam(name, `must be a date YYYY-MM-DD, got "${raw.slice(0, 40)}"`);
  }
  return raw;
}

function dimension(raw: string | undefined, name: string, upper = false): string | null {
  if (raw === undefined || raw === "") return null;
  if (raw.length > 64) throw invalidParam(name, "is longer than 64 characters");
  return upper ? raw.toUpperCase() : raw;
}

/** Parameters every report takes: from and to (UTC dates, inclusive; default the last 7 days), dimensions, limit, format. */
export function parseReportParams(
  q: Record<string, string | undefined>,
  now: number,
  limits: { fallback: number; max: number },
): ReportParams {
  const to = date(q.to, "to", dayOf(now));
  const from = date(q.from, "from", dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_REPORT_DAYS - 1) * DAY_MS));
  if (from > to) throw invalidParam("from", `is after to (${from} > ${to})`);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_REPORT_DAYS) throw invalidParam("from", `spans ${days} days; a report covers at most ${MAX_REPORT_DAYS}`);
  let limit = limits.fallback;
  if (q.limit !== undefined) {
    limit = Number(q.limit);
    if (!/^\d+$/.test(q.limit) || limit < 1 || limit > limits.max)
      throw invalidParam("limit", `must be a whole number from 1 to ${limits.max}, got "${q.limit.slice(0, 20)}"`);
  }
  if (q.format !== undefined && q.format !== "json" && q.format !== "csv")
    throw invalidParam("format", `must be json or csv, got "${q.format.slice(0, 20)}"`);
  return {
    scope: {
      from,
      to,
      region: dimension(q.region, "region"),
      language: dimension(q.language, "language"),
      currency: dimension(q.currency, "currency", true),
    },
    limit,
    csv: q.format === "csv",
    filter: q.filter ?? null,
    sort: q.sort ?? null,
  };
}

/** Every day of the scope, in order. */
export function daysOf(scope: { from: string; to: string }): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${scope.from}T00:00:00Z`); dayOf(t) <= scope.to; t += DAY_MS) out.push(dayOf(t));
  return out;
}
