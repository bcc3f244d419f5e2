import { Type, type Static } from "@sinclair/typebox";
import { WidgetSettings } from "../widget/widget-config.ts";

/* Per-store settings an admin key may change. Each member has a default, so a new store works as is. */

const Origin = Type.String({ maxLength: 300, pattern: "^(\\*|https?://[A-Za-z0-9.-]+(:\\d{1,5})?)$" });
const SizeTemplate = Type.String({ maxLength: 1000, pattern: "\\{(url|rawUrl)\\}" });

export const StoreSettings = Type.Object(
  {
    /** Origins whose pages may call the browser routes; absent, empty or ["*"]: any origin. */
    allowedOrigins: Type.Optional(Type.Array(Origin, { maxItems: 100 })),
    /** n of sortBy newc, newc2 and vendor_based_newness: arrival is grouped in blocks of n days. */
    newnessDays: Type.Optional(Type.Integer({ minimum: 1, maximum: 3650 })),
    /** Products per vendor that vendor_based_newness lifts to the top. */
    vendorLiftPerVendor: Type.Optional(Type.Integer({ minimum: 0, maximum: 50 })),
    /** The prior of sortBy rating2: a mean rating (0..1 of the maximum) worth `weight` reviews. */
    ratingPrior: Type.Optional(
      Type.Object({ mean: Type.Number({ minimum: 0, maximum: 1 }), weight: Type.Number({ minimum: 0, maximum: 1e6 }) }, { additionalProperties: false }),
    ),
    /** BCP 47 locale for name sorting (namea, named). */
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, pattern: "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$" })),
    /** When set, search products carry ccv: prices converted at `rate` into `currency`. */
    currencyConversion: Type.Optional(
      Type.Object(
        { currency: Type.String({ pattern: "^[A-Z]{3}$" }), rate: Type.Number({ exclusiveMinimum: 0, maximum: 1e6 }) },
        { additionalProperties: false },
      ),
    ),
    /** URL templates for image sizes s, m, l with {url} (encoded) or {rawUrl}, e.g. for an image CDN. */
    imageSizes: Type.Optional(
      Type.Object({ s: Type.Optional(SizeTemplate), m: Type.Optional(SizeTemplate), l: Type.Optional(SizeTemplate) }, { additionalProperties: false }),
    ),
    /** The embedded search's look and feel (see modules/widget/widget-config.ts). */
    widget: Type.Optional(WidgetSettings),
  },
  { additionalProperties: false },
);

export type StoreSettings = Static<typeof StoreSettings>;

export const SETTING_DEFAULTS = {
  newnessDays: 7,
  vendorLiftPerVendor: 2,
  ratingPrior: { mean: 0.7, weight: 10 },
  locale: "en",
} as const;

/** A store's settings with defaults filled in. */
export function effectiveSettings(stored: Record<string, unknown>) {
  const s = stored as StoreSettings;
  return {
    ...s,
    newnessDays: s.newnessDays ?? SETTING_DEFAULTS.newnessDays,
    vendorLiftPerVendor: s.vendorLiftPerVendor ?? SETTING_DEFAULTS.vendorLiftPerVendor,
    ratingPrior: s.ratingPrior ?? SETTING_DEFAULTS.ratingPrior,
    locale: s.locale ?? SETTING_DEFAULTS.locale,
  };
}

export type EffectiveSettings = ReturnType<typeof effectiveSettings>;
