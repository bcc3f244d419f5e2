/** Another results page was chosen (1-based). */
export type SfsPageChangeEvent = CustomEvent<{ page: number }>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-page-change": SfsPageChangeEvent;
  }
}
