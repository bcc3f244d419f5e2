/*
 * Evidence that two products go together, from shopper events: bought in one order, or one clicked in the
 * other's look. Written inside the transaction that stores the events, so evidence and events never disagree.
 */

/** Evidence of one order with both products, and of one look click. */
export const ORDER_EVIDENCE = 1;
export const LOOK_CLICK_EVIDENCE = 0.3;
/** Products of an order paired at most (its first ones): 20 give 190 pairs, however large the order. */
const MAX_ORDER_PRODUCTS = 20;

/** The pairs an order counted for the first time gives: every pair of its first distinct products. */
export function orderPairs(productIds: readonly string[]): [string, string][] {
  const ids = [...new Set(productIds)].slice(0, MAX_ORDER_PRODUCTS);
  const pairs: [string, string][] = [];
  for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) pairs.push([ids[i]!, ids[j]!]);
  return pairs;
}
