/** Results were shown: for stores that want to react (their own analytics, layout). */
export type SfsResultsLoadEvent = CustomEvent<{ query: string; totalProductCount: number; page: number }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-results-load": SfsResultsLoadEvent;
  }
}
