import { foldPlural, queryWords } from "../../text/normalize.ts";
import type { TypoVocabulary } from "../../text/typo-vocabulary.ts";
import { MAX_PREFER_FILTERS, MAX_WEIGHTED_FILTERS, type EngineFilter, type EngineSort, type TextMatching } from "../types.ts";
import { facetField, numberField, numberType, QUERY_FIELDS, QUERY_WEIGHTS } from "./collection-schema.ts";
import { fuzzyAllowed } from "../../text/query-limits.ts";

/*
 * EngineSearchRequest pieces as Typesense search parameters: the query text, filter_by clauses, sort_by and
 * the page window. Pure functions, so tests assert exactly what is sent.
 */

/** One search of a multi_search body. */
export type SearchParams = Record<string, string | number | boolean>;

export interface TextOptions {
  /** Prefix and typo candidates Typesense considers per word (Typesense's default is 4). */
  maxCandidates: number;
}

/**
 * The query as normalized tokens: case, accents, plurals folded and compounds joined exactly as documents
 * are indexed ("T-Shirts" -> "tshirt"). Two adjacent words the store knows joined are sent joined ("t shirt"
 * -> "tshirt", "sweat shirt" -> "sweatshirt"), the embedded engine's rule; Typesense's own split/join is off
 * because it only joins when the words do not match as they are. A word the store does not know is sent as
 * typed when that form is closer to a known word than its folded form (plural folding can shorten a
 * misspelling: "dres" folds to "dre", three letters and no typo allowed, while "dres" is one letter from
 * "dress"). Without a vocabulary (not loaded) the folded tokens are sent as they are.
 */
export function queryTokens(text: string, matching: TextMatching, vocabulary: TypoVocabulary | null): string {
  const words = queryWords(text);
  if (words.length === 0) return "*";
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const next = words[i + 1];
    if (vocabulary && next && !w.parts && !next.parts) {
      const pair = foldPlural(w.typed + next.typed);
      if (vocabulary.has(pair)) {
        out.push(pair);
        i++;
        continue;
      }
    }
    if (!matching.typos || !vocabulary || w.parts || w.typed === w.token || vocabulary.has(w.token)) {
      out.push(w.token);
      continue;
    }
    const folded = vocabulary.corrections(w.token, 1)[0];
    const typed = vocabulary.corrections(w.typed, 1)[0];
    out.push(typed && (!folded || typed.distance < folded.distance) ? w.typed : w.token);
  }
  return out.join(" ");
}

/**
 * Matching settings mirroring the embedded rules: every word must match (drop_tokens_threshold 0: the service
 * runs its own fallback), one typo from 4 letters and two from 8 (Damerau-Levenshtein, a transposition is one),
 * typos only when the exact words find nothing (typo_tokens_threshold 1), the last word as a prefix when asked
 * (Typesense's `prefix` applies to the last word only), no split/join of words by Typesense (queryTokens
 * joins known pairs itself, as the embedded engine does).
 */
export function textParams(q: string, matching: TextMatching, options: TextOptions): SearchParams {
  const perField = (value: string | number | boolean) => QUERY_FIELDS.map(() => String(value)).join(",");
  // Typesense sets typos per query, not per word: a word too long for typo work (query-limits.ts) turns them off.
  const words = q.split(" ");
  const typos = matching.typos && words.every(fuzzyAllowed);
  return {
    q,
    query_by: QUERY_FIELDS.join(","),
    query_by_weights: QUERY_WEIGHTS.join(","),
    prefix: perField(matching.prefixLast && fuzzyAllowed(words.at(-1) ?? "")),
    num_typos: perField(typos ? 2 : 0),
    min_len_1typo: 4,
    min_len_2typo: 8,
    typo_tokens_threshold: typos ? 1 : 0,
    drop_tokens_threshold: 0,
    split_join_tokens: "off",
    max_candidates: options.maxCandidates,
    highlight_fields: "none",
    highlight_full_fields: "none",
  };
}

/**
 * A filter_by condition; `group` names what a disjunctive facet count drops ("terms:<key>", "range:<field>"): a
 * key's selection and its exclusion share the key's group.
 */
export interface Clause {
  group: string | null;
  expr: string;
}

/** Matches no document: versions start at 1. Used for a facet key no document has. */
export const NOTHING: Clause = { group: null, expr: "version:<0" };

/** A string literal in filter_by. Typesense has no escape for a backtick inside one; it is dropped (Typesense's tokenizer ignores it anyway). */
export function literal(value: string): string {
  return `\`${value.replaceAll("`", "")}\``;
}

/** Numbers in filter_by and facet ranges: plain decimal notation, never exponents. */
export function formatNumber(n: number): string {
  const plain = String(n);
  if (!/e/i.test(plain)) return plain;
  return Math.abs(n) >= 1 ? BigInt(Math.round(n)).toString() : n.toFixed(20).replace(/\.?0+$/, "");
}

