import type { EventEffect } from "./storage/event-ingest-repository.ts";
import type { NewEvent } from "../events/storage/events-repository.ts";
import { dayOf } from "../analytics/event-facts.ts";

/** What a batch of accepted events counts towards, in their order: look clicks and orders. */
export function effectsOf(events: readonly NewEvent[]): EventEffect[] {
  const effects: EventEffect[] = [];
  for (const e of events) {
    if (e.type === "CTLProductClick" || e.type === "CTLPopupProductClick") {
      const click = e.data as { baseProductId?: string; selectedProduct: { productId: string } };
      const clickedId = click.selectedProduct.productId;
      // Only with a session to tell one shopper from another, and never a product with itself.
      if (click.baseProductId && e.sessionId && click.baseProductId !== clickedId) {
        effects.push({ kind: "lookClick", storeId: e.storeId, sessionId: e.sessionId, baseId: click.baseProductId, clickedId });
      }
    }
    if (e.type !== "OrderComplete" && e.type !== "Purchase") continue;
    const order = e.data as { orderId: string; products: { id: string; qty?: number }[] };
    effects.push({
      kind: "order",
      storeId: e.storeId,
      orderId: order.orderId,
      lines: order.products.map((p) => ({ productId: p.id, qty: p.qty ?? 1 })),
      actor: e.userId ?? e.sessionId,
      day: dayOf(e.receivedAt),
    });
  }
  return effects;
}
