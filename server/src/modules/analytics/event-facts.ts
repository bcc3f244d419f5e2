import { normalizeQuery } from "../../text/normalize.ts";
import type { OrderLine as PurchasedLine } from "./storage/purchase-counts-repository.ts";

/*
 * What reports read from one tracked event, by the definitions docs/analytics.md's "Reports" section states (binding):
 * the day it counts on, its dimensions, its query as reports group it, and a click's position.
 */

const DAY_MS = 86_400_000;

/** A click counts for a search when it follows within this (same session and query). */
export const CLICK_WINDOW_MS = 30 * 60_000;
/**
 * An add-to-cart, or a purchase of a product clicked from the search, converts it when it follows within this
 * (same session; the spec names no window: a day covers a shopping visit and bounds what is kept).
 */
export const CONVERSION_WINDOW_MS = DAY_MS;

/** The UTC day of a time, "YYYY-MM-DD": reports count by UTC day. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export interface Dimensions {
  region: string;
  language: string;
  currency: string;
}

export const NO_DIMENSIONS: Dimensions = { region: "", language: "", currency: "" };

/** The event's own region, language and currency; null when it names none (an order: its session's are used). */
export function ownDimensions(data: Record<string, unknown>): Dimensions | null {
  const region = text(data.region);
  const language = text(data.language);
  const currency = text(data.currency).toUpperCase();
  return region || language || currency ? { region, language, currency } : null;
}

/** A listing event's query as reports group it: folded and single-spaced ("" for a collection page). */
export const reportQuery = (data: Record<string, unknown>): string => normalizeQuery(text(data.query));

/**
 * A click's 1-based position over all pages: its index in productIds (the page shown) plus (page - 1) x
 * pageSize. Null when the product is not on the page it says it was clicked on. A missing page is page 1; a
 * missing pageSize is the page's length.
 */
export function clickPosition(data: Record<string, unknown>, productId: string): number | null {
  const ids = Array.isArray(data.productIds) ? (data.productIds as string[]) : [];
  const index = ids.indexOf(productId);
  if (index < 0) return null;
  const page = typeof data.page === "number" && data.page >= 1 ? Math.floor(data.page) : 1;
  const pageSize = typeof data.pageSize === "number" && data.pageSize > 0 ? Math.floor(data.pageSize) : ids.length;
  return index + 1 + (page - 1) * pageSize;
}

/** A Search event has results when totalProducts > 0 (without totalProducts: when it lists products). */
export function hasResults(data: Record<string, unknown>): boolean {
  if (typeof data.totalProducts === "number") return data.totalProducts > 0;
  return Array.isArray(data.productIds) && data.productIds.length > 0;
}

/** An order's product with what it earned. */
export interface OrderLine extends PurchasedLine {
  revenue: number;
}

/** An order's lines: qty defaults to 1, a missing price adds no revenue. */
export function orderLines(data: Record<string, unknown>): OrderLine[] {
  const products = (data.products ?? []) as { id: string; price?: number; qty?: number }[];
  return products.map((p) => {
    const qty = p.qty ?? 1;
    return { productId: p.id, qty, revenue: (p.price ?? 0) * qty };
  });
}

/** ISO 4217's code for "no currency": revenue whose shopper's currency is unknown. */
export const UNKNOWN_CURRENCY = "XXX";

const text = (v: unknown): string => (typeof v === "string" ? v.trim().slice(0, 64) : "");
