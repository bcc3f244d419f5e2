import { rangeBounds, rangeBuckets } from "../range-buckets.ts";
import { stableHash } from "../stable-hash.ts";
import type { TypoVocabulary } from "../../text/typo-vocabulary.ts";
import type { EngineSearchRequest, EngineSearchResult, EngineSort, FacetCount, RangeCount } from "../types.ts";
import { alternativeSpans } from "../alternative-spans.ts";
import { queryWords } from "../../text/normalize.ts";
import { facetField, facetKeyOf, numberField, numberType, QUERY_FIELDS, queryIdentifierKey } from "./collection-schema.ts";
import {
  compileFilters,
  filterableId,
  filterBy,
  float32Decimal,
  formatNumber,
  idsFilter,
  literal,
  type Clause,
  type KnownFields,
  MAX_PER_PAGE,
  nativeSortBy,
  nativeSortPart,
  NOTHING,
  pageWindow,
  queryTokens,
  sortBy,
  type SearchParams,
  textParams,
  without,
} from "./search-params.ts";

/*
 * One EngineSearchRequest as Typesense multi_search calls.
 *
 * First call (one multi_search): the main query (all filters; facet counts of the keys nobody selected; the
 * page of hits when the sort is native), one query per selected facet key without that key's own filter
 * (disjunctive counts, as InstantSearch adapters do), one per range facet without its own range filter, and,
 * for a text query, an identifier probe (ids and relatedIds equal to the whole query).
 *
 * Sorts Typesense cannot express natively are ordered by the adapter with extra calls:
 * - number buckets (newc, newc2): probes read the sort field's value at the first and at the last requested
 *   position; every bucket in between becomes a scored `_eval` expression, so Typesense orders by bucket and
 *   then by the next sorts. Exact while the window spans at most `maxBucketExpressions` buckets; past that the
 *   documents of the first buckets still come exactly, and the ones after them by the plain value (e.g. 1-day
 *   blocks over a catalog whose arrivals spread over years, paged deep).
 * - liftPerGroup (vendor_based_newness): a `group_by` query picks `perGroup` documents per group by
 *   `_rand(seed)` (stable for one shopper and day, as the embedded hash is, but not the same choice); the
 *   lifted block is ordered by the same seeded hash as the embedded engine, and the rest follows with
 *   `id:!=[lifted]` by the next sorts. One extra call per 250 groups.
 * - identifier matches come first as a block whatever the sort (the embedded engine ranks them first only
 *   under relevance). When the text itself matches nothing, the search is repeated over the identifier
 *   matches alone, so facets and totals are exact; otherwise facet counts leave out identifier-only matches.
 *
 * Alternatives (a store's synonyms, EngineSearchRequest.alternatives): q cannot say "this word or that one", so
 * the words that have alternatives leave q and become a filter_by condition (the typed words or one alternative,
 * every token in some searchable field, word-level `field:token`). Those words then add nothing to _text_match:
 * a document holding an alternative ranks as one holding the typed words, by the other words and the next sorts.
 *
 * Range facets: the field's value counts (up to `rangeFacetValues` distinct values) give the value
 * distribution, and rangeBuckets (the embedded engine's function) makes the same buckets from it; when a
 * result holds more distinct values than that, the buckets come from the partial distribution plus
 * facet_stats min/max, and a second call counts them exactly with Typesense range facets.
 */

export interface TsHit {
  document: Record<string, unknown>;
  text_match?: number;
}

export interface TsFacetCount {
  field_name: string;
  counts: { value: string; count: number }[];
  stats?: { min?: number; max?: number; total_values?: number };
}

export interface TsSearchResult {
  found: number;
  hits?: TsHit[];
  grouped_hits?: { group_key: unknown[]; hits: TsHit[] }[];
  facet_counts?: TsFacetCount[];
}

export interface SearchRunOptions {
  maxFacetValues: number;
  rangeFacetValues: number;
  maxCandidates: number;
  maxBucketExpressions: number;
}

