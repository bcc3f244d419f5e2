import type { ExperimentTag } from "./experiment-tag.ts";

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
  /** The running experiment covering the typed text, and the shopper's variant (whose rules decide the redirect). */
  experiment?: ExperimentTag;
}

/** One past query of POST /query-log (a previous search provider's, say): it seeds suggestions and what queries mean. */
export interface ImportedQuery {
  query: string;
  searches: number;
  /** What the query's searches led to under the previous provider ("Men > Clothing"): evidence of its meaning. */
  categories?: string[];
}

/** POST /query-log: queries that can never be suggested (an email, a long number, …) are skipped. */
export interface QueryLogImport {
  imported: number;
  withResults: number;
  skipped: number;
}
