import {
  DEFAULT_CONFIG,
  DEFAULT_TEXTS,
  THEME_KEY_PATTERN,
  type WidgetConfig,
  type WidgetConfigResponse,
} from "@storefront-search/contract";

/*
 * The widget's side of its configuration: an answer of GET /1.9/widget-config merged over the defaults, the
 * texts filled in and the theme applied. The shapes and defaults are the contract's (contract/src/widget-config.ts).
 */

const THEME_KEY = new RegExp(THEME_KEY_PATTERN);
/** A theme value must stay inside its declaration (the server checks the same). */
const THEME_VALUE = /^[^;{}<>\\]*$/;

const isString = (v: unknown): v is string => typeof v === "string" && v.length > 0;

/** Merges an answer of GET /widget-config over the defaults, ignoring members of the wrong type. */
export function resolveConfig(raw: WidgetConfigResponse | null | undefined): WidgetConfig {
  const r: WidgetConfigResponse = raw && typeof raw === "object" ? raw : {};
  const d = DEFAULT_CONFIG;
  const locale = isString(r.locale) ? r.locale : d.locale;
  const language = locale.split("-")[0]!;
  const texts = r.texts && typeof r.texts === "object" ? r.texts : {};
  const theme: Record<string, string> = {};
  for (const [key, value] of Object.entries(r.theme ?? {})) {
    if (THEME_KEY.test(key) && typeof value === "string" && THEME_VALUE.test(value)) theme[key] = value;
  }
  const sortOptions = Array.isArray(r.sortOptions)
    ? r.sortOptions.filter((o) => o && typeof o.value === "string" && typeof o.label === "string")
    : d.sortOptions;
  const code = r.currency?.code;
  return {
    targetId: isString(r.targetId) ? r.targetId : d.targetId,
    searchPagePath: isString(r.searchPagePath) ? r.searchPagePath : d.searchPagePath,
    queryParam: isString(r.queryParam) ? r.queryParam : d.queryParam,
    searchInputSelector: isString(r.searchInputSelector) ? r.searchInputSelector : d.searchInputSelector,
    sortOptions,
    pageSize: Number.isInteger(r.pageSize) && r.pageSize! >= 1 && r.pageSize! <= 100 ? r.pageSize! : d.pageSize,
    theme,
    locale,
    texts: { ...DEFAULT_TEXTS, ...texts.en, ...texts[language], ...texts[locale] },
    currency: {
      code: typeof code === "string" && /^[A-Z]{3}$/.test(code) ? code : d.currency.code,
      display: r.currency?.display ?? d.currency.display,
    },
    preprod: r.preprod === true,
    facetsOpen: Number.isInteger(r.facetsOpen) && r.facetsOpen! >= 0 ? r.facetsOpen! : d.facetsOpen,
    popularQueries: Array.isArray(r.popularQueries) ? r.popularQueries.filter(isString) : d.popularQueries,
    popularCategories: Array.isArray(r.popularCategories)
      ? r.popularCategories.filter((c) => isString(c?.key) && isString(c.name))
      : d.popularCategories,
    markPinned: typeof r.markPinned === "boolean" ? r.markPinned : d.markPinned,
  };
}

/** A text with its {placeholders} filled: "{count} results" → "12 results". */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** The stylesheet text that applies the store's theme tokens; zero specificity, so the store's own CSS wins. */
export function themeStyleText(theme: Record<string, string>): string {
  const declarations = Object.entries(theme)
    .filter(([k, v]) => THEME_KEY.test(k) && THEME_VALUE.test(v))
    .map(([k, v]) => `${k}:${v};`)
    .join("");
  return declarations ? `:where(:root){${declarations}}` : "";
}
