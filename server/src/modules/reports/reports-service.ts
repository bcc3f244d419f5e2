import {
  RECOMMENDATION_PLACEMENTS,
  REPORT_NAMES,
  type OverviewFigures,
  type ReportName,
  type ReportPeriod,
  type Reports,
  type Revenue,
} from "@storefront-search/contract";
import type { ReportScope, ReportsRepository } from "./storage/reports-repository.ts";
import { NotFoundError } from "../../errors.ts";
import { UNKNOWN_CURRENCY } from "../analytics/event-facts.ts";
import { MAX_COUNTED_POSITION } from "../analytics/report-counter.ts";
import { daysOf, invalidParam, type ReportParams } from "./report-params.ts";

/*
 * The reports a store reads (docs/analytics.md "Reports" states the definitions): sums over the daily aggregates of a
 * date range and dimension filter. Each report is JSON (the contract's Reports), and a table for format=csv.
 */

/** Limits per report: default and most rows. */
export const REPORT_LIMITS: Record<ReportName, { fallback: number; max: number }> = {
  overview: { fallback: 100, max: 1000 },
  searches: { fallback: 100, max: 1000 },
  products: { fallback: 100, max: 1000 },
  "click-positions": { fallback: 100, max: MAX_COUNTED_POSITION },
  recommendations: { fallback: 100, max: 1000 },
  preprod: { fallback: 100, max: 1000 },
};

export interface Report<N extends ReportName = ReportName> {
  json: Reports[N];
  /** The report's main table, for format=csv. */
  table: Record<string, string | number | null>[];
}

/** A share, or null when nothing was there to share (no searches, no clicks). */
const rate = (part: number, whole: number): number | null => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const money = (v: number) => Math.round(v * 100) / 100;
const average = (sum: number, n: number): number | null => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

type Counts = Map<string, number>;

function overviewFigures(c: Counts, visitors: { users: number; sessions: number }, revenue: Revenue): OverviewFigures {
  const n = (name: string) => c.get(name) ?? 0;
  const searches = n("searches");
  const withResults = searches - n("noResultSearches");
  return {
    searches,
    users: visitors.users,
    sessions: visitors.sessions,
    noResultRate: rate(n("noResultSearches"), searches),
    clickThroughRate: rate(n("clickedSearches"), withResults),
    conversionRate: rate(n("convertedSearches"), withResults),
    addToCartRate: rate(n("cartedSearches"), withResults),
    orders: n("orders"),
    revenue,
    averageClickPosition: average(n("positionSum"), n("positions")),
  };
}

/** Revenue keyed by currency code, unknown currencies as XXX. */
const revenueObject = (rows: { currency: string; value: number }[]): Revenue => {
  const out: Revenue = {};
  for (const r of rows) out[r.currency || UNKNOWN_CURRENCY] = money((out[r.currency || UNKNOWN_CURRENCY] ?? 0) + r.value);
  return out;
};

/** One row per currency as CSV columns revenue_EUR, revenue_USD, ... */
const revenueColumns = (revenue: Revenue) => Object.fromEntries(Object.entries(revenue).map(([c, v]) => [`revenue_${c}`, v]));

export class ReportsService {
  constructor(
    private readonly repo: ReportsRepository,
    /** Counts events acknowledged but not yet aggregated, so a report includes them. */
    private readonly catchUp: () => Promise<unknown>,
  ) {}

  async report(storeId: string, name: string, p: ReportParams): Promise<Report> {
    if (!(REPORT_NAMES as readonly string[]).includes(name)) {
      throw new NotFoundError(`No report "${name.slice(0, 60)}"; reports are ${REPORT_NAMES.join(", ")}`);
    }
    await this.catchUp();
    const scope: ReportScope = { storeId, ...p.scope };
    const range = { from: scope.from, to: scope.to };
    switch (name as ReportName) {
      case "overview":
        return this.overview(scope, range);
      case "searches":
        return this.searches(scope, p, range);
      case "products":
        return this.products(scope, p, range);
      case "click-positions":
        return this.clickPositions(scope, p, range);
      case "recommendations":
        return this.recommendations(scope, range);
      case "preprod":
        return this.preprod(scope, p, range);
    }
  }

