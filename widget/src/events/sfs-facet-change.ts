/** A facet value was checked or unchecked. */
export type SfsFacetChangeEvent = CustomEvent<{ key: string; value: string; selected: boolean }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-facet-change": SfsFacetChangeEvent;
  }
}
