import type { EngineSearchResult } from "../../engine/types.ts";
import {
  MAX_FACET_VALUES,
  type FacetSetting,
  type Facet as WidgetFacet,
  type FacetValue as WidgetFacetValue,
} from "@storefront-search/contract";
import { isTermFacetKey, PRICE_FACET } from "./facet-keys.ts";

/*
 * Which facets shoppers see, in what order, under which names, and how many values show before "show more":
 * the store's `facets` setting, or DEFAULT_FACETS. Used by every route that answers facets (search, similarity).
 *
 * A setting entry's key is a facet key or a wildcard ("tag.*", "category.lvl*") standing for every such key not
 * listed on its own. A wildcard never brings in an internal tag (INTERNAL_TAGS: bookkeeping such as the feed a
 * product came from, or a second copy of a built-in facet such as tag.color beside color); listing one by its
 * key shows it. Facets not shown can still be selected in a request.
 */

export type FacetValue = WidgetFacetValue & { name: string };
export type Facet = WidgetFacet & { name: string; values: FacetValue[] };

/** What a shopper of a typical store narrows by, most decisive first; deeper category levels are the catalog's filing. */
export const DEFAULT_FACETS: readonly FacetSetting[] = [
  { key: "category.lvl0" },
  { key: "category.lvl1" },
  { key: "category.lvl2" },
  { key: "gender" },
  { key: "ageGroup" },
  { key: "designer" },
  { key: PRICE_FACET },
  { key: "color" },
  { key: "size" },
  { key: "tag.*" },
  { key: "collection" },
  { key: "availability" },
];
export const DEFAULT_SHOWN_VALUES = 8;
const PRICE_BUCKETS = 6;

/** Tag prefixes a wildcard leaves out: feed bookkeeping, and copies of built-in facets. */
const INTERNAL_TAGS = new Set([
  "source",
  "year",
  "id",
  "sku",
  "vendor",
  "internal",
  "color",
  "colour",
  "brand",
  "designer",
  "gender",
  "size",
  "category",
  "type",
]);

const WILDCARDS = ["tag.*", "category.lvl*"];

/** Whether `key` may appear in the facets setting. */
export function isFacetSettingKey(key: string): boolean {
  return key === PRICE_FACET || WILDCARDS.includes(key) || isTermFacetKey(key);
}

/** Built-in facet names in the languages the service ships; a tag is named by its prefix, as the catalog writes it. */
const NAMES: Record<string, Record<string, string>> = {
  en: {
    designer: "Brand",
    gender: "Gender",
    ageGroup: "Age group",
    color: "Colour",
    size: "Size",
    availability: "Availability",
    collection: "Collection",
    [PRICE_FACET]: "Price",
    levels: "Department|Category|Type|Subtype",
  },
  de: {
    designer: "Marke",
    gender: "Geschlecht",
    ageGroup: "Altersgruppe",
    color: "Farbe",
    size: "Größe",
    availability: "Verfügbarkeit",
    collection: "Kollektion",
    [PRICE_FACET]: "Preis",
    levels: "Abteilung|Kategorie|Art|Unterart",
  },
  fr: {
    designer: "Marque",
    gender: "Genre",
    ageGroup: "Tranche d’âge",
    color: "Couleur",
    size: "Taille",
    availability: "Disponibilité",
    collection: "Collection",
    [PRICE_FACET]: "Prix",
    levels: "Rayon|Catégorie|Type|Sous-type",
  },
  es: {
    designer: "Marca",
    gender: "Género",
    ageGroup: "Grupo de edad",
    color: "Color",
    size: "Talla",
    availability: "Disponibilidad",
    collection: "Colección",
    [PRICE_FACET]: "Precio",
    levels: "Sección|Categoría|Tipo|Subtipo",
  },
};

/**
 * A category level's name as shoppers read facet titles: the department, the category, the type, then subtypes
 * (numbered from the fifth level) rather than "Category level 2".
 */
function levelName(level: number, names: Record<string, string>): string {
  const named = names.levels!.split("|");
  return level < named.length ? named[level]! : `${named.at(-1)} ${level - named.length + 2}`;
}

function builtInName(key: string, language: string): string {
  const names = NAMES[language.toLowerCase().split("-")[0]!] ?? NAMES.en!;
  const level = /^category\.lvl(\d+)$/.exec(key);
  if (level) return levelName(Number(level[1]), names);
  if (key.startsWith("tag.")) return humanize(key.slice(4));
  return names[key] ?? key;
}

