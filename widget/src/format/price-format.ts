import type { PricedItem, PriceRange, CurrencyDisplay } from "@storefront-search/contract";

/*
 * Prices as the shopper reads them: Intl.NumberFormat in the store's locale and currency. A product shows what
 * the shopper pays (the promotional price when there is one) and, struck through, what it cost before.
 */

export interface ShownPrice {
  /** What the shopper pays now, e.g. "₹1,299" or "₹999 – ₹1,299". */
  current: string;
  /** The earlier price, shown struck through; absent when there is no reduction. */
  original?: string;
}

export interface PriceFormat {
  amount(value: number): string;
  range(range: PriceRange): string;
  /** The prices of a product or of one of its colours; null when it has none. */
  shown(item: PricedItem): ShownPrice | null;
}

/** What the shopper pays: the promotional range when it is lower than the price. */
export function paidRange({ price, promoPrice }: PricedItem): PriceRange | undefined {
  return promoPrice && (!price || promoPrice.min < price.min) ? promoPrice : price;
}

export function createPriceFormat(locale: string, currency: CurrencyDisplay): PriceFormat {
  let format: Intl.NumberFormat;
  try {
    // Whole amounts without ".00" (₹1,299), others with their cents (₹1,299.50).
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency: currency.code,
      currencyDisplay: currency.display ?? "symbol",
      trailingZeroDisplay: "stripIfInteger",
    });
  } catch {
    format = new Intl.NumberFormat("en", { style: "currency", currency: "USD" });
  }
  const amount = (value: number) => format.format(value);
  const range = (r: PriceRange) => (r.max > r.min ? `${amount(r.min)} – ${amount(r.max)}` : amount(r.min));
  return {
    amount,
    range,
    shown(item) {
      // Converted prices (ccv) when the service converts to the currency this store displays.
      const source: PricedItem = item.ccv && item.ccv.currency === currency.code ? item.ccv : item;
      const { price, initialPrice } = source;
      const paid = paidRange(source);
      if (!paid) return null;
      const before = initialPrice && initialPrice.min > paid.min ? initialPrice : paid !== price && price ? price : undefined;
      return before ? { current: range(paid), original: range(before) } : { current: range(paid) };
    },
  };
}

let fallback: PriceFormat | null = null;
/**
 * The format of a component nobody handed one (used alone, or before its parent binds the store's): made once,
 * since building an Intl format costs about a millisecond and every product card would otherwise build its own.
 */
export function defaultPriceFormat(): PriceFormat {
  return (fallback ??= createPriceFormat("en", { code: "INR" }));
}
