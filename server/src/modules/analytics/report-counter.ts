import type { Database } from "bun:sqlite";
import { ReportAggregatesRepo, saveAnswer, type Bucket, type SearchMark } from "../../db/report-aggregates-repo.ts";
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
  private readonly repo: ReportAggregatesRepo;

  constructor(private readonly db: Database) {
    this.repo = new ReportAggregatesRepo(db);
  }

  apply(e: AnalyticsEvent): void {
    const bucket = this.bucketOf(e);
    const actor = e.userId ?? e.sessionId;
    if (actor) this.repo.visitor(bucket, "user", actor);
    if (e.sessionId) this.repo.visitor(bucket, "session", e.sessionId);
    const plain = PLAIN_COUNTS[e.type];
    if (plain) this.repo.count(bucket, plain);
    switch (e.type) {
      case "Search":
        return this.search(e, bucket);
      case "ProductClick":
        return this.click(e, bucket);
      case "AddToCart":
        return this.cart(e, bucket);
      case "OrderComplete":
      case "Purchase":
        return this.order(e, bucket);
      case "CTLViewLookClick":
        return this.repo.count(bucket, `ctlViewLook:${e.data.position as number}`);
    }
  }

  flush(): void {
    this.repo.flush();
  }

  discard(): void {
    this.repo.discard();
  }

  prune(before: number): void {
    this.repo.prune(before);
  }

  private search(e: AnalyticsEvent, bucket: Bucket): void {
    const query = reportQuery(e.data);
    const withResults = hasResults(e.data);
    this.repo.count(bucket, "searches");
    if (!withResults) this.repo.count(bucket, "noResultSearches");
    this.repo.countQuery(bucket, query, { searches: 1, noResults: withResults ? 0 : 1 });
    if (e.sessionId) this.repo.rememberSearch({ ...bucket, query }, e.sessionId, e.receivedAt, withResults);
    if (query) {
      const ids = Array.isArray(e.data.productIds) ? (e.data.productIds as string[]).slice(0, ANSWER_IDS) : [];
      const total = typeof e.data.totalProducts === "number" ? e.data.totalProducts : ids.length;
      saveAnswer(this.db, { storeId: e.storeId, source: "theirs", query, total, productIds: ids, at: e.receivedAt });
    }
  }

  private click(e: AnalyticsEvent, bucket: Bucket): void {
    const productId = e.data.clickProductId as string;
    const query = reportQuery(e.data);
    this.repo.count(bucket, "clicks");
    this.repo.countProduct(bucket, productId, { clicks: 1 });
    this.repo.countQueryClick(bucket, query, productId);
    const position = clickPosition(e.data, productId);
    if (position !== null) {
      this.repo.count(bucket, "positionSum", position);
      this.repo.count(bucket, "positions");
      if (position <= MAX_COUNTED_POSITION) this.repo.count(bucket, `position:${position}`);
      this.repo.countQuery(bucket, query, { positionSum: position, positions: 1 });
    }
    if (!e.sessionId) return;
    for (const s of this.repo.searchesBetween(e.storeId, e.sessionId, query, e.receivedAt - CLICK_WINDOW_MS, e.receivedAt)) {
      this.mark(s, "clicked");
      this.repo.rememberClick(e.storeId, e.sessionId, productId, s.id);
    }
  }

  private cart(e: AnalyticsEvent, bucket: Bucket): void {
    this.repo.countProduct(bucket, e.data.addProductId as string, { carts: 1 });
    if (!e.sessionId) return;
    for (const s of this.repo.searchesBetween(e.storeId, e.sessionId, reportQuery(e.data), e.receivedAt - CONVERSION_WINDOW_MS, e.receivedAt)) {
      this.mark(s, "carted");
      this.mark(s, "converted");
    }
  }

  private order(e: AnalyticsEvent, bucket: Bucket): void {
    if (!this.repo.firstTimeOrder(e.storeId, e.data.orderId as string)) return;
    const currency = bucket.currency || UNKNOWN_CURRENCY;
    this.repo.count(bucket, "orders");
    for (const line of orderLines(e.data)) {
      this.repo.count({ ...bucket, currency }, "revenue", line.revenue);
      this.repo.countProduct(bucket, line.productId, { purchases: line.qty, revenue: line.revenue });
      if (!e.sessionId) continue;
      for (const s of this.repo.searchesClickedFor(e.storeId, e.sessionId, line.productId, e.receivedAt - CONVERSION_WINDOW_MS)) {
        this.mark(s, "converted");
      }
    }
  }

  /** Marks a search once per kind of mark, counting it on the search's day and dimensions. */
  private mark(s: Bucket & { id: number; query: string } & Record<SearchMark, number>, mark: SearchMark): void {
    if (s[mark]) return;
    s[mark] = 1;
    this.repo.mark(s.id, mark);
    const bucket: Bucket = { storeId: s.storeId, day: s.day, region: s.region, language: s.language, currency: s.currency };
    this.repo.count(bucket, `${mark}Searches`);
    if (mark !== "carted") this.repo.countQuery(bucket, s.query, { [mark]: 1 });
  }

  /** The event's day and dimensions: its own, else its session's last known ones. */
  private bucketOf(e: AnalyticsEvent): Bucket {
    const own = ownDimensions(e.data);
    let dims: Dimensions = own ?? NO_DIMENSIONS;
    if (e.sessionId) {
      if (own) this.repo.setSessionDimensions(e.storeId, e.sessionId, own, e.receivedAt);
      else dims = this.repo.sessionDimensions(e.storeId, e.sessionId) ?? NO_DIMENSIONS;
    }
    return { storeId: e.storeId, day: dayOf(e.receivedAt), ...dims };
  }
}