/** Bounds of an int64 field: [min, max) holds the same whole numbers as [ceil(min), ceil(max)). */
function bound(field: string, n: number): string {
  return formatNumber(numberType(field) === "int64" ? Math.ceil(n) : n);
}

export function idsFilter(ids: readonly string[], operator: ":=" | ":!=" = ":="): string {
  return `id${operator}[${ids.map(literal).join(",")}]`;
}

/** Ids that can be written as filter literals (a backtick cannot be escaped). */
export function filterableId(id: string): boolean {
  return !id.includes("`");
}

export interface KnownFields {
  facetKeys: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
}

export function compileFilters(filters: readonly EngineFilter[], fields: KnownFields): Clause[] {
  return filters.flatMap((f): Clause | Clause[] => {
    if (f.kind === "terms") {
      if (!fields.facetKeys.has(f.key) || f.values.length === 0) return { ...NOTHING, group: `terms:${f.key}` };
      return { group: `terms:${f.key}`, expr: `${facetField(f.key)}:=[${f.values.map(literal).join(",")}]` };
    }
    if (f.kind === "excludeTerms") {
      // Typesense's `:!=` keeps documents without the field, and a key no document has excludes nothing.
      if (!fields.facetKeys.has(f.key) || f.values.length === 0) return [];
      return { group: `terms:${f.key}`, expr: `${facetField(f.key)}:!=[${f.values.map(literal).join(",")}]` };
    }
    if (f.kind === "ids") {
      const ids = f.ids.filter(filterableId);
      return ids.length ? { group: "ids", expr: idsFilter(ids) } : { ...NOTHING, group: "ids" };
    }
    if (f.kind === "excludeIds") {
      const ids = f.ids.filter(filterableId);
      return ids.length ? { group: "excludeIds", expr: idsFilter(ids, ":!=") } : [];
    }
    const group = `range:${f.field}`;
    if (!fields.numbers.has(f.field)) return { ...NOTHING, group };
    const field = numberField(f.field);
    const parts: string[] = [];
    if (f.min !== undefined) parts.push(`${field}:>=${bound(f.field, f.min)}`);
    if (f.max !== undefined) parts.push(`${field}:<${bound(f.field, f.max)}`);
    // No bound: the documents that have the number (the embedded engine's NaN test), below any real value.
    if (parts.length === 0) parts.push(`${field}:>=-1000000000000000`);
    return { group, expr: parts.join(" && ") };
  });
}

export function filterBy(clauses: readonly Clause[]): string | undefined {
  return clauses.length ? clauses.map((c) => c.expr).join(" && ") : undefined;
}

export function without(clauses: readonly Clause[], group: string): Clause[] {
  return clauses.filter((c) => c.group !== group);
}

/** Typesense sorts by at most three fields. */
export const MAX_SORT_FIELDS = 3;

/** The sort_by part of a sort Typesense can express natively, "" when it sorts nothing, null when it needs the adapter. */
export function nativeSortPart(sort: EngineSort, fields: KnownFields): string | null {
  switch (sort.kind) {
    case "relevance":
      return "_text_match:desc";
    case "number":
      if (sort.bucket) return null;
      if (!fields.numbers.has(sort.field)) return "";
      return `${numberField(sort.field)}(missing_values: last):${sort.order}`;
    case "text":
      // Only sortText.name is indexed as a sortable field (name_sort); collation: see collection-schema.ts.
      return sort.field === "name" ? `name_sort:${sort.order}` : "";
    case "pinned":
      return pinnedSort(sort.ids);
    case "prefer":
      return preferSort(compileFilters(sort.filters.slice(0, MAX_PREFER_FILTERS), fields).map((c) => c.expr));
    case "liftPerGroup":
      return null;
    case "weighted":
      return weightedSort(sort.filters.slice(0, MAX_WEIGHTED_FILTERS).filter((f) => fields.facetKeys.has(f.key) && f.values.length > 0));
  }
}

/**
 * Weighted selections as one `_eval`: every combination of met and unmet selections spelled out (so exactly one
 * expression holds for a document, whichever of several Typesense scores), scored by the met weights' sum plus
 * an offset that keeps every score positive (a document with no met selection sits above the buried ones).
 */
