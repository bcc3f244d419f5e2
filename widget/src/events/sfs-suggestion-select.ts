/** A typeahead option was chosen; `query` is what the shopper had typed. */
export type SfsSuggestionSelectEvent = CustomEvent<{
  kind: "suggestion" | "designer" | "product" | "recent" | "popular";
  label: string;
  query: string;
}>;

declare global {
  interface GlobalEventHandlersEventMap {
    "sfs-suggestion-select": SfsSuggestionSelectEvent;
  }
}
