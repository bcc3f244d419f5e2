import { normalizeQuery } from "../../text/normalize.ts";
import type { Scope } from "./experiment-schema.ts";

/*
 * Which searches an experiment covers, and whether two experiments could cover the same one: at most one experiment
 * runs on any search, or a shopper's results would answer to two variants at once and neither test would be clean.
 */

/**
 * Whether the scope covers a search, by its query; a collection page is a search without one (events do not name the
 * collection yet, so a collection scope covers them all). Queries and patterns compare folded, as rules do.
 */
export function covers(scope: Scope, search: { query: string }): boolean {
  if (scope.type === "all") return true;
  if (scope.type === "collection") return !normalizeQuery(search.query);
  const [query, pattern] = [normalizeQuery(search.query), normalizeQuery(scope.pattern)];
  if (!query) return false;
  if (scope.anchoring === "is") return query === pattern;
  if (scope.anchoring === "startsWith") return query.startsWith(pattern);
  return query.includes(pattern);
}

/**
 * Whether one search could fall in both scopes. Two "contains" patterns (or one and a prefix) always could: a query
 * holding both words matches both.
 */
export function overlaps(a: Scope, b: Scope): boolean {
  if (a.type === "all" || b.type === "all") return true;
  if (a.type === "collection" || b.type === "collection")
    return a.type === "collection" && b.type === "collection" && a.collection === b.collection;
  const [x, y] = [normalizeQuery(a.pattern), normalizeQuery(b.pattern)];
  if (a.anchoring === "is" && b.anchoring === "is") return x === y;
  if (a.anchoring === "is") return covers(b, { query: x });
  if (b.anchoring === "is") return covers(a, { query: y });
  if (a.anchoring === "startsWith" && b.anchoring === "startsWith") return x.startsWith(y) || y.startsWith(x);
  return true;
}
