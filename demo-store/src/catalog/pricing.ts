/*
 * SKUs: one per (colour variation, size). Prices are real where the source has them (Myntra price,
 * Flipkart retail/discounted) and otherwise drawn from the article type's band; markdowns, promotions
 * and stock are synthetic. Everything is seeded by product id so the output is stable.
 */

import type { Sku } from "@storefront-search/contract";
import type { ArticleProfile } from "./categories.ts";
import { seededRandom } from "./seeded-random.ts";

export interface RealPrice {
  /** Current selling price. */
  price: number;
  /** Price before a reduction, only when higher than `price`. */
  initialPrice?: number;
}

export interface PriceInfo {
  price: number;
  initialPrice?: number;
  promoPrice?: number;
  /** Which of the three values come from the data set. */
  realPrice: boolean;
  realInitialPrice: boolean;
}

/** Indian retail price points: ...49/...99 below 1000, ...99 above. */
export function pricePoint(x: number): number {
  if (x < 100) return 99;
  if (x < 1000) return Math.ceil(x / 50) * 50 - 1;
  return Math.ceil(x / 100) * 100 - 1;
}

export function priceFor(
  productId: string,
  profile: ArticleProfile,
  real: RealPrice | undefined,
  opts: { syntheticReductions: boolean },
): PriceInfo {
  const rng = seededRandom(productId, "price");
  const [lo, hi] = profile.priceBand;
  // Log-uniform inside the band: cheap items are more common than expensive ones.
  const synthetic = pricePoint(lo * (hi / lo) ** rng.next());
  const price = real ? real.price : synthetic;
  const info: PriceInfo = { price, realPrice: real !== undefined, realInitialPrice: false };

  if (real?.initialPrice !== undefined && real.initialPrice > price) {
    info.initialPrice = real.initialPrice;
    info.realInitialPrice = true;
  } else if (opts.syntheticReductions && rng.chance(0.25)) {
    const cut = rng.pick([0.2, 0.3, 0.4, 0.5]);
    const before = pricePoint(price / (1 - cut));
    if (before > price) info.initialPrice = before;
  }
  if (opts.syntheticReductions && rng.chance(0.12)) {
    const promo = pricePoint(price * 0.85) - 50;
    if (promo > 0 && promo < price) info.promoPrice = promo;
  }
  return info;
}

export function buildSkus(
  productId: string,
  price: PriceInfo,
  variationIds: readonly (string | undefined)[],
  sizes: ReadonlyArray<string | undefined>,
): Sku[] {
  const skus: Sku[] = [];
  // One generator per product, drawn in SKU order: the SKU order is fixed, so stock is stable.
  const rng = seededRandom(productId, "stock");
  for (const variationId of variationIds) {
    for (const size of sizes) {
      const quantity = rng.chance(0.12) ? 0 : rng.int(1, 60);
      const sku: Sku = { price: price.price };
      if (variationId !== undefined) sku.variationId = variationId;
      if (size !== undefined) sku.size = size;
      if (price.promoPrice !== undefined) sku.promoPrice = price.promoPrice;
      if (price.initialPrice !== undefined) sku.initialPrice = price.initialPrice;
      sku.availability = quantity > 0 ? "InStock" : "OutOfStock";
      sku.inventoryQuantity = quantity;
      skus.push(sku);
    }
  }
  return skus;
}