export interface SearchRunDeps {
  /** Runs searches in one multi_search; failures already mapped to engine errors. */
  multiSearch: (searches: SearchParams[]) => Promise<TsSearchResult[]>;
  collection: string;
  fields: KnownFields;
  vocabulary: TypoVocabulary | null;
  options: SearchRunOptions;
}

interface Hit {
  id: string;
  score: number;
}

/** Score of an identifier match, as in the embedded engine (above every text score). */
const IDENTIFIER_SCORE = 1e9;

/** A filter_by condition: the document holds every one of `tokens` in some searchable field (word-level `:`). */
function holdsAll(tokens: readonly string[]): string {
  return `(${tokens.map((t) => `(${QUERY_FIELDS.map((f) => `${f}:${literal(t)}`).join(" || ")})`).join(" && ")})`;
}

export function expandFacetKeys(requested: readonly string[], known: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const key of requested) {
    if (key.endsWith("*")) {
      const prefix = key.slice(0, -1);
      for (const k of [...known].sort()) if (k.startsWith(prefix)) out.add(k);
    } else if (known.has(key)) {
      out.add(key);
    }
  }
  return [...out];
}

const compareFacets = (a: FacetCount, b: FacetCount) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);

function facetCounts(fc: TsFacetCount): FacetCount[] {
  return fc.counts
    .filter((c) => c.count > 0)
    .map((c) => ({ value: String(c.value), count: c.count }))
    .sort(compareFacets);
}

function hitId(hit: TsHit): string {
  return String(hit.document.id);
}

function toHit(hit: TsHit): Hit {
  return { id: hitId(hit), score: typeof hit.text_match === "number" ? hit.text_match : 0 };
}

/** Numbers as the engine holds them: single-precision floats back to their shortest decimal. */
function parseNumber(name: string, value: unknown): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  if (!Number.isFinite(n)) return undefined;
  return numberType(name) === "float" ? float32Decimal(n) : n;
}

/** A numeric condition on an int64 or float field, with whole-number bounds for int64. */
function numberCondition(name: string, op: ">=" | ">" | "<" | "<=", value: number): string {
  let v = value;
  if (numberType(name) === "int64" && !Number.isInteger(v)) {
    // Same whole numbers: x >= 2.5 <=> x >= 3; x < 2.5 <=> x < 3; x > 2.5 <=> x > 2; x <= 2.5 <=> x <= 2.
    v = op === ">=" || op === "<" ? Math.ceil(v) : Math.floor(v);
  }
  return `${numberField(name)}:${op}${formatNumber(v)}`;
}

export class SearchRun {
  constructor(private readonly d: SearchRunDeps) {}

  private base(q: string, request: EngineSearchRequest): SearchParams {
    return { collection: this.d.collection, ...textParams(q, request.matching, { maxCandidates: this.d.options.maxCandidates }) };
  }

  async search(request: EngineSearchRequest): Promise<EngineSearchResult> {
    const filters = compileFilters(request.filters, this.d.fields);
    const hasText = request.text.trim() !== "";
    const words = request.alternatives?.length ? queryWords(request.text) : [];
    const spans = alternativeSpans(words, request.alternatives ?? []);
    // Typesense has no "this word or that one" in q: words with alternatives are matched by filter_by instead.
    const inSpan = new Set(spans.flatMap((span) => words.slice(span.from, span.to)));
    const text = spans.length
      ? words
          .filter((w) => !inSpan.has(w))
          .map((w) => w.typed)
          .join(" ")
      : request.text;
    const q = queryTokens(text, request.matching, this.d.vocabulary);
    const spanClauses = spans.map((span): Clause => {
      const typed = words.slice(span.from, span.to).map((w) => w.token);
      return { group: null, expr: `(${[typed, ...span.alternatives].map(holdsAll).join(" || ")})` };
    });
    // Text of separators only ("---"): no word to match, only an identifier can.
    const textClauses = hasText && q === "*" && !spans.length ? [...filters, NOTHING] : [...filters, ...spanClauses];
    const probe = hasText ? { ...this.base("*", request), filter_by: filterBy([...filters, this.identifierClause(request.text)])! } : null;
    return this.evaluate(request, this.base(q, request), textClauses, probe, filters);
  }

