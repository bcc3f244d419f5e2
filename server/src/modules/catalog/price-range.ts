import type { Sku } from "./product-schema.ts";

/*
 * Price ranges of a set of SKUs (a product or one of its colours) and their currency-converted copies.
 * A tally does O(1) work per SKU: a product may carry 5,000 SKUs and is shaped on every results page.
 */

/** Store setting: 1 unit of the store's currency is `rate` units of `currency`. */
export interface CurrencyConversion {
  currency: string;
  rate: number;
}

export interface PriceRange {
  min: number;
  max: number;
  /** The value of the first SKU (in array order) that has the field; only in similarity and ctl responses. */
  first?: number;
}

/** The spec's currency conversion object: converted ranges (min and max only) and the target currency. */
export interface Ccv {
  price?: { min: number; max: number };
  promoPrice?: { min: number; max: number };
  initialPrice?: { min: number; max: number };
  currency: string;
}

/** What a shopper pays for each SKU that has a price: the promotional price where there is one. */
export const paidPrices = (skus: readonly Sku[] = []): number[] => skus.flatMap((s) => s.promoPrice ?? s.price ?? []);

/** The lowest price above 0 a shopper pays for a SKU, or null: a product's price level for the models. */
export function lowestPaidPrice(skus: readonly Sku[] = []): number | null {
  const prices = paidPrices(skus).filter((n) => n > 0);
  return prices.length ? Math.min(...prices) : null;
}

export const PRICE_FIELDS = ["price", "promoPrice", "initialPrice"] as const;
export type PriceField = (typeof PRICE_FIELDS)[number];

/** A range per price field; a field no SKU has is absent. */
export type PriceRanges = Partial<Record<PriceField, PriceRange>>;

class RangeTally {
  min = Infinity;
  max = -Infinity;
  first: number | undefined;

  add(value: number | undefined): void {
    // Non-finite values can only come from a stored document that bypassed validation; they would poison min/max.
    if (value === undefined || !Number.isFinite(value)) return;
    if (this.first === undefined) this.first = value;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }

  range(withFirst: boolean): PriceRange | undefined {
    if (this.first === undefined) return undefined;
    return withFirst ? { min: this.min, max: this.max, first: this.first } : { min: this.min, max: this.max };
  }
}

/** Accumulates the price, promoPrice and initialPrice ranges of the SKUs added, plus whether any is buyable. */
export class SkuTally {
  private readonly tallies: Record<PriceField, RangeTally> = {
    price: new RangeTally(),
    promoPrice: new RangeTally(),
    initialPrice: new RangeTally(),
  };
  skuCount = 0;
  /** True once a SKU is InStock or says nothing about availability (we do not hide what we know nothing about). */
  anyAvailable = false;

  add(sku: Sku): void {
    this.skuCount++;
    for (const field of PRICE_FIELDS) this.tallies[field].add(sku[field]);
    if (sku.availability !== "OutOfStock") this.anyAvailable = true;
  }

  ranges(withFirst: boolean): PriceRanges {
    const out: PriceRanges = {};
    for (const field of PRICE_FIELDS) {
      const range = this.tallies[field].range(withFirst);
      if (range) out[field] = range;
    }
    return out;
  }
}

/**
 * Rounds to 2 decimals (half up) without float noise: 1.005 is held as 1.00499999…, so the
 * value in cents is first cut to 15 significant digits (what a double represents exactly) before rounding.
 */
export function roundToCents(value: number): number {
  const cents = Number((value * 100).toPrecision(15));
  return Math.round(cents) / 100;
}

/** Converts each range present (min and max, not first: the spec's ccv ranges carry only those). */
export function convertRanges(ranges: PriceRanges, conversion: CurrencyConversion): Ccv {
  const converted: Omit<Ccv, "currency"> = {};
  for (const field of PRICE_FIELDS) {
    const range = ranges[field];
    if (range) converted[field] = { min: roundToCents(range.min * conversion.rate), max: roundToCents(range.max * conversion.rate) };
  }
  return { ...converted, currency: conversion.currency };
}
