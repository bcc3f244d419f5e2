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
