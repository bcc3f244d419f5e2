import { boundedMemo } from "../../lib/bounded-memo.ts";
import type { EngineDocument } from "../../engine/types.ts";
import { colourOf } from "./colours.ts";
import { bayesianRatingScore, ratingScore, type BayesPrior } from "./rating-scores.ts";
import { paidPrices } from "./price-range.ts";
import type { Product } from "./product-schema.ts";
import { productTypes } from "./product-type.ts";

/** The facet key of a product's types (product-type.ts): used by query understanding, not shown as a facet. */
export const PRODUCT_TYPE_FACET = "productType";

/** What search gains from a product's enrichment (enrichment/enriched-search.ts makes it). */
export interface EnrichedSearch {
  /** Names (in the store's first locale) of the colours covering a good share of its images. */
  colours: string[];
}

/** What a document depends on beyond the product itself. */
export interface RankingContext {
  ratingPrior: BayesPrior;
  /** Purchases counted from Purchase/OrderComplete events. */
  purchases: number;
  /** The product's enrichment, once a stage has run: the colours its images show. */
  enriched?: EnrichedSearch;
}

/* How a catalog product is seen by the search engine: its text by field, its facet values and sort numbers. */

/** The distinct non-blank values, in first-seen order (runs per facet key of every indexed product: no spreads). */
function unique(values: readonly (string | undefined)[]): string[] {
  const out: string[] = [];
  const seen = values.length > 8 ? new Set<string>() : null;
  for (const v of values) {
    if (!v?.trim() || (seen ? seen.has(v) : out.includes(v))) continue;
    seen?.add(v);
    out.push(v);
  }
  return out;
}

function range(values: number[]): { min: number; max: number } | null {
  return values.length ? { min: Math.min(...values), max: Math.max(...values) } : null;
}

/**
 * The colours enrichment measured that the product is known by: only when none of the catalog's colour names is a
 * colour (no variations, "Multi", "Style 2"). Not beside the catalog's own: "Navy" next to "Navy Blue" would split
 * one colour in two, and a shirt the catalog calls white is not also "blue" for its print.
 */
function measuredColours(p: Product, enriched: readonly string[]): readonly string[] {
  return enriched.length === 0 || (p.variations ?? []).some((v) => colourOf(v.name)) ? [] : enriched;
}

/** Facet keys made once, not per product (a key string made anew is looked up again as a property name). */
const LEVEL_KEYS = Array.from({ length: 16 }, (_, level) => `category.lvl${level}`);
const tagKey = boundedMemo(1_000, (prefix) => `tag.${prefix}`);

function facetsOf(p: Product, enriched: EnrichedSearch | undefined): Record<string, string[]> {
  const facets: Record<string, string[]> = {};
  const put = (key: string, values: readonly (string | undefined)[]) => {
    const v = unique(values);
    if (v.length) facets[key] = v;
  };
  put("designer", [p.brand]);
  const categories = p.categories ?? [];
  let path = "";
  for (let level = 0; level < categories.length; level++) {
    path = level === 0 ? categories[0]! : `${path} > ${categories[level]}`;
    put(LEVEL_KEYS[level] ?? `category.lvl${level}`, [path]);
  }
  put(PRODUCT_TYPE_FACET, productTypes(p.categories));
  put("gender", [p.gender]);
  put("ageGroup", [p.ageGroup]);
  put("color", [...(p.variations ?? []).map((v) => v.name), ...measuredColours(p, enriched?.colours ?? [])]);
  const skus = p.skus ?? [];
  put(
    "size",
    skus.map((s) => s.size),
  );
  put(
    "availability",
    skus.map((s) => s.availability),
  );
  put("collection", p.collections ?? []);
  const byPrefix = new Map<string, string[]>();
  const addTag = (tag: string) => {
    const at = tag.indexOf(":");
    const prefix = tag.slice(0, at);
    const values = byPrefix.get(prefix);
    if (values) values.push(tag.slice(at + 1));
    else byPrefix.set(prefix, [tag.slice(at + 1)]);
  };
  for (const tag of p.tags ?? []) addTag(tag);
  for (const sku of skus) for (const tag of sku.tags ?? []) addTag(tag);
  for (const [prefix, values] of byPrefix) put(tagKey(prefix), values);
  return facets;
}

/** The sort numbers that depend on the store's settings, recomputed when those change. */
export function ratingNumbers(p: Product, prior: BayesPrior): { rating_wilson?: number; rating_bayes?: number } {
  const wilson = ratingScore(p.popularity);
  const bayes = bayesianRatingScore(p.popularity, prior);
  return { ...(wilson === undefined ? {} : { rating_wilson: wilson }), ...(bayes === undefined ? {} : { rating_bayes: bayes }) };
}

/** A product's sort and range numbers (EngineDocument.numbers), without the rest of its document. */
export function numbersOf(p: Product, ctx: RankingContext): Record<string, number> {
  const numbers: Record<string, number> = { ...ratingNumbers(p, ctx.ratingPrior) };
  if (ctx.purchases > 0) numbers.purchases = ctx.purchases;
  const skus = p.skus ?? [];
  const prices = range(paidPrices(skus));
  if (prices) Object.assign(numbers, { price_min: prices.min, price_max: prices.max });
  const stocked = skus.filter((s) => s.inventoryQuantity !== undefined);
  if (stocked.length) numbers.stock = stocked.reduce((sum, s) => sum + Math.max(0, s.inventoryQuantity!), 0);
  if (p.arrivalDateTs !== undefined) numbers.arrival_ts = p.arrivalDateTs;
  return numbers;
}

export function toEngineDocument(p: Product, version: number, ctx: RankingContext): EngineDocument {
  return {
    id: p.id,
    version,
    text: {
      name: p.name,
      brand: p.brand ?? "",
      categories: p.categories ?? [],
      features: [...(p.features ?? []), ...(p.variations ?? []).map((v) => v.name ?? "")].filter(Boolean),
      tags: [...(p.tags ?? []).map((t) => t.slice(t.indexOf(":") + 1)), ...measuredColours(p, ctx.enriched?.colours ?? [])],
      description: p.description ?? "",
      identifiers: [p.id, ...(p.relatedIds ?? [])],
    },
    facets: facetsOf(p, ctx.enriched),
    numbers: numbersOf(p, ctx),
    sortText: { name: p.name },
  };
}
