import type { Partner } from "./storage/recommendations-repository.ts";

/*
 * Bought together: products in the same orders as the source, by lift (recommendations.md): with N the store's
 * orders, a and b the orders holding each product and ab those holding both, lift = ab * N / (a * b), how much
 * more often they are bought together than if orders picked products independently. A product everyone buys
 * has a lift near 1 with anything; a pair needs MIN_TOGETHER orders, so one order does not make it.
 */

export const MIN_TOGETHER = 2;

export interface BoughtWith {
  productId: string;
  lift: number;
  together: number;
}

export function boughtTogether(partners: readonly Partner[], orders: { store: number; product: number }): BoughtWith[] {
  if (orders.product === 0) return [];
  return partners
    .filter((p) => p.together >= MIN_TOGETHER)
    .map((p) => ({ productId: p.productId, together: p.together, lift: (p.together * orders.store) / (orders.product * p.orders) }))
    .sort((a, b) => b.lift - a.lift || b.together - a.together || (a.productId < b.productId ? -1 : 1));
}
