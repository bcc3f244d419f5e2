/** An `exportparts` value that forwards a nested component's parts under a prefix: "base:card-base, image:card-image". */
export function exportParts(prefix: string, parts: readonly string[]): string {
  return parts.map((p) => `${p}:${prefix}-${p}`).join(", ");
}

export const CARD_PARTS = [
  "base",
  "image-link",
  "image",
  "badges",
  "badge",
  "pinned-badge",
  "designer",
  "name",
  "name-link",
  "price",
  "sale-price",
  "current-price",
  "original-price",
  "rating",
  "rating-stars",
  "swatches",
  "swatch",
  "swatch-image",
  "swatch-label",
] as const;
/** The exportparts of a product card inside another component: the card as `card`, its parts as `card-*`. */
export const CARD_EXPORT_PARTS = `card, ${exportParts("card", CARD_PARTS)}`;
export const FACETS_PARTS = [
  "base",
  "selection",
  "selected",
  "chip",
  "chip-label",
  "chip-remove",
  "clear-all",
  "facet",
  "facet-title",
  "facet-toggle",
  "facet-marker",
  "facet-selected-count",
  "facet-body",
  "filter",
  "values",
  "value",
  "checkbox",
  "value-label",
  "count",
  "no-values",
  "show-more",
] as const;
export const SORT_PARTS = ["base", "label", "select"] as const;
export const PAGINATION_PARTS = ["base", "list", "button", "previous", "next", "page", "current", "gap"] as const;
