import { Type, type Static } from "@sinclair/typebox";
import {
  DEFAULT_CONFIG,
  DEFAULT_TEXTS,
  LOCALE_PATTERN,
  THEME_KEY_PATTERN,
  type WidgetSettings as WireWidgetSettings,
} from "@storefront-search/contract";
import { schemaFor } from "../../schema-check.ts";

/*
 * The look and feel of the embedded search, "managed by the service as agreed with the store": where results
 * go, which sorts are offered, theme tokens, texts per locale, currency display, pre-production mode, how many
 * facet groups start open, the queries offered when a search finds nothing. Stored in
 * the store's settings (`widget`), served to the head script with defaults filled in.
 */

const Text = (max = 200) => Type.String({ maxLength: max });
/** A map whose keys must match `keyPattern`: TypeBox records otherwise accept any other key. */
const StrictRecord = <V extends Parameters<typeof Type.Record>[1]>(keyPattern: string, value: V, maxProperties: number) =>
  Type.Record(Type.String({ pattern: keyPattern }), value, { additionalProperties: false, maxProperties });
const Token = Type.String({ maxLength: 200, pattern: "^[^;{}<>]*$" });

export const WidgetSettings = Type.Object(
  {
    targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z][\\w-]*$" })),
    searchPagePath: Type.Optional(Type.String({ maxLength: 500, pattern: "^/[^\\s]*$" })),
    queryParam: Type.Optional(Type.String({ minLength: 1, maxLength: 30, pattern: "^[\\w-]+$" })),
    searchInputSelector: Type.Optional(Text(300)),
    sortOptions: Type.Optional(
      Type.Array(Type.Object({ value: Text(30), label: Text(100) }, { additionalProperties: false }), { maxItems: 20 }),
    ),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
    /** CSS custom properties (--sfs-*) and their values; values cannot break out of a declaration. */
    theme: Type.Optional(StrictRecord(THEME_KEY_PATTERN, Token, 100)),
    locale: Type.Optional(Type.String({ maxLength: 35, pattern: LOCALE_PATTERN })),
    texts: Type.Optional(StrictRecord(LOCALE_PATTERN, StrictRecord("^[A-Za-z]{1,60}$", Text(500), 100), 50)),
    currency: Type.Optional(
      Type.Object(
        {
          code: Type.String({ pattern: "^[A-Z]{3}$" }),
          display: Type.Optional(Type.Union([Type.Literal("symbol"), Type.Literal("code"), Type.Literal("name")])),
        },
        { additionalProperties: false },
      ),
    ),
    preprod: Type.Optional(Type.Boolean()),
    /** Facet groups open when the results show; the others start collapsed. */
    facetsOpen: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    /** Queries offered when a search finds nothing. */
    popularQueries: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 12 })),
    /** Products a merchandising rule pinned carry a "Featured" badge (the `pinned` text). */
    markPinned: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

// The schema validates exactly the contract's WidgetSettings: the typecheck fails when the two drift apart.
schemaFor<WireWidgetSettings>()(WidgetSettings);

export type WidgetSettings = Static<typeof WidgetSettings>;

/**
 * The configuration the head script receives: stored members over defaults (texts merged per locale). The
 * defaults are the contract's, the same the head script falls back to when a member is missing.
 */
export function widgetConfig(stored: WidgetSettings | undefined) {
  const s = stored ?? {};
  const texts: Record<string, Record<string, string>> = { en: { ...DEFAULT_TEXTS, ...s.texts?.en } };
  for (const [locale, t] of Object.entries(s.texts ?? {})) if (locale !== "en") texts[locale] = { ...DEFAULT_TEXTS, ...t };
  return { ...DEFAULT_CONFIG, ...s, texts, currency: { ...DEFAULT_CONFIG.currency, ...s.currency } };
}