  private identifierClause(text: string): Clause {
    return { group: null, expr: `identifiers:=[${queryIdentifierKey(text)}]` };
  }

  private async evaluate(
    request: EngineSearchRequest,
    base: SearchParams,
    clauses: Clause[],
    probe: SearchParams | null,
    filters: Clause[],
  ): Promise<EngineSearchResult> {
    const { fields, options } = this.d;
    const requested = expandFacetKeys(request.facets, fields.facetKeys);
    const selected = new Set(request.filters.flatMap((f) => (f.kind === "terms" || f.kind === "excludeTerms" ? [f.key] : [])));
    const openKeys = requested.filter((k) => !selected.has(k));
    const disjunctiveKeys = requested.filter((k) => selected.has(k));
    const ranges = request.rangeFacets.filter((r) => fields.numbers.has(r.field) && r.maxBuckets >= 1);
    const nativeSort = this.nativeSort(request.sort);
    const window = nativeSort !== null ? pageWindow(request.offset, request.limit) : { pages: [], skip: 0 };

    const searches: SearchParams[] = [];
    const [firstPage, ...morePages] = window.pages;
    const main: SearchParams = {
      ...base,
      include_fields: "id",
      sort_by: nativeSort ?? sortBy([]),
      page: firstPage?.page ?? 1,
      per_page: firstPage?.perPage ?? 0,
    };
    const mainFilter = filterBy(clauses);
    if (mainFilter) main.filter_by = mainFilter;
    if (openKeys.length) Object.assign(main, { facet_by: openKeys.map(facetField).join(","), max_facet_values: options.maxFacetValues });
    searches.push(main);
    const pageAt = searches.length;
    for (const p of morePages)
      searches.push(this.withFilter({ ...base, include_fields: "id", sort_by: nativeSort!, page: p.page, per_page: p.perPage }, clauses));
    const disjunctiveAt = searches.length;
    for (const key of disjunctiveKeys) {
      searches.push(
        this.withFilter(
          { ...base, facet_by: facetField(key), max_facet_values: options.maxFacetValues, per_page: 0 },
          without(clauses, `terms:${key}`),
        ),
      );
    }
    const rangesAt = searches.length;
    for (const r of ranges) {
      searches.push(
        this.withFilter(
          { ...base, facet_by: numberField(r.field), max_facet_values: options.rangeFacetValues, per_page: 0 },
          without(clauses, `range:${r.field}`),
        ),
      );
    }
    const probeAt = searches.length;
    if (probe) searches.push({ ...probe, include_fields: "id", sort_by: sortBy([]), page: 1, per_page: MAX_PER_PAGE });

    const results = await this.d.multiSearch(searches);
    const mainResult = results[0]!;
    // Ids with a backtick cannot be written in a filter; they are left to the text match.
    const identifierIds = probe ? (results[probeAt]!.hits ?? []).map(hitId).filter(filterableId) : [];

    if (identifierIds.length && mainResult.found === 0) {
      // Only identifiers match: the same search over them alone gives exact hits, facets and totals.
      const idClause = { group: null, expr: idsFilter(identifierIds) };
      const alone = await this.evaluate(request, { ...base, q: "*" }, [...filters, idClause], null, filters);
      return { ...alone, hits: alone.hits.map((h) => ({ ...h, score: IDENTIFIER_SCORE })) };
    }

    const facets: Record<string, FacetCount[]> = {};
    const collect = (fc: TsFacetCount | undefined) => {
      const key = fc && facetKeyOf(fc.field_name);
      if (!fc || key === null || key === undefined) return;
      const counts = facetCounts(fc);
      if (counts.length) facets[key] = counts;
    };
    for (const fc of mainResult.facet_counts ?? []) collect(fc);
    disjunctiveKeys.forEach((_, i) => collect(results[disjunctiveAt + i]!.facet_counts?.[0]));

    // Everything below runs concurrently and is awaited together (no promise is left without a handler).
    const rangesPromise = Promise.all(
      ranges.map((r, i) => this.rangeCounts(base, without(clauses, `range:${r.field}`), r.field, r.maxBuckets, results[rangesAt + i]!)),
    );
    let hitsPromise: Promise<Hit[]>;
    let extraPromise: Promise<number> = Promise.resolve(0);
    if (identifierIds.length) {
      hitsPromise = this.blockThenRest(base, clauses, identifierIds, request.sort, request.offset, request.limit, IDENTIFIER_SCORE);
      // The total also counts the identifier matches that the text does not match.
      extraPromise = this.d
        .multiSearch([this.withFilter({ ...base, per_page: 0 }, [...clauses, { group: null, expr: idsFilter(identifierIds) }])])
        .then(([overlap]) => identifierIds.length - overlap!.found);
    } else if (nativeSort !== null) {
      const pageHits = [mainResult, ...morePages.map((_, i) => results[pageAt + i]!)].flatMap((r) => r.hits ?? []);
      hitsPromise = Promise.resolve(pageHits.slice(window.skip, window.skip + request.limit).map(toHit));
    } else {
      hitsPromise = this.orderedHits(base, clauses, request.sort, request.offset, request.limit);
    }
    const [hits, rangeList, extra] = await Promise.all([hitsPromise, rangesPromise, extraPromise]);
    const total = mainResult.found + extra;
    const rangesOut: Record<string, RangeCount[]> = {};
    ranges.forEach((r, i) => {
      if (rangeList[i]!.length) rangesOut[r.field] = rangeList[i]!;
    });
    return { total, hits, facets, ranges: rangesOut };
  }

