import type { Database } from "bun:sqlite";
import { PRODUCTS_PER_SHOPPER, type RecommendationWrites } from "./recommendation-signals-repository.ts";

/** Writes a batch's recommendation sums on SQLite; called inside the batch's transaction (analytics-state.sqlite.ts). */
export function writeRecommendationSignals(db: Database, w: RecommendationWrites): void {
  const interest = db.query(
    `INSERT INTO product_interest (store_id, day, product_id, weight) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET weight = weight + excluded.weight`,
  );
  for (const r of w.interest) interest.run(r.storeId, r.day, r.productId, r.weight);
  const orders = db.query(
    `INSERT INTO product_orders (store_id, product_id, orders) VALUES (?, ?, ?)
     ON CONFLICT DO UPDATE SET orders = orders + excluded.orders`,
  );
  for (const r of w.productOrders) orders.run(r.storeId, r.productId, r.orders);
  const pairs = db.query(
    `INSERT INTO co_purchases (store_id, product_id, other_id, orders) VALUES (?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET orders = orders + excluded.orders`,
  );
  for (const r of w.pairs) pairs.run(r.storeId, r.productId, r.otherId, r.orders);
  const touch = db.query(
    `INSERT INTO shopper_products (store_id, shopper, product_id, viewed_at, bought_at, at) VALUES (?1, ?2, ?3, ?4, ?5, MAX(COALESCE(?4, 0), COALESCE(?5, 0)))
     ON CONFLICT DO UPDATE SET viewed_at = COALESCE(MAX(viewed_at, excluded.viewed_at), viewed_at, excluded.viewed_at),
       bought_at = COALESCE(MAX(bought_at, excluded.bought_at), bought_at, excluded.bought_at), at = MAX(at, excluded.at)`,
  );
  const trim = db.query(
    `DELETE FROM shopper_products WHERE store_id = ?1 AND shopper = ?2 AND product_id NOT IN
       (SELECT product_id FROM shopper_products WHERE store_id = ?1 AND shopper = ?2 ORDER BY at DESC, product_id LIMIT ?3)`,
  );
  const shoppers = new Map<string, [string, string]>();
  for (const r of w.shopperProducts) {
    touch.run(r.storeId, r.shopper, r.productId, r.viewedAt, r.boughtAt);
    shoppers.set(`${r.storeId}\u0000${r.shopper}`, [r.storeId, r.shopper]);
  }
  for (const [storeId, shopper] of shoppers.values()) trim.run(storeId, shopper, PRODUCTS_PER_SHOPPER);
  if (w.prune) {
    db.query("DELETE FROM product_interest WHERE day < ?").run(w.prune.interestDay);
    db.query("DELETE FROM shopper_products WHERE at < ?").run(w.prune.shopperAt);
  }
}
