/* The typeahead's answer (GET /suggestions): past queries and catalog terms, and brands. */

export interface Suggestion {
  id: string;
  label: string;
  count: number;
}

export interface SuggestionsResponse {
  suggestions: Suggestion[];
  designers: Suggestion[];
  query?: string;
  /** A merchandising rule's page for the typed query. */
  redirect?: string;
}