  private withFilter(params: SearchParams, clauses: readonly Clause[]): SearchParams {
    const f = filterBy(clauses);
    return f ? { ...params, filter_by: f } : params;
  }

  /** Hits [offset, offset + limit) in `chain` order, for chains that need the adapter. */
  private async orderedHits(
    base: SearchParams,
    clauses: Clause[],
    chain: readonly EngineSort[],
    offset: number,
    limit: number,
  ): Promise<Hit[]> {
    if (limit <= 0) return [];
    const native = this.nativeSort(chain);
    if (native !== null) return this.fetchWindow(base, clauses, native, offset, limit);
    const [first, ...rest] = chain;
    if (first?.kind === "liftPerGroup") {
      const lifted = await this.liftedIds(base, clauses, first);
      return this.blockThenRest(base, clauses, lifted, rest, offset, limit, 0);
    }
    if (first?.kind === "number" && first.bucket)
      return this.bucketHits(base, clauses, { ...first, bucket: first.bucket }, rest, offset, limit);
    // An adapter-only sort after the first place: buckets fall back to their plain value, lifts are left out.
    const degraded = chain.flatMap((s): EngineSort[] =>
      s.kind === "liftPerGroup" ? [] : s.kind === "number" ? [{ kind: "number", field: s.field, order: s.order }] : [s],
    );
    return this.fetchWindow(base, clauses, this.nativeSort(degraded)!, offset, limit);
  }

  private nativeSort(chain: readonly EngineSort[]): string | null {
    return nativeSortBy(chain, this.d.fields);
  }

  private async fetchWindow(base: SearchParams, clauses: Clause[], sort: string, offset: number, limit: number): Promise<Hit[]> {
    const window = pageWindow(offset, limit);
    if (window.pages.length === 0) return [];
    const results = await this.d.multiSearch(
      window.pages.map((p) =>
        this.withFilter({ ...base, include_fields: "id", sort_by: sort, page: p.page, per_page: p.perPage }, clauses),
      ),
    );
    return results
      .flatMap((r) => r.hits ?? [])
      .slice(window.skip, window.skip + limit)
      .map(toHit);
  }

