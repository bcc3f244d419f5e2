/** "Clear all" was pressed: every selected facet value goes. */
export type SfsFacetsClearEvent = CustomEvent<Record<string, never>>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-facets-clear": SfsFacetsClearEvent;
  }
}
