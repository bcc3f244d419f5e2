import { createHash } from "node:crypto";
import { foldCase, tokenize, tokenPairs } from "../../text/normalize.ts";
import type { EngineDocument } from "../types.ts";

/*
 * How a store lives in Typesense: one collection per store (`store_<storeId>_<createdAtMs>`) behind an alias
 * (`store_<storeId>`). Every read and write goes through the alias; a reindex builds a new collection and moves
 * the alias, so search never sees a half-built index.
 *
 * Field layout of a collection:
 * - `name`, `brand`, `categories`, `features`, `tags`, `description`: the NORMALIZED tokens of each searchable
 *   field (text/normalize.ts), space-joined. Typesense matches these tokens, never raw text, so case,
 *   accents, plural folding and "t-shirt"/"tshirt" behave as in the embedded engine.
 * - `identifiers`: a hash of each lower-cased id and relatedId (never typo- or prefix-matched: only filtered on
 *   with the whole query, exactly like the embedded engine's identifier lookup).
 * - `facet_<key>`: one `string[]` facet field per facet key, through the regex field `facet_.*`. Keys are
 *   encoded so any character is safe in a field name: letters and digits stay, every other character becomes
 *   `_<hex code point>_` ("category.lvl0" -> `facet_category_2e_lvl0`, "tag.season" -> `facet_tag_2e_season`).
 * - numbers: `price_min`, `price_max`, `rating_wilson`, `rating_bayes` (float), `stock`, `purchases`,
 *   `arrival_ts` (int64); any other number the indexer may add goes to `num_<encoded name>` (float, regex
 *   field `num_.*`). All are optional (a missing value sorts last) and faceted (range facets, facet_stats).
 *   Typesense keeps floats in single precision: prices keep about 7 significant digits for sorting, filters
 *   and range bounds (far below a cent for everyday prices); the stored document keeps the exact value.
 * - `name_sort`: the sort key of sortText.name (sort: true). LOCALE LIMITATION: Typesense compares sort
 *   strings by code point, with no collation. The key is case- and accent-folded with numbers zero-padded, so
 *   it approximates an `Intl.Collator(locale, { sensitivity: "base", numeric: true })` for Latin scripts, but
 *   locale rules (Swedish "å" after "z", German phonebook order, ...) are not applied.
 * - `version`, `seq` (int64): the catalog version (never replaced by an older one) and the order of first
 *   insertion, the final tie-break (the embedded engine breaks ties by row id, i.e. insertion order too).
 * - `vocab` (not indexed): the document's distinct tokens with their surface forms, read back by the
 *   per-replica typo vocabulary (corrections) without exporting whole documents.
 */

export const ALIAS_PREFIX = "store_";

export function aliasName(storeId: string): string {
  return `${ALIAS_PREFIX}${storeId}`;
}

export function newCollectionName(storeId: string, createdAt: number): string {
  return `${ALIAS_PREFIX}${storeId}_${createdAt}`;
}

/** Whether `collection` is one of the store's collections (the live one or a leftover of a failed reindex). */
export function isStoreCollection(storeId: string, collection: string): boolean {
  const prefix = `${ALIAS_PREFIX}${storeId}_`;
  return collection.startsWith(prefix) && /^\d+$/.test(collection.slice(prefix.length));
}

/** Searchable fields in query_by order, with their weights: name 10 > brand 6 > categories 4 > features, tags 2 > description 1. */
export const QUERY_FIELDS = ["name", "brand", "categories", "features", "tags", "description"] as const;
export const QUERY_WEIGHTS = [10, 6, 4, 2, 2, 1] as const;

export type NumberType = "float" | "int64";

/** The numbers the indexer precomputes, with their Typesense types. */
export const KNOWN_NUMBERS: Readonly<Record<string, NumberType>> = {
  price_min: "float",
  price_max: "float",
  rating_wilson: "float",
  rating_bayes: "float",
  stock: "int64",
  purchases: "int64",
  arrival_ts: "int64",
};

export const FACET_FIELD_PREFIX = "facet_";
const OTHER_NUMBER_PREFIX = "num_";

/** Letters and digits stay; every other character becomes `_<hex>_` (so `_` itself is `_5f_`): reversible. */
export function encodeFieldPart(text: string): string {
  let out = "";
  for (const ch of text) out += /^[A-Za-z0-9]$/.test(ch) ? ch : `_${ch.codePointAt(0)!.toString(16)}_`;
  return out;
}

export function decodeFieldPart(encoded: string): string {
  return encoded.replace(/_([0-9a-f]+)_/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));
}

export function facetField(key: string): string {
  return FACET_FIELD_PREFIX + encodeFieldPart(key);
}

/** The facet key of a field name, or null when the field is not a facet field. */
export function facetKeyOf(field: string): string | null {
  if (!field.startsWith(FACET_FIELD_PREFIX) || field.includes(".*")) return null;
  return decodeFieldPart(field.slice(FACET_FIELD_PREFIX.length));
}