  /** `block` first (in its order), then the other documents by `rest`. */
  private async blockThenRest(
    base: SearchParams,
    clauses: Clause[],
    block: readonly string[],
    rest: readonly EngineSort[],
    offset: number,
    limit: number,
    blockScore: number,
  ): Promise<Hit[]> {
    const head = block.slice(offset, offset + limit).map((id) => ({ id, score: blockScore }));
    if (offset + limit <= block.length) return head;
    const excluded = block.filter(filterableId);
    const restClauses = excluded.length ? [...clauses, { group: null, expr: idsFilter(excluded, ":!=") }] : clauses;
    const inBlock = new Set(block);
    const tail = await this.orderedHits(
      base,
      restClauses,
      rest,
      Math.max(0, offset - block.length),
      offset + limit - Math.max(offset, block.length),
    );
    return head.concat(tail.filter((h) => !inBlock.has(h.id)));
  }

  /** Up to perGroup documents of each value of the key, chosen by `_rand(seed)`, in the seeded hash order. */
  private async liftedIds(base: SearchParams, clauses: Clause[], lift: Extract<EngineSort, { kind: "liftPerGroup" }>): Promise<string[]> {
    if (lift.perGroup < 1 || !this.d.fields.facetKeys.has(lift.key)) return [];
    const seed = (stableHash(lift.seed) % 2_147_483_646) + 1;
    const ids: string[] = [];
    for (let page = 1; ; page++) {
      const [result] = await this.d.multiSearch([
        this.withFilter(
          {
            ...base,
            include_fields: "id",
            group_by: facetField(lift.key),
            group_limit: lift.perGroup,
            sort_by: `_rand(${seed})`,
            page,
            per_page: MAX_PER_PAGE,
          },
          clauses,
        ),
      ]);
      const grouped = result!.grouped_hits ?? [];
      for (const group of grouped) {
        // Documents without the key form one group with an empty key: they are not lifted.
        if (group.group_key.length > 0) ids.push(...group.hits.map(hitId));
      }
      // Only a short page ends the groups: since v29 `found` counts groups only approximately (within 2%).
      if (grouped.length < MAX_PER_PAGE) break;
    }
    const hash = (id: string) => stableHash(`${lift.seed}\u0000${id}`);
    return ids.sort((a, b) => hash(a) - hash(b));
  }

