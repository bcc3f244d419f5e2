/*
 * A store's settings as the admin API takes and answers them (/settings). PATCH takes some members (null: back to
 * the default) and answers every member with the defaults filled in, as GET does. The server's schema
 * (server/src/modules/settings/settings-schema.ts) is checked to be StoreSettingsBody.
 */

import type { WidgetSettings } from "./widget-config.ts";

/** A facet shoppers see, in the order of the list. */
export interface FacetSetting {
  /** designer, gender, price, category.lvlN, tag.<prefix>, … */
  key: string;
  /** Display name per locale ("en", "de", "pt-BR"); the built-in English name otherwise. */
  names?: Record<string, string>;
  /** Values shown before "show more"; the store's facetShownValues otherwise. */
  shownValues?: number;
}

/** The members a store may set; each has a default, so a new store works as is. */
export interface StoreSettingsBody {
  /** Origins whose pages may call the browser routes; absent, empty or ["*"]: any origin. */
  allowedOrigins?: string[];
  /** n of sortBy newc, newc2 and vendor_based_newness: arrival is grouped in blocks of n days. */
  newnessDays?: number;
  /** Products per vendor that vendor_based_newness lifts to the top. */
  vendorLiftPerVendor?: number;
  /** The prior of sortBy rating2: a mean rating (0..1 of the maximum) worth `weight` reviews. */
  ratingPrior?: { mean: number; weight: number };
  /** BCP 47 locale for name sorting (namea, named). */
  locale?: string;
  /** When set, search products carry ccv: prices converted at `rate` into `currency`. */
  currencyConversion?: { currency: string; rate: number };
  /** URL templates for image sizes with {url} (encoded) or {rawUrl}, e.g. for an image CDN. */
  imageSizes?: { s?: string; m?: string; l?: string };
  /** The facets shoppers see, in order; the default list when absent. */
  facets?: FacetSetting[];
  /** Values each facet shows before "show more", unless its entry says otherwise. */
  facetShownValues?: number;
  /** Locales of product attribute names and generated content (enrichment webhooks); default ["en"]. */
  locales?: string[];
  /** Results re-ranked by what shoppers clicked, carted and bought (default true). */
  behaviourRanking?: boolean;
  /** Each shopper's first results re-ranked by their own taste (default true). */
  personalisation?: boolean;
  /** The embedded search's look and feel. */
  widget?: WidgetSettings;
}

/** GET /settings and PATCH's answer: every member, defaults filled in; currencyConversion is null when unset. */
export interface StoreSettings extends Required<Omit<StoreSettingsBody, "currencyConversion" | "facets">> {
  currencyConversion: { currency: string; rate: number } | null;
  facets: readonly FacetSetting[];
}
