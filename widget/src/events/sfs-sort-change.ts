/** Another order was chosen; `value` is an API sortBy value, "" for relevance. */
export type SfsSortChangeEvent = CustomEvent<{ value: string }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-sort-change": SfsSortChangeEvent;
  }
}
