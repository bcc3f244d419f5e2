/*
 * What a source converter extracts from one row: only facts read from (or directly derived from) the data.
 * The product builder adds the synthetic parts (SKUs, stock, popularity, badges, images) in one place,
 * so every source gets the same synthetic treatment.
 */

import type { AGE_GROUPS, GENDERS } from "@storefront-search/contract";
import type { ArticleProfile } from "./categories.ts";
import type { RealPrice } from "./pricing.ts";

export const SOURCE_IDS = ["fashion-product-images", "myntra-catalog", "flipkart-sample"] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

export type Gender = (typeof GENDERS)[number];
export type AgeGroup = (typeof AGE_GROUPS)[number];

export interface DraftColor {
  /** As written in the data, e.g. "Black & Grey", "Navy Blue". */
  label: string;
  /** Canonical colour names, e.g. ["Black", "Grey"]. */
  colors: string[];
  /** Image fill, 1 to 3 "#rrggbb". */
  hexes: string[];
}

export interface DraftProduct {
  source: SourceId;
  /** Source-prefixed id, e.g. "fpi-15970". */
  id: string;
  name: string;
  brand?: string;
  description?: string;
  /** True when the description was written by the converter (styles.csv has none). */
  descriptionGenerated: boolean;
  features: string[];
  /** Size and fit lines read from the data ("Slim Fit", "Mid-Rise", "Fit: Relaxed fit for everyday wear"). */
  fitInformation: string[];
  categories?: string[];
  /** Article type (styles.csv vocabulary) when known; drives sizes, price band and image family. */
  articleType?: string;
  profile: ArticleProfile;
  gender?: Gender;
  ageGroup?: AgeGroup;
  color?: DraftColor;
  price?: RealPrice;
  /** Real overall rating (1..5), Flipkart only. */
  rating?: number;
  arrivalDateTs: number;
  arrivalSynthetic: boolean;
  /** Handles from the data (season, usage, occasion). */
  collections: string[];
  /** prefix:value tags from the data. */
  tags: string[];
  /** Whether to invent markdowns/promotions (not for sources with real reductions). */
  syntheticReductions: boolean;
}

/** What the sampler needs from a row before converting it. */
export interface RowKey {
  id: string;
  arrivalDateTs: number;
}

/** Thrown (and counted) for a row that cannot become a valid product. */
export class SkipRow extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "SkipRow";
  }
}
