/*
 * Attribute names as an InstantSearch page writes them, and the service's facet keys (docs/api.md, "Facets"):
 * `brand` is our `designer`, `categories.lvlN` our `category.lvlN` (the same "Men > Clothing" paths), and every
 * other key (gender, color, size, tag.*, …) is the same in both.
 */

const CATEGORY_LEVEL = /^categories\.lvl(\d+)$/;
const OUR_CATEGORY_LEVEL = /^category\.lvl(\d+)$/;

/** The numeric attribute our searches filter and bucket: a product's lowest price. */
export const PRICE = "price";

export function facetKeyOf(attribute: string): string {
  const level = CATEGORY_LEVEL.exec(attribute);
  if (level) return `category.lvl${level[1]}`;
  return attribute === "brand" ? "designer" : attribute;
}

/** The name a facet key has on an InstantSearch page, for `facets: ["*"]`. */
export function attributeOf(key: string): string {
  const level = OUR_CATEGORY_LEVEL.exec(key);
  if (level) return `categories.lvl${level[1]}`;
  return key === "designer" ? "brand" : key;
}
