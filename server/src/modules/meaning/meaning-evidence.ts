import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { livePages, type CatalogRepository } from "../catalog/storage/catalog-repository.ts";
import type { EventsRepository } from "../events/storage/events-repository.ts";
import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import { tokenize } from "../../text/normalize.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { TrainingDocument } from "./semantic-space.ts";

/*
 * What a store's meaning is learned from, as documents of words (semantic-space.ts), all of it the store's own:
 * - each product: the words of its name, brand and categories (twice as telling as the rest), gender, colours and tags;
 * - each search a shopper then clicked or carted from (ProductClick and AddToCart events carry the query):
 *   the query's words beside the product's, and a search that found nothing in the same session shortly before
 *   (the shopper reworded it) beside the product too;
 * - each query the store imported with the categories it led to under its previous provider (POST /query-log).
 */

const CATALOG_PAGE = 1000;
/** Shopper evidence read at most, newest events within EVENT_DAYS. */
const MAX_EVENTS = 200_000;
const EVENT_PAGE = 5_000;
const EVENT_DAYS = 90;
/** A search that found nothing counts as what the shopper then clicked when the click came this soon after it. */
const REWORDED_WITHIN_MS = 10 * 60_000;
const MAX_IMPORTED = 20_000;
const DAY_MS = 86_400_000;

export interface EvidenceSources {
  catalog: Pick<CatalogRepository, "liveProductsAfter">;
  events: Pick<EventsRepository, "list">;
  searchLog: Pick<SearchLogRepository, "queryEvidence">;
  now: () => number;
}

/** The one string kept for each distinct word. */
type Intern = (word: string) => string;

/**
 * A catalog repeats a few thousand words over a million tokens: at 50,000 products its documents held 81 MiB with a
 * string per token and 33 with one per word, for the whole of a training.
 */
function interner(): Intern {
  const kept = new Map<string, string>();
  return (word) => {
    const known = kept.get(word);
    if (known !== undefined) return known;
    kept.set(word, word);
    return word;
  };
}

/** A product's words with their weights: what the product document and a click's evidence hold of it. */
export function productWords(p: Product, intern: Intern = (word) => word): { words: string[]; weights: number[] } {
  const words: string[] = [];
  const weights: number[] = [];
  const add = (text: string | undefined, weight: number) => {
    for (const t of tokenize(text ?? "")) {
      words.push(intern(t));
      weights.push(weight);
    }
  };
  add(p.name, 2);
  add(p.brand, 2);
  for (const c of p.categories ?? []) add(c, 2);
  add(p.gender, 1);
  add(p.ageGroup, 1);
  for (const v of p.variations ?? []) add(v.name, 1);
  for (const t of p.tags ?? []) add(t.slice(t.indexOf(":") + 1), 1);
  return { words, weights };
}

/** The query's words weighing `weight` each, then `other`'s. */
function beside(query: string, weight: number, other: { words: readonly string[]; weights: readonly number[] }): TrainingDocument {
  const q = tokenize(query);
  return { words: [...q, ...other.words], weights: [...q.map(() => weight), ...other.weights] };
}

export async function gatherEvidence(src: EvidenceSources, storeId: string): Promise<TrainingDocument[]> {
  const documents: TrainingDocument[] = [];
  const byId = new Map<string, { words: string[]; weights: number[] }>();
  const intern = interner();
  for await (const rows of livePages(src.catalog, storeId, CATALOG_PAGE)) {
    for (const row of rows) {
      const words = productWords(JSON.parse(row.doc) as Product, intern);
      byId.set(row.id, words);
      documents.push({ ...words, productId: row.id });
    }
    await yieldToEventLoop();
  }
  // Shoppers' searches and what they led to.
  const from = src.now() - EVENT_DAYS * DAY_MS;
  const nothingFound = new Map<string, { query: string; at: number }>();
  let read = 0;
  for (let afterSeq = 0; read < MAX_EVENTS; ) {
    const events = await src.events.list({ storeId, from, to: src.now() + 1, afterSeq, limit: EVENT_PAGE });
    for (const e of events) {
      const data = e.data as { query?: unknown; totalProducts?: unknown; clickProductId?: unknown; addProductId?: unknown };
      const query = typeof data.query === "string" ? data.query.trim() : "";
      const session = e.sessionId ?? e.userId ?? "";
      if (e.type === "Search" && query && data.totalProducts === 0 && session) nothingFound.set(session, { query, at: e.receivedAt });
      const productId = e.type === "ProductClick" ? data.clickProductId : e.type === "AddToCart" ? data.addProductId : undefined;
      const product = typeof productId === "string" ? byId.get(productId) : undefined;
      if (!product || !query) continue;
      documents.push(beside(query, 2, product));
      const earlier = nothingFound.get(session);
      if (earlier && e.receivedAt - earlier.at <= REWORDED_WITHIN_MS && earlier.query !== query)
        documents.push(beside(earlier.query, 2, product));
    }
    read += events.length;
    if (events.length < EVENT_PAGE) break;
    afterSeq = events.at(-1)!.seq;
    await yieldToEventLoop();
  }
  // What the store's previous provider recorded its queries led to.
  for (const e of await src.searchLog.queryEvidence(storeId, MAX_IMPORTED)) {
    const categories = e.ledTo.flatMap((c) => tokenize(c));
    documents.push(beside(e.query, 2 + Math.log1p(e.searches), { words: categories, weights: categories.map(() => 1) }));
  }
  return documents;
}
