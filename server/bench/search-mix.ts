import type { SearchResponse } from "@storefront-search/contract";
import { join } from "node:path";
import { Rng } from "../../demo-store/src/catalog/seeded-random.ts";
import { loadConfig } from "../src/config.ts";
import type { FacetSelection } from "../src/modules/facets/facet-selection.ts";
import type { SortBy } from "../src/modules/search/sort-strategies.ts";

/*
 * The search mix the benches send: built from the real query suggestions, every request with facets, some with a
 * designer or price selection, sorts none/pricea/priced/new/rating. The same mix at engine level
 * (search-bench.ts) and over HTTP (search-bench.ts, million-bench.ts), so their figures compare.
 */

const QUERIES_FILE = join(loadConfig({}).demoCatalog.dir, "query-suggestions", "fashion-query-suggestions.json");

export interface QuerySuggestion {
  query: string;
  popularity?: number;
}

/** The demo's query suggestions (from a real fashion store's search log). */
export const querySuggestions = async (): Promise<QuerySuggestion[]> => (await Bun.file(QUERIES_FILE).json()) as QuerySuggestion[];

/** The suggestions' queries as a shopper types them: trimmed, none blank. */
export const queryTexts = (suggestions: readonly QuerySuggestion[]): string[] => suggestions.map((q) => q.query.trim()).filter(Boolean);

export type SortName = "relevance" | Extract<SortBy, "pricea" | "priced" | "new" | "rating">;
const SORTS: SortName[] = ["relevance", "pricea", "priced", "new", "rating"];
type Selection = "none" | "designer" | "price";

export interface MixItem {
  query: string;
  sort: SortName;
  selection: Selection;
  facets: FacetSelection[];
  /** Whether the query finds products in this catalog. */
  found: boolean;
}

/** Request classes reported separately; "facets + sort" is the one the latency targets are about. */
export function classOf(item: MixItem): string {
  if (!item.found) return "no results";
  if (item.selection !== "none") return "facets + selection + sort";
  return item.sort === "relevance" ? "facets, relevance" : "facets + sort";
}
export const CLASSES = ["facets, relevance", "facets + sort", "facets + selection + sort", "no results"];

/** Deterministic numbers in [0, 1) from a seed (mulberry32, as the demo catalog draws its synthetic fields). */
export function seeded(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

/** What the mix needs to know of a query's results in this catalog: how many, and the facet values a shopper clicks. */
export interface QueryFacts {
  total: number;
  /** Designer facet values, most products first. */
  designers: readonly string[];
  /** Price facet buckets, in price order. */
  priceBuckets: readonly { lb: number; ub: number }[];
}

/** A query's facts from its answer (with facets): an answer that fell back to other words, or recovered, found nothing for it. */
export function factsOfAnswer(body: SearchResponse): QueryFacts {
  const values = (key: string) => body.facets?.find((f) => f.key === key)?.values ?? [];
  return {
    total: body.fallback || body.recovered ? 0 : body.totalProductCount,
    designers: values("designer").map((v) => v.key),
    priceBuckets: values("price").flatMap((v) => (v.lb === undefined || v.ub === undefined ? [] : [{ lb: v.lb, ub: v.ub }])),
  };
}

/**
 * A deterministic mix. The suggestion file comes from another store, so many of its queries find nothing in
 * this catalog: 90% of requests use a query that finds products here, 10% one that does not (at HTTP level those
 * take the fallback path). Uniform over those queries and the five sorts; 60% without a selection, 25% with the
 * query's top designer selected, 15% with its second price bucket (what a shopper clicks in the facet list).
 * Selections come from each query's own facets, asked once per query (which also warms the searcher up).
 */
export async function buildMix(
  queries: string[],
  count: number,
  factsOf: (q: string) => Promise<QueryFacts>,
): Promise<{ mix: MixItem[]; found: number }> {
  const known = new Map<string, QueryFacts>();
  for (const q of queries) if (!known.has(q)) known.set(q, await factsOf(q));
  const found = [...known.keys()].filter((q) => known.get(q)!.total > 0);
  const empty = [...known.keys()].filter((q) => known.get(q)!.total === 0);
  if (found.length === 0) throw new Error("no query of the suggestion file finds a product");
  const random = seeded(42);
  const pick = (list: string[]) => list[Math.floor(random() * list.length)]!;
  const mix: MixItem[] = [];
  for (let i = 0; i < count; i++) {
    const query = random() < 0.9 || empty.length === 0 ? pick(found) : pick(empty);
    const sort = SORTS[Math.floor(random() * SORTS.length)]!;
    const r = random();
    const selection: Selection = r < 0.6 ? "none" : r < 0.85 ? "designer" : "price";
    const facts = known.get(query)!;
    const designer = facts.designers[0];
    const bucket = facts.priceBuckets[Math.min(1, facts.priceBuckets.length - 1)];
    const base = { query, sort, found: facts.total > 0 };
    if (selection === "designer" && designer) mix.push({ ...base, selection, facets: [{ key: "designer", value: designer }] });
    else if (selection === "price" && bucket)
      mix.push({ ...base, selection, facets: [{ key: "price", value: `${bucket.lb}-${bucket.ub}` }] });
    else mix.push({ ...base, selection: "none", facets: [] });
  }
  return { mix, found: found.length };
}

/** GET /search's parameters for a mix item (facets returned, the sort, the selection in the facets syntax). */
export function searchParams(item: MixItem): URLSearchParams {
  const params = new URLSearchParams({ query: item.query, returnFacets: "true" });
  if (item.sort !== "relevance") params.set("sortBy", item.sort);
  const escapeValue = (v: string) => v.replace(/[\\,]/g, (c) => `\\${c}`);
  if (item.facets.length) params.set("facets", item.facets.map((f) => `${f.key}:${escapeValue(f.value)}`).join(","));
  return params;
}