  private async bucketHits(
    base: SearchParams,
    clauses: Clause[],
    sort: Extract<EngineSort, { kind: "number" }> & { bucket: { origin: number; width: number } },
    rest: readonly EngineSort[],
    offset: number,
    limit: number,
  ): Promise<Hit[]> {
    const { fields, options } = this.d;
    if (!fields.numbers.has(sort.field)) return this.orderedHits(base, clauses, rest, offset, limit);
    const { origin, width } = sort.bucket;
    const field = numberField(sort.field);
    // Bucket keys in sort order <=> values in this order (a negative width counts backwards).
    const valueOrder = (sort.order === "asc") === width > 0 ? "asc" : "desc";
    const reverse = valueOrder === "asc" ? "desc" : "asc";
    const probe = (order: string, page: number) =>
      this.withFilter(
        { ...base, include_fields: `id,${field}`, sort_by: `${field}(missing_values: last):${order}`, page, per_page: 1 },
        clauses,
      );
    const [first, kth, last] = await this.d.multiSearch([probe(valueOrder, 1), probe(valueOrder, offset + limit), probe(reverse, 1)]);
    const valueOf = (r: TsSearchResult | undefined) => parseNumber(sort.field, r?.hits?.[0]?.document[field]);
    const v1 = valueOf(first);
    // The sorts after the buckets (adapter-only ones among them are left out).
    const restParts = rest.map((s) => nativeSortPart(s, fields) ?? "");
    // No document has the value: they all tie on it, the next sorts decide.
    if (v1 === undefined) return this.fetchWindow(base, clauses, sortBy(restParts), offset, limit);
    const vEnd = valueOf(kth) ?? valueOf(last) ?? v1;
    const key = (v: number) => Math.floor((v - origin) / width);
    const k1 = key(v1);
    const step = sort.order === "asc" ? 1 : -1;
    const spanned = Math.abs(key(vEnd) - k1) + 1;
    const n = Math.min(spanned, options.maxBucketExpressions);
    // Values whose bucket is one of kFrom..kTo: [a, b) for a positive width, (b, a] for a negative one.
    const bucketRange = (kFrom: number, kTo: number) => {
      const [kLo, kHi] = kFrom <= kTo ? [kFrom, kTo] : [kTo, kFrom];
      return width > 0
        ? `${numberCondition(sort.field, ">=", origin + kLo * width)} && ${numberCondition(sort.field, "<", origin + (kHi + 1) * width)}`
        : `${numberCondition(sort.field, ">", origin + (kHi + 1) * width)} && ${numberCondition(sort.field, "<=", origin + kLo * width)}`;
    };
    const buckets = Array.from({ length: n }, (_, i) => bucketRange(k1 + i * step, k1 + i * step));
    const evalPart = n === 1 ? `_eval(${buckets[0]}):desc` : `_eval([ ${buckets.map((e, i) => `(${e}):${n - i}`).join(", ")} ]):desc`;
    const exact = sortBy([evalPart, ...restParts]);
    if (spanned <= n) return this.fetchWindow(base, clauses, exact, offset, limit);
    // The window reaches past n buckets: the documents of those come first, exactly; the others follow by the
    // plain value (then the next sorts). They are the same documents as in a plain-value order from `inside` on.
    const insideClauses = [...clauses, { group: null, expr: bucketRange(k1, k1 + (n - 1) * step) }];
    const [counted] = await this.d.multiSearch([this.withFilter({ ...base, per_page: 0 }, insideClauses)]);
    const inside = counted!.found;
    const from = Math.max(offset, inside);
    const plain = sortBy([`${field}(missing_values: last):${valueOrder}`, ...restParts]);
    const [head, tail] = await Promise.all([
      this.fetchWindow(base, insideClauses, exact, offset, Math.max(0, Math.min(limit, inside - offset))),
      this.fetchWindow(base, clauses, plain, from, offset + limit - from),
    ]);
    return head.concat(tail);
  }

  /** Range buckets from the value distribution; exact counts from a range facet when the distribution was cut. */
  private async rangeCounts(
    base: SearchParams,
    clauses: Clause[],
    name: string,
    maxBuckets: number,
    result: TsSearchResult,
  ): Promise<RangeCount[]> {
    const fc = result.facet_counts?.[0];
    if (!fc || fc.counts.length === 0) return [];
    const sample: number[] = [];
    for (const c of fc.counts) {
      const v = parseNumber(name, c.value);
      if (v !== undefined) for (let i = 0; i < c.count; i++) sample.push(v);
    }
    const totalValues = fc.stats?.total_values;
    const complete = totalValues !== undefined ? fc.counts.length >= totalValues : fc.counts.length < this.d.options.rangeFacetValues;
    if (complete) return rangeBuckets(sample, maxBuckets);
    for (const extreme of [fc.stats?.min, fc.stats?.max]) {
      const v = parseNumber(name, extreme);
      if (v !== undefined) sample.push(v);
    }
    // Every bound, also those empty in the partial distribution: Typesense counts all documents into them.
    const bounds = rangeBounds(sample, maxBuckets);
    if (bounds.length === 0) return [];
    const int = numberType(name) === "int64";
    const edge = (n: number) => formatNumber(int ? Math.ceil(n) : n);
    const ranges = bounds.map((b, i) => `r${i}:[${edge(b.lb)}, ${edge(b.ub)}]`).join(", ");
    const [counted] = await this.d.multiSearch([
      this.withFilter({ ...base, facet_by: `${numberField(name)}(${ranges})`, per_page: 0 }, clauses),
    ]);
    const byLabel = new Map((counted!.facet_counts?.[0]?.counts ?? []).map((c) => [String(c.value), c.count]));
    return bounds.map((b, i) => ({ lb: b.lb, ub: b.ub, count: byLabel.get(`r${i}`) ?? 0 })).filter((b) => b.count > 0);
  }
}
