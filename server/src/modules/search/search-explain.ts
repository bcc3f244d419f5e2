import type { RerankParts } from "../ranking/result-reranker.ts";
import { tokenize } from "../../text/normalize.ts";
import type {
  EngineDocument,
  EngineFilter,
  EngineSearchRequest,
  EngineSearchResult,
  EngineSort,
  SearchableText,
  WordCorrection,
} from "../../engine/types.ts";
import type { QueryTerm, Role } from "./query-understanding.ts";

/*
 * `explain=true` (admin key): how a search read its query and why each product is where it is. Built from what
 * the service itself decided (the interpretation, the engine request) and from the products' own documents, so it
 * reads the same on both engines: the engine's relevance score as it reported it, which preferences a product
 * meets, and in which fields each matched word occurs.
 */

export interface TermExplanation {
  /** The words searched for the term. */
  text: string;
  /** As typed, when other than `text` (a spelling correction, another locale's word). */
  typed?: string;
  role: Role;
  /** Narrows the result ("gender:Men|Unisex"). */
  filters: string[];
  /** Ranks products having it first, without narrowing. */
  prefers: string[];
  /** Matched as text (a gender word is a filter only). */
  matchedAsText: boolean;
  /** Unknown to the catalog and without a look-alike. */
  unknown: boolean;
}

export interface ProductExplanation {
  productId: string;
  position: number;
  /** The engine's relevance score (the SQLite engine's weighted field score, or Typesense's text match). */
  relevance: number;
  /** Each preference in order of importance, and whether the product meets it: earlier ones weigh more. */
  prefers: { filter: string; met: boolean }[];
  /** Per searched word, the fields holding it as typed (folded); none: matched as a completion or a typo. */
  matches: Record<string, (keyof SearchableText)[]>;
  /** When behaviour or personalisation re-ranked the results: the engine's rank and what moved it. */
  reranking?: RerankParts;
}

export interface SearchExplanation {
  interpretation: TermExplanation[];
  /** Per query word: known to the catalog, and its look-alikes (null: spelling not checked, time ran out). */
  corrections: readonly WordCorrection[] | null;
  /** What the engine was asked, after query understanding (and the fallback, when there was one). */
  engine: { text: string; filters: string[]; sort: string[] };
  /** Terms the fallback dropped to find something. */
  dropped: string[];
  products: ProductExplanation[];
  /** The store's synonym sets that matched words of the query searched (`matched`: those words, normalized). */
  synonyms?: { id: string; matched: string }[];
  /** The query rules that fired, in the order they combine, and what each did. */
  rules?: { id: string; effects: string[] }[];
}

/** Values shown per filter: a colour word can stand for dozens of variation names ("Blue", "Navy Blue & White"…). */
const SHOWN_VALUES = 5;

function filterText(f: EngineFilter): string {
  if (f.kind === "range") return `${f.field}:[${f.min ?? ""},${f.max ?? ""})`;
  if (f.kind === "ids" || f.kind === "excludeIds") {
    return `${f.kind === "ids" ? "id" : "not id"}:${f.ids.slice(0, SHOWN_VALUES).join("|")}${f.ids.length > SHOWN_VALUES ? `|…(+${f.ids.length - SHOWN_VALUES})` : ""}`;
  }
  const more = f.values.length - SHOWN_VALUES;
  return `${f.kind === "excludeTerms" ? "not " : ""}${f.key}:${f.values.slice(0, SHOWN_VALUES).join("|")}${more > 0 ? `|…(+${more})` : ""}`;
}

function sortText(s: EngineSort): string {
  switch (s.kind) {
    case "relevance":
      return "relevance";
    case "prefer":
      return `prefer ${s.filters.map(filterText).join(" > ")}`;
    case "number":
      return `${s.field} ${s.order}${s.bucket ? ` in blocks of ${Math.abs(s.bucket.width)}` : ""}`;
    case "text":
      return `${s.field} ${s.order} (${s.locale})`;
    case "pinned":
      return `pinned ${s.ids.join(",")}`;
    case "liftPerGroup":
      return `${s.perGroup} per ${s.key} lifted`;
    case "weighted":
      return `weighted ${s.filters.map((f) => `${f.key}:${f.values.join("|")} ${f.weight > 0 ? "+" : ""}${f.weight}`).join(", ")}`;
  }
}

function holds(doc: EngineDocument, f: EngineFilter): boolean {
  if (f.kind === "terms") return (doc.facets[f.key] ?? []).some((v) => f.values.includes(v));
  if (f.kind === "excludeTerms") return !(doc.facets[f.key] ?? []).some((v) => f.values.includes(v));
  if (f.kind === "ids") return f.ids.includes(doc.id);
  if (f.kind === "excludeIds") return !f.ids.includes(doc.id);
  const n = doc.numbers[f.field];
  return n !== undefined && (f.min === undefined || n >= f.min) && (f.max === undefined || n < f.max);
}

const FIELDS: (keyof SearchableText)[] = ["name", "brand", "categories", "features", "tags", "description"];

function fieldsHolding(doc: EngineDocument, words: readonly string[]): Record<string, (keyof SearchableText)[]> {
  const tokens = FIELDS.map((field) => {
    const value = doc.text[field];
    return { field, tokens: new Set(tokenize(Array.isArray(value) ? value.join(" ") : value)) };
  });
  return Object.fromEntries(words.map((w) => [w, tokens.filter((t) => t.tokens.has(w)).map((t) => t.field)]));
}

export function explainSearch(input: {
  terms: readonly QueryTerm[];
  kept: readonly QueryTerm[];
  corrections: readonly WordCorrection[] | null;
  request: EngineSearchRequest;
  result: EngineSearchResult;
  /** The engine documents of the hits, by id (a hit the catalog no longer has is left out). */
  documents: ReadonlyMap<string, EngineDocument>;
  /** The 1-based position of the first hit. */
  firstPosition: number;
  reranking: ReadonlyMap<string, RerankParts> | null;
}): SearchExplanation {
  const { request, result } = input;
  const prefer = request.sort.find((s): s is Extract<EngineSort, { kind: "prefer" }> => s.kind === "prefer")?.filters ?? [];
  const words = [...new Set(tokenize(request.text))];
  const products: ProductExplanation[] = [];
  result.hits.forEach((hit, i) => {
    const doc = input.documents.get(hit.id);
    if (!doc) return;
    products.push({
      productId: hit.id,
      position: input.firstPosition + i,
      relevance: hit.score,
      prefers: prefer.map((f) => ({ filter: filterText(f), met: holds(doc, f) })),
      matches: fieldsHolding(doc, words),
      ...(input.reranking?.has(hit.id) ? { reranking: input.reranking.get(hit.id)! } : {}),
    });
  });
  return {
    interpretation: input.terms.map((t) => ({
      text: t.text,
      ...(t.typed === t.text ? {} : { typed: t.typed }),
      role: t.role,
      filters: t.filters.map(filterText),
      prefers: t.prefer.map(filterText),
      matchedAsText: t.matched,
      unknown: t.unknown,
    })),
    corrections: input.corrections,
    engine: { text: request.text, filters: request.filters.map(filterText), sort: request.sort.map(sortText) },
    dropped: input.terms.filter((t) => !input.kept.some((k) => k.typed === t.typed)).map((t) => t.text),
    products,
  };
}