  private async overview(scope: ReportScope, range: ReportPeriod): Promise<Report<"overview">> {
    const total: Counts = new Map();
    const perDay = new Map<string, Counts>(daysOf(scope).map((d) => [d, new Map()]));
    for (const r of await this.repo.dailyCounts(scope)) {
      total.set(r.metric, (total.get(r.metric) ?? 0) + r.value);
      perDay.get(r.day)?.set(r.metric, r.value);
    }
    const revenueRows = await this.repo.dailyRevenue(scope);
    const revenueByDay = new Map<string, typeof revenueRows>();
    for (const r of revenueRows) revenueByDay.set(r.day, [...(revenueByDay.get(r.day) ?? []), r]);
    const visitors = await this.repo.visitors(scope);
    const dayVisitors = new Map<string, { users: number; sessions: number }>();
    for (const v of visitors.daily) {
      const entry = dayVisitors.get(v.day) ?? { users: 0, sessions: 0 };
      entry[v.kind === "user" ? "users" : "sessions"] = v.n;
      dayVisitors.set(v.day, entry);
    }
    const daily = [...perDay].map(([date, counts]) => ({
      date,
      ...overviewFigures(counts, dayVisitors.get(date) ?? { users: 0, sessions: 0 }, revenueObject(revenueByDay.get(date) ?? [])),
    }));
    const json = {
      ...range,
      ...overviewFigures(total, { users: visitors.total.user, sessions: visitors.total.session }, revenueObject(revenueRows)),
      daily,
    };
    return { json, table: daily.map(({ revenue, ...d }) => ({ ...d, ...revenueColumns(revenue) })) };
  }

  private async searches(scope: ReportScope, p: ReportParams, range: ReportPeriod): Promise<Report<"searches">> {
    const filter = p.filter ?? "searches";
    if (filter !== "searches" && filter !== "no-results" && filter !== "no-clicks")
      throw invalidParam("filter", `must be no-results or no-clicks, got "${filter.slice(0, 40)}"`);
    const searches = (await this.repo.queries(scope, filter, p.limit)).map((q) => ({
      query: q.query,
      count: q.searches,
      clickThroughRate: rate(q.clicked, q.searches - q.noResults),
      conversionRate: rate(q.converted, q.searches - q.noResults),
      averageClickPosition: average(q.positionSum, q.positions),
      noResultCount: q.noResults,
    }));
    return { json: { ...range, searches }, table: searches };
  }

  private async products(scope: ReportScope, p: ReportParams, range: ReportPeriod): Promise<Report<"products">> {
    const sorts = { clicks: "clicks", addToCarts: "carts", purchases: "purchases" } as const;
    const sort = p.sort ?? "clicks";
    if (!(sort in sorts)) throw invalidParam("sort", `must be clicks, addToCarts or purchases, got "${sort.slice(0, 40)}"`);
    const products = (await this.repo.products(scope, sorts[sort as keyof typeof sorts], p.limit)).map((r) => ({
      productId: r.productId,
      clicks: r.clicks,
      addToCarts: r.carts,
      purchases: r.purchases,
      revenue: revenueObject(Object.entries(r.revenue).map(([currency, value]) => ({ currency, value }))),
    }));
    return { json: { ...range, products }, table: products.map(({ revenue, ...r }) => ({ ...r, ...revenueColumns(revenue) })) };
  }

  private async clickPositions(scope: ReportScope, p: ReportParams, range: ReportPeriod): Promise<Report<"click-positions">> {
    // Only positions that were clicked, lowest first, `limit` rows: a click at position 40 is listed even when
    // positions 15 to 39 had none, and no row says "0 clicks".
    const positions = [...(await this.repo.positions(scope))]
      .filter(([, clicks]) => clicks > 0)
      .sort(([a], [b]) => a - b)
      .slice(0, p.limit)
      .map(([position, clicks]) => ({ position, clicks }));
    const totals = await this.totals(scope);
    const clicks = totals.get("positions") ?? 0;
    const listed = positions.reduce((sum, x) => sum + x.clicks, 0);
    const json = {
      ...range,
      clicks,
      averageClickPosition: average(totals.get("positionSum") ?? 0, clicks),
      positions,
      beyond: clicks - listed,
    };
    return { json, table: positions };
  }

