import type { AnalyticsBatch } from "../analytics/analytics-batch.ts";
import type { AnalyticsEvent, EventConsumer } from "../analytics/analytics-worker.ts";
import { dayOf, orderLines } from "../analytics/event-facts.ts";
import { shopperKeysOf } from "../analytics/storage/shopper-erasure-repository.ts";

/*
 * Counts from shopper events what the recommendation models read (recommendations.md):
 * - interest per product and day (trending): a view 1, an add-to-cart 3, a purchase 5, each shopper (user id,
 *   else session id) counted once a day per product and kind, so one shopper's flood weighs as one shopper;
 * - orders per product and per pair of products in one order (bought together), each order once;
 * - each shopper's (u:<userId>, s:<sessionId>) last viewed and bought products (recently viewed, for you).
 * A view is a click on a product in a listing (ProductClick, SimilarProductClick) or a product page showing its
 * similar products (ViewSimilarProducts names the page's product).
 */

export const INTEREST_WEIGHTS = { view: 1, cart: 3, purchase: 5 } as const;
type Kind = keyof typeof INTEREST_WEIGHTS;

const DAY_MS = 86_400_000;
/** Days of interest kept: the trending window and the days it is compared with, and a margin. */
export const INTEREST_DAYS = 14;
/** A shopper's lists go this long after their last view or purchase. */
const SHOPPER_DAYS = 90;

export class RecommendationLearner implements EventConsumer {
  apply(e: AnalyticsEvent, state: AnalyticsBatch): void {
    switch (e.type) {
      case "ProductClick":
      case "SimilarProductClick":
        return this.viewed(e, e.data.clickProductId as string, state);
      case "ViewSimilarProducts":
        return this.viewed(e, e.data.productId as string, state);
      case "AddToCart":
        return this.interest(e, "cart", e.data.addProductId as string, state);
      case "OrderComplete":
      case "Purchase":
        return this.ordered(e, state);
    }
  }

  prune(before: number, state: AnalyticsBatch): void {
    state.recommendations.prune({ interestDay: dayOf(before - INTEREST_DAYS * DAY_MS), shopperAt: before - SHOPPER_DAYS * DAY_MS });
  }

  private viewed(e: AnalyticsEvent, productId: string, state: AnalyticsBatch): void {
    this.interest(e, "view", productId, state);
    for (const shopper of shopperKeysOf(e)) state.recommendations.touch(e.storeId, shopper, productId, "viewed", e.receivedAt);
  }

  private ordered(e: AnalyticsEvent, state: AnalyticsBatch): void {
    // Every consumer asks for the same event: true for the one event that counts the order.
    if (!state.firstTimeOrder(e.storeId, e.data.orderId as string, e.seq)) return;
    const ids = orderLines(e.data).map((line) => line.productId);
    state.recommendations.countOrder(e.storeId, ids);
    for (const id of new Set(ids)) {
      this.interest(e, "purchase", id, state);
      for (const shopper of shopperKeysOf(e)) state.recommendations.touch(e.storeId, shopper, id, "bought", e.receivedAt);
    }
  }

  private interest(e: AnalyticsEvent, kind: Kind, productId: string, state: AnalyticsBatch): void {
    const actor = e.userId ?? e.sessionId;
    if (!actor) return; // nobody to count once
    const day = dayOf(e.receivedAt);
    if (state.firstToday(e.storeId, day, actor, `interest:${kind}`, "", productId))
      state.recommendations.addInterest(e.storeId, day, productId, INTEREST_WEIGHTS[kind]);
  }
}
