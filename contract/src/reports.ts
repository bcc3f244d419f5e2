/*
 * The analytics reports (GET /reports/{name}) as JSON; docs/analytics.md "Reports" defines every figure. A rate or
 * an average is null when there was nothing to divide by. Revenue is keyed by currency code (XXX: unknown).
 */

import type { RecommendationPlacement } from "./recommendations.ts";

export const REPORT_NAMES = ["overview", "searches", "products", "click-positions", "recommendations", "preprod"] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/** The period every report covers: days (UTC, YYYY-MM-DD), both included. */
export interface ReportPeriod {
  from: string;
  to: string;
}

export type Revenue = Record<string, number>;

export interface OverviewFigures {
  searches: number;
  users: number;
  sessions: number;
  noResultRate: number | null;
  clickThroughRate: number | null;
  conversionRate: number | null;
  addToCartRate: number | null;
  orders: number;
  revenue: Revenue;
  averageClickPosition: number | null;
}

/** GET /reports/overview: the period's figures, and each day's. */
export interface OverviewReport extends ReportPeriod, OverviewFigures {
  daily: (OverviewFigures & { date: string })[];
}

export interface QueryFigures {
  query: string;
  count: number;
  clickThroughRate: number | null;
  conversionRate: number | null;
  averageClickPosition: number | null;
  noResultCount: number;
}

/** GET /reports/searches (filter: no-results or no-clicks), most searched first. */
export interface SearchesReport extends ReportPeriod {
  searches: QueryFigures[];
}

export interface ProductFigures {
  productId: string;
  clicks: number;
  addToCarts: number;
  purchases: number;
  revenue: Revenue;
}

/** GET /reports/products (sort: clicks, addToCarts or purchases). */
export interface ProductsReport extends ReportPeriod {
  products: ProductFigures[];
}

export interface PositionClicks {
  /** 1-based. */
  position: number;
  clicks: number;
}

/**
 * GET /reports/click-positions: clicks on search results by position: every position clicked (none with 0
 * clicks), lowest first, at most `limit` rows.
 */
export interface ClickPositionsReport extends ReportPeriod {
  /** Every click with a position, listed or not. */
  clicks: number;
  averageClickPosition: number | null;
  positions: PositionClicks[];
  /** Clicks at positions after the last one listed (when `limit` cut the list, or beyond position 1,000). */
  beyond: number;
}

/** GET /reports/recommendations: the similar-products and complete-the-look widgets, and the recommendation placements. */
export interface RecommendationsReport extends ReportPeriod {
  similarProducts: { views: number; clicks: number; clickThroughRate: number | null };
  /** ProductClick events sent from each placement (data.placement), every placement listed. */
  placements: { placement: RecommendationPlacement; clicks: number }[];
  completeTheLook: {
    loads: number;
    viewLookClicks: number;
    productClicks: number;
    popupProductClicks: number;
    pageChanges: number;
    popupPageChanges: number;
    clickThroughRate: number | null;
    /** View Look clicks by the look's position, 1 to 9. */
    viewLookPositions: PositionClicks[];
  };
}

/** One query of the pre-production comparison: the store's own search against this service's answer. */
export interface PreprodQuery {
  query: string;
  searches: number;
  theirNoResults: number;
  ourTotal: number;
  clicks: number;
  clicksInOurTop10: number;
  clicksInOurTop30: number;
  overlapAt10: number | null;
}

/** GET /reports/preprod. */
export interface PreprodReport extends ReportPeriod {
  comparedQueries: number;
  comparedSearches: number;
  coverage: number | null;
  zeroResultRate: { theirs: number | null; ours: number | null };
  clickedInOurTop10: number | null;
  clickedInOurTop30: number | null;
  overlapAt10: number | null;
  queries: PreprodQuery[];
}

/** Each report's JSON answer by its name. */
export interface Reports {
  overview: OverviewReport;
  searches: SearchesReport;
  products: ProductsReport;
  "click-positions": ClickPositionsReport;
  recommendations: RecommendationsReport;
  preprod: PreprodReport;
}