export function weightedSort(selections: readonly { key: string; values: string[]; weight: number }[]): string {
  if (selections.length === 0) return "";
  const list = (f: { values: string[] }) => `[${f.values.map(literal).join(",")}]`;
  const offset = 1 + selections.reduce((sum, f) => sum + Math.abs(f.weight), 0);
  const n = selections.length;
  const parts: { expr: string; score: number }[] = [];
  for (let bits = 0; bits < 1 << n; bits++) {
    const met = (i: number) => (bits & (1 << i)) !== 0;
    const expr = selections.map((f, i) => `${facetField(f.key)}:${met(i) ? "=" : "!="}${list(f)}`).join(" && ");
    parts.push({ expr, score: offset + selections.reduce((sum, f, i) => sum + (met(i) ? f.weight : 0), 0) });
  }
  parts.sort((a, b) => b.score - a.score);
  return `_eval([ ${parts.map((p) => `(${p.expr}):${p.score}`).join(", ")} ]):desc`;
}

/**
 * Pinned ids first, in the listed order, through `_eval` scores rather than pinned_hits: pinned_hits would add
 * ids the query does not match, while a pin only reorders the result.
 */
export function pinnedSort(ids: readonly string[]): string {
  const listed = [...new Set(ids)].filter(filterableId);
  if (listed.length === 0) return "";
  if (listed.length === 1) return `_eval(id:=${literal(listed[0]!)}):desc`;
  return `_eval([ ${listed.map((id, i) => `(id:=${literal(id)}):${listed.length - i}`).join(", ")} ]):desc`;
}

/**
 * Conditions in order of importance, as one `_eval`: a document scores one bit per condition it satisfies, the
 * first condition's the highest. Each combination is spelled out with its score (the combination's bits),
 * highest first, so a document gets its own combination's score whether Typesense takes the first matching
 * expression or the best (MAX_PREFER_FILTERS keeps this at 7 expressions).
 */
export function preferSort(conditions: readonly string[]): string {
  if (conditions.length === 0) return "";
  if (conditions.length === 1) return `_eval(${conditions[0]}):desc`;
  const n = conditions.length;
  const parts: string[] = [];
  for (let bits = (1 << n) - 1; bits > 0; bits--) {
    const met = conditions.filter((_, i) => bits & (1 << (n - 1 - i)));
    parts.push(`(${met.join(" && ")}):${bits}`);
  }
  return `_eval([ ${parts.join(", ")} ]):desc`;
}

/**
 * sort_by from native parts: empty parts dropped, at most three fields, ending with insertion order (`seq`)
 * when there is room, as the embedded engine ends with row order.
 */
export function sortBy(parts: readonly string[]): string {
  const used = parts.filter(Boolean).slice(0, MAX_SORT_FIELDS);
  if (used.length < MAX_SORT_FIELDS) used.push("seq:asc");
  return used.join(",");
}

/**
 * Native sort_by for a whole chain, or null when some part needs the adapter (buckets, lift per group); `insert`
 * puts a ready part (the typed words first, when synonyms apply) before the chain's sort at `at`.
 */
export function nativeSortBy(chain: readonly EngineSort[], fields: KnownFields): string | null {
  const parts: string[] = [];
  for (const sort of chain) {
    const part = nativeSortPart(sort, fields);
    if (part === null) return null;
    parts.push(part);
  }
  return sortBy(parts);
}

/** Pages that cover [offset, offset + limit) and how many hits to skip in their concatenation. */
export interface PageWindow {
  pages: { page: number; perPage: number }[];
  skip: number;
}

/** Typesense's largest page. */
export const MAX_PER_PAGE = 250;

/**
 * Typesense pages are 1-based and fixed-size: an offset that is not a multiple of the limit is served by the
 * smallest page size whose page covers the whole window (e.g. offset 3, limit 3: page 2 of 3; offset 5,
 * limit 10: page 1 of 15), else by two consecutive pages of `limit`, and the hits are sliced.
 */
export function pageWindow(offset: number, limit: number, maxPerPage = MAX_PER_PAGE): PageWindow {
  if (limit <= 0) return { pages: [], skip: 0 };
  if (limit <= maxPerPage) {
    for (let perPage = limit; perPage <= maxPerPage; perPage++) {
      const first = Math.floor(offset / perPage);
      if ((first + 1) * perPage >= offset + limit) return { pages: [{ page: first + 1, perPage }], skip: offset - first * perPage };
    }
    const first = Math.floor(offset / limit);
    return {
      pages: [
        { page: first + 1, perPage: limit },
        { page: first + 2, perPage: limit },
      ],
      skip: offset - first * limit,
    };
  }
  const first = Math.floor(offset / maxPerPage);
  const last = Math.floor((offset + limit - 1) / maxPerPage);
  const pages = [];
  for (let p = first; p <= last; p++) pages.push({ page: p + 1, perPage: maxPerPage });
  return { pages, skip: offset - first * maxPerPage };
}

/** Typesense stores floats in single precision: the shortest decimal that is the same float32 (19.989999771 -> 19.99). */
export function float32Decimal(value: number): number {
  const target = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === target) return candidate;
  }
  return value;
}
