/** A product link was followed; `productId` is the store's id, `url` where the link goes. */
export type SfsProductClickEvent = CustomEvent<{ productId: string; url: string }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-product-click": SfsProductClickEvent;
  }
}
