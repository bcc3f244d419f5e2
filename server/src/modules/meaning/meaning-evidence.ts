import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { liveWordFieldPages, type CatalogRepository, type ProductWordFields } from "../catalog/storage/catalog-repository.ts";
import type { EventsRepository } from "../events/storage/events-repository.ts";
import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import { tokenize } from "../../text/normalize.ts";
import { TrainingEvidence } from "./training-evidence.ts";

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
  catalog: Pick<CatalogRepository, "liveWordFieldsAfter">;
  events: Pick<EventsRepository, "list">;
  searchLog: Pick<SearchLogRepository, "queryEvidence">;
  now: () => number;
}

/** Adds a product's words with their weights to the document `evidence` is gathering. */
export function addProductWords(evidence: TrainingEvidence, p: ProductWordFields): void {
  const add = (text: string | undefined, weight: number) => {
    for (const t of tokenize(text ?? "")) evidence.add(t, weight);
  };
  add(p.name, 2);
  add(p.brand, 2);
  for (const c of p.categories ?? []) add(c, 2);
  add(p.gender, 1);
  add(p.ageGroup, 1);
  for (const v of p.variations ?? []) add(v.name, 1);
  for (const t of p.tags ?? []) add(t.slice(t.indexOf(":") + 1), 1);
}

/** Adds a query's words, each weighing `weight`, to the document `evidence` is gathering. */
function addQuery(evidence: TrainingEvidence, query: string, weight: number): void {
  for (const t of tokenize(query)) evidence.add(t, weight);
}

/** A document of the query's words beside those of the product document `product`. */
function queryBeside(evidence: TrainingEvidence, query: string, product: number): void {
  addQuery(evidence, query, 2);
  evidence.addDocument(product);
  evidence.end();
}

export async function gatherEvidence(src: EvidenceSources, storeId: string): Promise<TrainingEvidence> {
  const evidence = new TrainingEvidence();
  // Each product's document, by id: a click's evidence repeats the product's words.
  const byId = new Map<string, number>();
  for await (const rows of liveWordFieldPages(src.catalog, storeId, CATALOG_PAGE)) {
    for (const row of rows) {
      addProductWords(evidence, row.fields);
      byId.set(row.id, evidence.end(row.id));
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
      if (product === undefined || !query) continue;
      queryBeside(evidence, query, product);
      const earlier = nothingFound.get(session);
      if (earlier && e.receivedAt - earlier.at <= REWORDED_WITHIN_MS && earlier.query !== query)
        queryBeside(evidence, earlier.query, product);
    }
    read += events.length;
    if (events.length < EVENT_PAGE) break;
    afterSeq = events.at(-1)!.seq;
    await yieldToEventLoop();
  }
  // What the store's previous provider recorded its queries led to.
  for (const e of await src.searchLog.queryEvidence(storeId, MAX_IMPORTED)) {
    addQuery(evidence, e.query, 2 + Math.log1p(e.searches));
    for (const c of e.ledTo) for (const t of tokenize(c)) evidence.add(t, 1);
    evidence.end();
  }
  return evidence;
}
