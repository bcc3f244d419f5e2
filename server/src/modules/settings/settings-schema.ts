import { Type, type Static } from "@sinclair/typebox";
import { LOCALE_PATTERN, type StoreSettings as WireStoreSettings, type StoreSettingsBody } from "@storefront-search/contract";
import { schemaFor } from "../../schema-check.ts";
import { DEFAULT_FACETS, DEFAULT_SHOWN_VALUES } from "../facets/facet-display.ts";
import { WidgetSettings } from "./widget-settings.ts";

/* Per-store settings an admin key may change. Each member has a default, so a new store works as is. */

const Origin = Type.String({ maxLength: 300, pattern: "^(\\*|https?://[A-Za-z0-9.-]+(:\\d{1,5})?)$" });
const SizeTemplate = Type.String({ maxLength: 1000, pattern: "\\{(url|rawUrl)\\}" });
const Locale = Type.String({ minLength: 2, maxLength: 35, pattern: LOCALE_PATTERN });
const ShownValues = Type.Integer({ minimum: 1, maximum: 200 });
/** Keys are checked by SettingsService (isFacetSettingKey): a pattern cannot say which keys exist. */
const FacetSettingSchema = Type.Object(
  {
    key: Type.String({ minLength: 1, maxLength: 80 }),
    names: Type.Optional(
      Type.Record(Locale, Type.String({ minLength: 1, maxLength: 100 }), { additionalProperties: false, maxProperties: 50 }),
    ),
    shownValues: Type.Optional(ShownValues),
  },
  { additionalProperties: false },
);

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
      Type.Object(
        { mean: Type.Number({ minimum: 0, maximum: 1 }), weight: Type.Number({ minimum: 0, maximum: 1e6 }) },
        { additionalProperties: false },
      ),
    ),
    /** BCP 47 locale for name sorting (namea, named). */
    locale: Type.Optional(Locale),
    /** When set, search products carry ccv: prices converted at `rate` into `currency`. */
    currencyConversion: Type.Optional(
      Type.Object(
        { currency: Type.String({ pattern: "^[A-Z]{3}$" }), rate: Type.Number({ exclusiveMinimum: 0, maximum: 1e6 }) },
        { additionalProperties: false },
      ),
    ),
    /** URL templates for image sizes s, m, l with {url} (encoded) or {rawUrl}, e.g. for an image CDN. */
    imageSizes: Type.Optional(
      Type.Object(
        { s: Type.Optional(SizeTemplate), m: Type.Optional(SizeTemplate), l: Type.Optional(SizeTemplate) },
        { additionalProperties: false },
      ),
    ),
    /** The facets shoppers see, in order (facet-display.ts); the default list when absent. */
    facets: Type.Optional(Type.Array(FacetSettingSchema, { maxItems: 100 })),
    /** Values each facet shows before "show more", unless its entry says otherwise. */
    facetShownValues: Type.Optional(ShownValues),
    /** Locales of product attribute names and generated content (enrichment webhooks); default ["en"]. */
    locales: Type.Optional(Type.Array(Locale, { minItems: 1, maxItems: 20, uniqueItems: true })),
    /** Results re-ranked by what shoppers clicked, carted and bought (default true). */
    behaviourRanking: Type.Optional(Type.Boolean()),
    /** Each shopper's first results re-ranked by their own taste (default true). */
    personalisation: Type.Optional(Type.Boolean()),
    /** The embedded search's look and feel (see modules/settings/widget-settings.ts). */
    widget: Type.Optional(WidgetSettings),
  },
  { additionalProperties: false },
);

// The schema validates exactly the contract's body: the typecheck fails when the two drift apart.
schemaFor<StoreSettingsBody>()(StoreSettings);

export type StoreSettings = Static<typeof StoreSettings>;

/**
 * A store's settings with defaults filled in: what GET /settings shows and what the service uses. A member
 * with no default value (currencyConversion) is null when unset; allowedOrigins unset means any origin.
 */
export function effectiveSettings(stored: Record<string, unknown>): WireStoreSettings {
  const s = stored as StoreSettings;
  return {
    allowedOrigins: s.allowedOrigins?.length ? s.allowedOrigins : ["*"],
    newnessDays: s.newnessDays ?? 7,
    vendorLiftPerVendor: s.vendorLiftPerVendor ?? 2,
    ratingPrior: s.ratingPrior ?? { mean: 0.7, weight: 10 },
    locale: s.locale ?? "en",
    currencyConversion: s.currencyConversion ?? null,
    imageSizes: s.imageSizes ?? {},
    facets: s.facets ?? DEFAULT_FACETS,
    facetShownValues: s.facetShownValues ?? DEFAULT_SHOWN_VALUES,
    widget: s.widget ?? {},
    locales: s.locales ?? ["en"],
    behaviourRanking: s.behaviourRanking ?? true,
    personalisation: s.personalisation ?? true,
  };
}

export type EffectiveSettings = WireStoreSettings;