export function numberField(name: string): string {
  return name in KNOWN_NUMBERS ? name : OTHER_NUMBER_PREFIX + encodeFieldPart(name);
}

/** The number name of an `num_<encoded>` field, or null for any other field. */
export function numberNameOf(field: string): string | null {
  if (!field.startsWith(OTHER_NUMBER_PREFIX) || field.includes(".*")) return null;
  return decodeFieldPart(field.slice(OTHER_NUMBER_PREFIX.length));
}

export function numberType(name: string): NumberType {
  return KNOWN_NUMBERS[name] ?? "float";
}

/** A number as the field's type takes it: int64 fields get whole numbers. */
export function storedNumber(name: string, value: number): number {
  return numberType(name) === "int64" ? Math.round(value) : value;
}

export interface CollectionField {
  name: string;
  type: string;
  optional?: boolean;
  facet?: boolean;
  sort?: boolean;
  index?: boolean;
}

export interface CollectionSchema {
  name: string;
  fields: CollectionField[];
}

export function collectionSchema(name: string): CollectionSchema {
  const text = (field: string): CollectionField => ({ name: field, type: "string", optional: field !== "name" });
  return {
    name,
    fields: [
      { name: "version", type: "int64" },
      { name: "seq", type: "int64" },
      ...QUERY_FIELDS.map(text),
      { name: "identifiers", type: "string[]", optional: true },
      // Sorted by code point: see the locale limitation above.
      { name: "name_sort", type: "string", sort: true, optional: true },
      { name: "vocab", type: "string", index: false, optional: true },
      ...Object.entries(KNOWN_NUMBERS).map(([field, type]) => ({ name: field, type, optional: true, facet: true })),
      { name: `${OTHER_NUMBER_PREFIX}.*`, type: "float", optional: true, facet: true },
      { name: `${FACET_FIELD_PREFIX}.*`, type: "string[]", optional: true, facet: true },
    ],
  };
}

/** Exact identifier matching through a filter: a hash is one token, whatever characters the id holds. */
export function identifierKey(identifier: string): string {
  return createHash("sha256").update(identifier.toLowerCase()).digest("hex").slice(0, 32);
}

/** The query side of identifierKey: the whole query, trimmed (as the embedded engine looks it up). */
export function queryIdentifierKey(query: string): string {
  return identifierKey(query.trim());
}

/** Tokens of text fields as the embedded engine indexes them. */
export function tokenText(parts: readonly string[]): string {
  return tokenize(parts.join("\n")).join(" ");
}

/** Case- and accent-folded, numbers zero-padded to 20 digits, so "Item 9" sorts before "Item 10". */
export function sortKey(text: string): string {
  return foldCase(text)
    .trim()
    .replace(/\d+/g, (digits) => {
      const significant = digits.replace(/^0+(?=\d)/, "");
      return significant.length >= 20 ? significant : significant.padStart(20, "0");
    });
}

/** Every distinct token of a document with the word it came from, weighted fields first (as the embedded engine counts them). */
export function vocabularyPairs(doc: EngineDocument): [string, string][] {
  const t = doc.text;
  const seen = new Map<string, string>();
  for (const parts of [[t.name], [t.brand], t.categories, t.features, t.tags, [t.description]]) {
    for (const [token, surface] of tokenPairs(parts.join("\n"))) if (!seen.has(token)) seen.set(token, surface);
  }
  return [...seen];
}

/** Tokens and surfaces are letters and digits only, so spaces and colons separate them safely. */
export function encodeVocabulary(pairs: readonly [string, string][]): string {
  return pairs.map(([token, surface]) => (token === surface ? token : `${token}:${surface}`)).join(" ");
}

export function decodeVocabulary(encoded: string | undefined): [string, string][] {
  if (!encoded) return [];
  return encoded
    .split(" ")
    .filter(Boolean)
    .map((entry) => {
      const at = entry.indexOf(":");
      return at < 0 ? [entry, entry] : [entry.slice(0, at), entry.slice(at + 1)];
    });
}

export type TypesenseDocument = Record<string, string | number | string[]>;

export function toTypesenseDocument(doc: EngineDocument, seq: number): TypesenseDocument {
  const t = doc.text;
  const out: TypesenseDocument = {
    id: doc.id,
    version: doc.version,
    seq,
    name: tokenText([t.name]),
    brand: tokenText([t.brand]),
    categories: tokenText(t.categories),
    features: tokenText(t.features),
    tags: tokenText(t.tags),
    description: tokenText([t.description]),
    identifiers: [...new Set(t.identifiers.map(identifierKey))],
    name_sort: sortKey(doc.sortText.name ?? t.name),
    vocab: encodeVocabulary(vocabularyPairs(doc)),
  };
  for (const [key, values] of Object.entries(doc.facets)) {
    const distinct = [...new Set(values)];
    if (distinct.length) out[facetField(key)] = distinct;
  }
  for (const [name, value] of Object.entries(doc.numbers)) {
    if (Number.isFinite(value)) out[numberField(name)] = storedNumber(name, value);
  }
  return out;
}