  private async recommendations(scope: ReportScope, range: ReportPeriod): Promise<Report<"recommendations">> {
    const c = await this.totals(scope);
    const n = (name: string) => c.get(name) ?? 0;
    const lookClicks = n("ctlProductClicks") + n("ctlPopupProductClicks");
    const json = {
      ...range,
      similarProducts: {
        views: n("similarViews"),
        clicks: n("similarClicks"),
        clickThroughRate: rate(n("similarClicks"), n("similarViews")),
      },
      placements: RECOMMENDATION_PLACEMENTS.map((placement) => ({ placement, clicks: n(`placementClicks:${placement}`) })),
      completeTheLook: {
        loads: n("ctlLoads"),
        viewLookClicks: n("ctlViewLookClicks"),
        productClicks: n("ctlProductClicks"),
        popupProductClicks: n("ctlPopupProductClicks"),
        pageChanges: n("ctlPageChanges"),
        popupPageChanges: n("ctlPopupPageChanges"),
        clickThroughRate: rate(lookClicks, n("ctlLoads")),
        viewLookPositions: Array.from({ length: 9 }, (_, i) => ({ position: i + 1, clicks: n(`ctlViewLook:${i + 1}`) })),
      },
    };
    const table = [
      ...Object.entries(json.similarProducts).map(([k, v]) => ({ widget: "similarProducts", metric: k, value: v })),
      ...Object.entries(json.completeTheLook)
        .filter(([k]) => k !== "viewLookPositions")
        .map(([k, v]) => ({ widget: "completeTheLook", metric: k, value: v as number | null })),
      ...json.placements.map((x) => ({ widget: x.placement, metric: "clicks", value: x.clicks })),
      ...json.completeTheLook.viewLookPositions.map((x) => ({
        widget: "completeTheLook",
        metric: `viewLookPosition${x.position}`,
        value: x.clicks,
      })),
    ];
    return { json, table };
  }

  /** Every counter summed over the scope. */
  private async totals(scope: ReportScope): Promise<Counts> {
    const c: Counts = new Map();
    for (const r of await this.repo.dailyCounts(scope)) c.set(r.metric, (c.get(r.metric) ?? 0) + r.value);
    return c;
  }

  /**
   * The store's own search (its Search and ProductClick events) against our pre-production answers to the same
   * queries: only queries we answered with preprod=true are compared, weighted by how often shoppers searched them.
   */
  private async preprod(scope: ReportScope, p: ReportParams, range: ReportPeriod): Promise<Report<"preprod">> {
    const queries = await this.repo.shadowQueries(scope);
    const clicks = new Map<string, { productId: string; clicks: number }[]>();
    for (const c of await this.repo.shadowClicks(scope)) {
      const list = clicks.get(c.query) ?? [];
      list.push(c);
      clicks.set(c.query, list);
    }
    let searches = 0;
    let theirZero = 0;
    let ourZero = 0;
    let clicked = 0;
    let inTop10 = 0;
    let inTop30 = 0;
    let overlapWeighted = 0;
    let overlapSearches = 0;
    const rows = queries.map((q) => {
      const ours = JSON.parse(q.ourIds) as string[];
      const theirs = q.theirIds ? (JSON.parse(q.theirIds) as string[]).slice(0, 10) : [];
      const top10 = new Set(ours.slice(0, 10));
      const top30 = new Set(ours.slice(0, 30));
      const qClicks = clicks.get(q.query) ?? [];
      const total = qClicks.reduce((s, c) => s + c.clicks, 0);
      const in10 = qClicks.reduce((s, c) => s + (top10.has(c.productId) ? c.clicks : 0), 0);
      const in30 = qClicks.reduce((s, c) => s + (top30.has(c.productId) ? c.clicks : 0), 0);
      const depth = Math.min(10, Math.max(theirs.length, top10.size));
      const overlap = q.theirIds && depth > 0 ? theirs.filter((id) => top10.has(id)).length / depth : null;
      searches += q.searches;
      theirZero += q.noResults;
      if (q.ourTotal === 0) ourZero += q.searches;
      clicked += total;
      inTop10 += in10;
      inTop30 += in30;
      if (overlap !== null) {
        overlapWeighted += overlap * q.searches;
        overlapSearches += q.searches;
      }
      return {
        query: q.query,
        searches: q.searches,
        theirNoResults: q.noResults,
        ourTotal: q.ourTotal,
        clicks: total,
        clicksInOurTop10: in10,
        clicksInOurTop30: in30,
        overlapAt10: overlap === null ? null : Math.round(overlap * 10_000) / 10_000,
      };
    });
    const json = {
      ...range,
      comparedQueries: queries.length,
      comparedSearches: searches,
      coverage: rate(searches, await this.repo.searchesWithQuery(scope)),
      zeroResultRate: { theirs: rate(theirZero, searches), ours: rate(ourZero, searches) },
      clickedInOurTop10: rate(inTop10, clicked),
      clickedInOurTop30: rate(inTop30, clicked),
      overlapAt10: rate(overlapWeighted, overlapSearches),
      queries: rows.slice(0, p.limit),
    };
    return { json, table: json.queries };
  }
}
