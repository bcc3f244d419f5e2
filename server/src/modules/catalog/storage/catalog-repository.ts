/*
 * The catalog (source of truth for products) and each product's shaped Search product JSON: the interface both
 * durable stores implement (catalog-repo.ts on SQLite,
 * postgres/catalog-repo.ts), held to the same behaviour by server/test/repository-conformance.test.ts.
 */
import type { Product } from "../product-schema.ts";
import type { Utf8Text } from "../../../utf8-text.ts";

/** What the indexing worker needs to know of a product to compute its next version. */
export interface CatalogState {
  version: number;
  contentHash: string | null;
  deleted: boolean;
}

export interface CatalogEntry extends CatalogState {
  /** The product JSON as indexed; null for a deleted product. */
  doc: string | null;
  updatedAt: number;
}

/** A product's new state as an indexing batch commits it. */
export interface CommittedProduct extends CatalogState {
  id: string;
  /** Canonical JSON; null for a deletion. Its stored Search product JSON goes: a page shapes it again. */
  doc: Utf8Text | null;
}

/** The fields of a product learned meaning takes its words from (meaning-evidence.ts). */
export type ProductWordFields = Pick<Product, "name" | "brand" | "categories" | "gender" | "ageGroup" | "tags"> & {
  variations?: { name?: string }[];
};

/** ProductWordFields from the JSON a database made of them, a field it found no value for left out. */
const parseWordFields = (json: string): ProductWordFields =>
  JSON.parse(json, (_, value) => (value === null ? undefined : value)) as ProductWordFields;

/**
 * A document whose text holds a `\u` escape (canonical JSON writes one only for a control character or a lone
 * surrogate): PostgreSQL's JSON functions refuse an escaped NUL and lone surrogates, SQLite's turn a lone surrogate
 * into other characters, so a database hands such a document over whole and its word fields are picked here.
 */
export const WORD_FIELDS_UNREAD = "\\u";

/** A product's word fields as a database picked them (`fields`), or picked here from its whole document (`doc`). */
export function wordFieldsOf(row: { fields: string | null; doc: string | null }): ProductWordFields {
  if (row.fields !== null) return parseWordFields(row.fields);
  const p = JSON.parse(row.doc ?? "{}") as Product;
  const picked = {
    name: p.name,
    brand: p.brand,
    categories: p.categories,
    gender: p.gender,
    ageGroup: p.ageGroup,
    tags: p.tags,
    variations: (p.variations ?? []).map((v) => ({ name: v.name })),
  };
  // Through JSON as a database's fields come: absent and null fields left out alike.
  return parseWordFields(JSON.stringify(picked));
}

export interface CatalogRepository {
  get(storeId: string, id: string): Promise<CatalogEntry | null>;
  /** The version and content hash of those of `ids` the catalog has (live or deleted), without their documents. */
  states(storeId: string, ids: readonly string[]): Promise<Map<string, CatalogState>>;
  /** The JSON of those of `ids` that are live, by id. */
  liveDocs(storeId: string, ids: readonly string[]): Promise<Map<string, string>>;
  countLive(storeId: string): Promise<number>;
  /** Up to `limit` live products with ids after `afterId`, in id order (byte order): a store read a page at a time. */
  liveProductsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; version: number; doc: string }[]>;
  /**
   * Like liveProductsAfter, but only the fields learned meaning takes its words from, picked out by the database:
   * the whole document parsed for a few of its words was most of what a training read.
   */
  liveWordFieldsAfter(storeId: string, afterId: string, limit: number): Promise<{ id: string; fields: ProductWordFields }[]>;
  /** Products (live or deleted) whose row changed at or after `since` (ms), in id order; a deleted one has a null doc. */
  changedSince(storeId: string, since: number): Promise<{ id: string; version: number; doc: string | null }[]>;
  /** The Search product JSON of those of `ids` shaped with `shaping`, by id; others are missing. */
  shaped(storeId: string, ids: readonly string[], shaping: string): Promise<Map<string, string>>;
  /**
   * A count that changes whenever any of the store's shapes is changed or removed, by any process (shape-cache.ts;
   * a new shape is not counted: nothing can be kept of a row that did not exist); absent where keeping shapes in
   * memory is not worth it (PostgreSQL: a count every writer bumps would make a store's writers on all replicas
   * wait for each other).
   */
  shapesEpoch?(storeId: string): Promise<number>;
  /**
   * Stores Search product JSON made from the catalog (a page's missing shapes), each for the version it was made
   * from: a product a batch committed since (a newer version, its shape dropped) is left without, for the next
   * page to shape. A shape already there under the same shaping stays.
   */
  putShapes(storeId: string, shaping: string, shapes: readonly (readonly [id: string, version: number, json: string])[]): Promise<void>;
  /** Drops the stored shapes of `ids`: shapes a page made with colours that changed before it stored them. */
  dropShapes(storeId: string, ids: readonly string[]): Promise<void>;
}

/** A product of the catalog, parsed; null when unknown or deleted. */
export async function productIn(catalog: Pick<CatalogRepository, "get">, storeId: string, id: string): Promise<Product | null> {
  const doc = (await catalog.get(storeId, id))?.doc;
  return doc ? (JSON.parse(doc) as Product) : null;
}

/**
 * Those of `ids` live in the catalog, parsed, by id: a page's products in one read (a read each left a row, a
 * promise and a frame per product for the collector, and was a round trip each on PostgreSQL).
 */
export async function liveProductsIn(
  catalog: Pick<CatalogRepository, "liveDocs">,
  storeId: string,
  ids: readonly string[],
): Promise<Map<string, Product>> {
  const products = new Map<string, Product>();
  if (ids.length === 0) return products;
  for (const [id, doc] of await catalog.liveDocs(storeId, ids)) products.set(id, JSON.parse(doc) as Product);
  return products;
}

/** Every live product of a store, a page of `pageSize` at a time (in id order). */
export const livePages = (catalog: Pick<CatalogRepository, "liveProductsAfter">, storeId: string, pageSize: number) =>
  pagesAfter((after) => catalog.liveProductsAfter(storeId, after, pageSize), pageSize);

/** The word fields of every live product of a store, a page of `pageSize` at a time (in id order). */
export const liveWordFieldPages = (catalog: Pick<CatalogRepository, "liveWordFieldsAfter">, storeId: string, pageSize: number) =>
  pagesAfter((after) => catalog.liveWordFieldsAfter(storeId, after, pageSize), pageSize);

async function* pagesAfter<Row extends { id: string }>(read: (afterId: string) => Promise<Row[]>, pageSize: number): AsyncGenerator<Row[]> {
  for (let after = ""; ; ) {
    const rows = await read(after);
    if (rows.length) yield rows;
    if (rows.length < pageSize) return;
    after = rows.at(-1)!.id;
  }
}
