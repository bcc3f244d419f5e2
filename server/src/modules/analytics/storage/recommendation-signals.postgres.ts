import type postgres from "postgres";
import { PRODUCTS_PER_SHOPPER, type RecommendationWrites } from "./recommendation-signals-repository.ts";

/** Writes a batch's recommendation sums on PostgreSQL; called inside the batch's transaction (analytics-state.postgres.ts). */
export async function writeRecommendationSignals(tx: postgres.TransactionSql, w: RecommendationWrites): Promise<void> {
  if (w.interest.length) {
    const rows = w.interest.map((r) => ({ store_id: r.storeId, day: r.day, product_id: r.productId, weight: r.weight }));
    await tx`INSERT INTO product_interest ${tx(rows)}
      ON CONFLICT (store_id, day, product_id) DO UPDATE SET weight = product_interest.weight + excluded.weight`;
  }
  if (w.productOrders.length) {
    const rows = w.productOrders.map((r) => ({ store_id: r.storeId, product_id: r.productId, orders: r.orders }));
    await tx`INSERT INTO product_orders ${tx(rows)}
      ON CONFLICT (store_id, product_id) DO UPDATE SET orders = product_orders.orders + excluded.orders`;
  }
  if (w.pairs.length) {
    const rows = w.pairs.map((r) => ({ store_id: r.storeId, product_id: r.productId, other_id: r.otherId, orders: r.orders }));
    await tx`INSERT INTO co_purchases ${tx(rows)}
      ON CONFLICT (store_id, product_id, other_id) DO UPDATE SET orders = co_purchases.orders + excluded.orders`;
  }
  if (w.shopperProducts.length) {
    const rows = w.shopperProducts.map((r) => ({
      store_id: r.storeId,
      shopper: r.shopper,
      product_id: r.productId,
      viewed_at: r.viewedAt,
      bought_at: r.boughtAt,
      at: Math.max(r.viewedAt ?? 0, r.boughtAt ?? 0),
    }));
    await tx`INSERT INTO shopper_products ${tx(rows)}
      ON CONFLICT (store_id, shopper, product_id) DO UPDATE SET
        viewed_at = GREATEST(shopper_products.viewed_at, excluded.viewed_at),
        bought_at = GREATEST(shopper_products.bought_at, excluded.bought_at),
        at = GREATEST(shopper_products.at, excluded.at)`;
    const shoppers = [...new Map(rows.map((r) => [`${r.store_id}\u0000${r.shopper}`, r])).values()];
    await tx`
      DELETE FROM shopper_products AS s USING unnest(${shoppers.map((r) => r.store_id)}::text[], ${shoppers.map((r) => r.shopper)}::text[]) AS t(store_id, shopper)
      WHERE s.store_id = t.store_id AND s.shopper = t.shopper AND s.product_id NOT IN (
        SELECT product_id FROM shopper_products WHERE store_id = t.store_id AND shopper = t.shopper
        ORDER BY at DESC, product_id LIMIT ${PRODUCTS_PER_SHOPPER})`;
  }
  if (w.prune) {
    await tx`DELETE FROM product_interest WHERE day < ${w.prune.interestDay}`;
    await tx`DELETE FROM shopper_products WHERE at < ${w.prune.shopperAt}`;
  }
}
