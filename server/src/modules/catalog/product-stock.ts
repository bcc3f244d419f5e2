import type { Product } from "./product-schema.ts";

/*
 * What can be bought, as the models of similar products and looks read it. A size is available when the catalog
 * says it is in stock or has some left; a product or variation with no SKUs of its own says nothing against it.
 */

type Sku = NonNullable<Product["skus"]>[number];

const skuAvailable = (s: Sku): boolean => s.availability === "InStock" || (s.inventoryQuantity ?? 0) > 0;

export const productInStock = (p: Product): boolean => !p.skus?.length || p.skus.some(skuAvailable);

/** Whether a variation can be bought in some size. */
export function variationAvailable(p: Product, variationId: string): boolean {
  const own = (p.skus ?? []).filter((s) => s.variationId === variationId);
  return own.length === 0 || own.some(skuAvailable);
}