/** "navy-blue" → "Navy blue", "InStock" → "In stock": slugs and identifiers as words. */
function humanize(slug: string): string {
  const words = slug
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[-_]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** How a facet's values are shown: a category path by its last level, a slug or identifier as words, others as stored. */
function valueNamer(key: string): (value: string) => string {
  if (key.startsWith("category.lvl")) return lastLevel;
  if (key.startsWith("tag.") || key === "collection" || key === "availability") return humanizedValue;
  return (value) => value;
}

function lastLevel(path: string): string {
  const at = path.lastIndexOf(" > ");
  return at < 0 ? path : path.slice(at + 3);
}

/** Humanized values by value: a search answers up to 200 values per facet, from a store's few thousand, every time. */
const humanizedValues = new Map<string, string>();
const MAX_HUMANIZED_VALUES = 50_000;

function humanizedValue(value: string): string {
  let name = humanizedValues.get(value);
  if (name === undefined) {
    if (humanizedValues.size >= MAX_HUMANIZED_VALUES) humanizedValues.clear();
    humanizedValues.set(value, (name = humanize(value)));
  }
  return name;
}

/** The name for `language`: exact locale, then its language ("de" for "de-CH"), then English, then built in. */
function displayName(setting: FacetSetting | undefined, key: string, language: string): string {
  const names = setting?.names;
  if (names) {
    const lower = Object.fromEntries(Object.entries(names).map(([k, v]) => [k.toLowerCase(), v]));
    const lang = language.toLowerCase();
    const found = lower[lang] ?? lower[lang.split("-")[0]!] ?? lower.en;
    if (found) return found;
  }
  return builtInName(key, language);
}

export interface FacetPlan {
  /** Term facet keys to ask the engine for (wildcards as the engine reads them). */
  terms: string[];
  /** Range facets to ask for. */
  ranges: { field: string; maxBuckets: number }[];
}

/** What to ask the engine for: the shown facets, less any the request makes pointless (a collection page's own collection). */
export function facetPlan(settings: readonly FacetSetting[], omit: readonly string[] = []): FacetPlan {
  const keys = settings.map((s) => s.key).filter((k) => !omit.includes(k));
  return {
    terms: keys.filter((k) => k !== PRICE_FACET),
    ranges: keys.includes(PRICE_FACET) ? [{ field: "price_min", maxBuckets: PRICE_BUCKETS }] : [],
  };
}

/** How one answered facet key is shown under a facets setting, for a language and a default of shown values. */
interface FacetHead {
  rank: number;
  name: string;
  shownValues: number;
  valueName: (value: string) => string;
}

/**
 * Heads by facets setting (the same array for every request of a store on the default setting), then by language,
 * default shown values and key: a search answers the same dozen or more facets every time, and working out
 * their order and names was a tenth of the time the service spends outside the engine on a search.
 */
const headsBySetting = new WeakMap<readonly FacetSetting[], Map<string, FacetHead | null>>();

function facetHead(settings: readonly FacetSetting[], key: string, display: { language: string; shownValues: number }): FacetHead | null {
  let heads = headsBySetting.get(settings);
  if (!heads) headsBySetting.set(settings, (heads = new Map()));
  const memoKey = `${display.language}\u0000${display.shownValues}\u0000${key}`;
  let head = heads.get(memoKey);
  if (head === undefined) {
    const listed = new Set(settings.map((s) => s.key));
    const rank = settings.findIndex((s) => s.key === key || wildcardCovers(s.key, key, listed));
    const setting = settings[rank];
    head = setting
      ? {
          rank,
          name: displayName(listed.has(key) ? setting : undefined, key, display.language),
          shownValues: setting.shownValues ?? display.shownValues,
          valueName: valueNamer(key),
        }
      : null;
    // Keys come from the catalog's tags: the bound keeps a store with endless tag prefixes from growing it.
    if (heads.size >= MAX_HEADS) heads.clear();
    heads.set(memoKey, head);
  }
  return head;
}
const MAX_HEADS = 10_000;

/** The engine's counts as the facets a shopper sees, in the setting's order, named for `language`. */
export function shapeFacets(
  result: Pick<EngineSearchResult, "facets" | "ranges">,
  settings: readonly FacetSetting[],
  display: { language: string; shownValues: number },
): Facet[] {
  const shown: { key: string; head: FacetHead }[] = [];
  for (const key of Object.keys(result.facets)) {
    const head = result.facets[key]!.length ? facetHead(settings, key, display) : null;
    if (head) shown.push({ key, head });
  }
  const price = result.ranges.price_min;
  const priceHead = price?.length ? facetHead(settings, PRICE_FACET, display) : null;
  if (priceHead) shown.push({ key: PRICE_FACET, head: priceHead });
  shown.sort((a, b) => a.head.rank - b.head.rank || (a.key < b.key ? -1 : 1));
  return shown.map(({ key, head }) => {
    if (key === PRICE_FACET) {
      const values = price!.map((r) => ({ key: `${r.lb}-${r.ub}`, name: `${r.lb} – ${r.ub}`, count: r.count, lb: r.lb, ub: r.ub }));
      return { key, name: head.name, shownValues: head.shownValues, values };
    }
    const counts = result.facets[key]!;
    const values: FacetValue[] = [];
    for (let i = 0; i < counts.length && i < MAX_FACET_VALUES; i++)
      values.push({ key: counts[i]!.value, name: head.valueName(counts[i]!.value), count: counts[i]!.count });
    return { key, name: head.name, shownValues: head.shownValues, values };
  });
}

function wildcardCovers(pattern: string, key: string, listed: ReadonlySet<string>): boolean {
  if (!pattern.endsWith("*") || listed.has(key) || !key.startsWith(pattern.slice(0, -1))) return false;
  return !(pattern === "tag.*" && INTERNAL_TAGS.has(key.slice(4)));
}
