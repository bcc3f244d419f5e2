/** A colour swatch of a product card was chosen. */
export type SfsColorSelectEvent = CustomEvent<{ productId: string; colorId: string }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-color-select": SfsColorSelectEvent;
  }
}
