import type { Dialect } from "./dialect.ts";
import { keyedByStore, type Table } from "./table.ts";

/*
 * What the recommendation models read (modules/recommendations), counted from shopper events by the analytics
 * worker in the transaction of each batch. Ids only: a shopper is u:<userId> or s:<sessionId>, as in
 * shopper_affinities.
 */

/** Interest in a product per UTC day: views, carts and purchases, each shopper counted once a day per kind. */
export const productInterest = (d: Dialect): Table =>
  keyedByStore(d, "product_interest", {
    key: [`day         ${d.sortedText} NOT NULL`, `product_id  ${d.sortedText} NOT NULL`],
    values: [`weight      ${d.double} NOT NULL`],
  });

/** Orders holding each product; the row of product '' counts the store's orders. */
export const productOrders = (d: Dialect): Table =>
  keyedByStore(d, "product_orders", {
    key: [`product_id  ${d.sortedText} NOT NULL`],
    values: [`orders      ${d.bigint} NOT NULL`],
  });

/** Orders holding both products, kept in both directions so a product's partners are one range. */
export const coPurchases = (d: Dialect): Table =>
  keyedByStore(d, "co_purchases", {
    key: [`product_id  ${d.sortedText} NOT NULL`, `other_id    ${d.sortedText} NOT NULL`],
    values: [`orders      ${d.bigint} NOT NULL`],
  });

/** A shopper's last viewed and bought products (time ms, or null), a bounded number each. */
export const shopperProducts = (d: Dialect): Table =>
  keyedByStore(d, "shopper_products", {
    key: ["shopper     TEXT NOT NULL", `product_id  ${d.sortedText} NOT NULL`],
    values: [`viewed_at   ${d.bigint}`, `bought_at   ${d.bigint}`, `at          ${d.bigint} NOT NULL`],
  });
