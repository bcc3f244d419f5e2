import type { AttributedSearch, Bucket, SearchMark } from "./storage/analytics-state-repository.ts";
import type { AnalyticsBatch } from "./analytics-batch.ts";
import {
  CLICK_WINDOW_MS,
  CONVERSION_WINDOW_MS,
  NO_DIMENSIONS,
  UNKNOWN_CURRENCY,
  clickPosition,
  dayOf,
  hasResults,
  orderLines,
  ownDimensions,
  reportQuery,
  type Dimensions,
} from "./event-facts.ts";
import type { AnalyticsEvent, EventConsumer } from "./analytics-worker.ts";
import { isRecommendationPlacement } from "@storefront-search/contract";

/** Positions the histogram keeps one by one; later ones count in the average only. */
export const MAX_COUNTED_POSITION = 1000;
/** Products of the store's first page kept per query for the preprod report's overlap@10. */
const ANSWER_IDS = 30;

/** Counter names in report_daily that depend on the event type alone. */
const PLAIN_COUNTS: Record<string, string> = {
  AddToCart: "addToCarts",
  ViewSimilarProducts: "similarViews",
  SimilarProductClick: "similarClicks",
  CTLLoad: "ctlLoads",
  CTLViewLookClick: "ctlViewLookClicks",
  CTLProductClick: "ctlProductClicks",
  CTLPopupProductClick: "ctlPopupProductClicks",
  CTLPageChange: "ctlPageChanges",
  CTLPopupPageChange: "ctlPopupPageChanges",
};

/**
 * Turns events into the reports' daily aggregates, by the definitions in event-facts.ts. Searches are
 * remembered per session for CONVERSION_WINDOW_MS so that later clicks, carts and purchases mark them; a mark
 * counts on the search's own day and dimensions.
 */
export class ReportCounter implements EventConsumer {
  readonly name = "reports";

  apply(e: AnalyticsEvent, state: AnalyticsBatch): void {
    const bucket = this.bucketOf(e, state);
    const actor = e.userId ?? e.sessionId;
    if (actor) state.visitor(bucket, "user", actor);
    if (e.sessionId) state.visitor(bucket, "session", e.sessionId);
    const plain = PLAIN_COUNTS[e.type];
    if (plain) state.count(bucket, plain);
    switch (e.type) {
      case "Search":
        return this.search(e, bucket, state);
      case "ProductClick":
        return this.click(e, bucket, state);
      case "AddToCart":
        return this.cart(e, bucket, state);
      case "OrderComplete":
      case "Purchase":
        return this.order(e, bucket, state);
      case "CTLViewLookClick":
        return state.count(bucket, `ctlViewLook:${e.data.position as number}`);
    }
  }

  prune(before: number, state: AnalyticsBatch): void {
    state.prune({ before });
  }

  private search(e: AnalyticsEvent, bucket: Bucket, state: AnalyticsBatch): void {
    const query = reportQuery(e.data);
    const withResults = hasResults(e.data);
    state.count(bucket, "searches");
    if (!withResults) state.count(bucket, "noResultSearches");
    state.countQuery(bucket, query, { searches: 1, noResults: withResults ? 0 : 1 });
    if (e.sessionId) state.rememberSearch({ ...bucket, query }, e.sessionId, e.receivedAt, withResults);
    if (query) {
      const ids = Array.isArray(e.data.productIds) ? (e.data.productIds as string[]).slice(0, ANSWER_IDS) : [];
      const total = typeof e.data.totalProducts === "number" ? e.data.totalProducts : ids.length;
      state.saveAnswer({ storeId: e.storeId, query, total, productIds: ids, at: e.receivedAt });
    }
  }

  private click(e: AnalyticsEvent, bucket: Bucket, state: AnalyticsBatch): void {
    const productId = e.data.clickProductId as string;
    const query = reportQuery(e.data);
    state.count(bucket, "clicks");
    state.countProduct(bucket, productId, { clicks: 1 });
    state.countQueryClick(bucket, query, productId);
    if (isRecommendationPlacement(e.data.placement)) state.count(bucket, `placementClicks:${e.data.placement}`);
    const position = clickPosition(e.data, productId);
    if (position !== null) {
      state.count(bucket, "positionSum", position);
      state.count(bucket, "positions");
      if (position <= MAX_COUNTED_POSITION) state.count(bucket, `position:${position}`);
      state.countQuery(bucket, query, { positionSum: position, positions: 1 });
    }
    if (!e.sessionId) return;
    for (const s of state.searchesBetween(e.storeId, e.sessionId, query, e.receivedAt - CLICK_WINDOW_MS, e.receivedAt)) {
      this.mark(s, "clicked", state);
      state.rememberClick(e.storeId, e.sessionId, productId, s.id);
    }
  }

  private cart(e: AnalyticsEvent, bucket: Bucket, state: AnalyticsBatch): void {
    state.countProduct(bucket, e.data.addProductId as string, { carts: 1 });
    if (!e.sessionId) return;
    for (const s of state.searchesBetween(e.storeId, e.sessionId, reportQuery(e.data), e.receivedAt - CONVERSION_WINDOW_MS, e.receivedAt)) {
      this.mark(s, "carted", state);
      this.mark(s, "converted", state);
    }
  }

  private order(e: AnalyticsEvent, bucket: Bucket, state: AnalyticsBatch): void {
    if (!state.firstTimeOrder(e.storeId, e.data.orderId as string, e.seq)) return;
    const currency = bucket.currency || UNKNOWN_CURRENCY;
    state.count(bucket, "orders");
    for (const line of orderLines(e.data)) {
      state.count({ ...bucket, currency }, "revenue", line.revenue);
      state.countProduct(bucket, line.productId, { purchases: line.qty, revenue: line.revenue });
      if (!e.sessionId) continue;
      for (const s of state.searchesClickedFor(e.storeId, e.sessionId, line.productId, e.receivedAt - CONVERSION_WINDOW_MS)) {
        this.mark(s, "converted", state);
      }
    }
  }

  /** Marks a search once per kind of mark, counting it on the search's day and dimensions. */
  private mark(s: AttributedSearch, mark: SearchMark, state: AnalyticsBatch): void {
    if (!state.mark(s, mark)) return;
    const bucket: Bucket = { storeId: s.storeId, day: s.day, region: s.region, language: s.language, currency: s.currency };
    state.count(bucket, `${mark}Searches`);
    if (mark !== "carted") state.countQuery(bucket, s.query, { [mark]: 1 });
  }

  /** The event's day and dimensions: its own, else its session's last known ones. */
  private bucketOf(e: AnalyticsEvent, state: AnalyticsBatch): Bucket {
    const own = ownDimensions(e.data);
    let dims: Dimensions = own ?? NO_DIMENSIONS;
    if (e.sessionId) {
      if (own) state.setSessionDimensions(e.storeId, e.sessionId, own, e.receivedAt);
      else dims = state.sessionDimensions(e.storeId, e.sessionId) ?? NO_DIMENSIONS;
    }
    return { storeId: e.storeId, day: dayOf(e.receivedAt), ...dims };
  }
}
