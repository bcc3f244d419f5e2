/*
 * The facets a search can return and filter on: fixed keys, one per category level, one per tag prefix, and
 * price as a range. Keys in a request must be ones of these; their values are free text.
 */

export const PRICE_FACET = "price";
export const TERM_FACET_KEYS = ["designer", "gender", "ageGroup", "color", "size", "availability", "collection"] as const;
const CATEGORY_LEVEL = /^category\.lvl([0-9]|1[0-9])$/;
const TAG_PREFIX = /^tag\.[^:,\s]{1,64}$/;

export function isTermFacetKey(key: string): boolean {
  return (TERM_FACET_KEYS as readonly string[]).includes(key) || CATEGORY_LEVEL.test(key) || TAG_PREFIX.test(key);
}

/** Facet keys to ask the engine for, in display order ("*": every key with the prefix). */
export const FACET_REQUEST = ["designer", "category.lvl*", "gender", "ageGroup", "color", "size", "availability", "collection", "tag.*"];

const NAMES: Record<string, string> = {
  designer: "Designer",
  gender: "Gender",
  ageGroup: "Age group",
  color: "Colour",
  size: "Size",
  availability: "Availability",
  collection: "Collection",
  price: "Price",
};

export function facetName(key: string): string {
  const level = CATEGORY_LEVEL.exec(key);
  if (level) return level[1] === "0" ? "Category" : `Category level ${Number(level[1]) + 1}`;
  if (key.startsWith("tag.")) {
    const prefix = key.slice(4);
    return prefix.charAt(0).toUpperCase() + prefix.slice(1);
  }
  return NAMES[key] ?? key;
}

/** How a value is shown: a category path shows its last level. */
export function facetValueName(key: string, value: string): string {
  return CATEGORY_LEVEL.test(key) ? (value.split(" > ").at(-1) ?? value) : value;
}
