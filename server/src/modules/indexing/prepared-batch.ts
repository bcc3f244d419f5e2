import { prepareDocument } from "../../engine/prepared-document.ts";
import { columnTokens } from "../../engine/text/field-tokens.ts";
import type { EngineDocument, PreparedDocument } from "../../engine/types.ts";
import type { TaskKind } from "../../db/tasks-repo.ts";
import { canonicalJson, contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument, type RankingContext } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { shapeJson, type Shaping } from "../catalog/shaped-products.ts";

/*
 * What the indexing thread makes of a slice of a task, and how it travels to the main thread. Everything here
 * depends on the products only (and the shaping and ranking inputs of the moment), never on the catalog's state,
 * so a slice can be prepared while the batch before it is still being applied. The reply is a flat array of
 * strings: structured-cloning nested objects between threads cost the sender 40 µs per product, strings 3.
 */

export interface PrepareRequest {
  storeId: string;
  /** The task (tasks.seq) whose items [start, end) are prepared. */
  seq: number;
  kind: TaskKind;
  start: number;
  end: number;
  shaping: Shaping;
}

/** A product ready to be committed: its catalog JSON and hash, its Search product JSON, its engine document. */
export interface PreparedProduct {
  id: string;
  hash: string;
  /** Canonical JSON (catalog-repo's doc). */
  doc: string;
  shaped: string;
  /** Its version is set when the batch assigns one. */
  engine: PreparedDocument;
}

const COLUMNS = 6;
const PER_PRODUCT = 6 + COLUMNS;

/** Token and surface pairs as one string: they alternate, space-separated (neither holds a space). */
const encodePairs = (pairs: [string, string][]) => pairs.flat().join(" ");

function decodePairs(text: string): [string, string][] {
  const parts = columnTokens(text);
  const pairs: [string, string][] = new Array(parts.length >> 1);
  for (let i = 0; i < pairs.length; i++) pairs[i] = [parts[2 * i]!, parts[2 * i + 1]!];
  return pairs;
}

/** On the indexing thread: products as the flat strings decodePrepared reads. */
export function encodePrepared(products: readonly Product[], shaping: Shaping, context: (id: string) => RankingContext): string[] {
  const out: string[] = [];
  for (const product of products) {
    const doc = canonicalJson(product);
    const engine = prepareDocument(toEngineDocument(product, 0, context(product.id)));
    out.push(product.id, contentHash(doc), doc, shapeJson(product, shaping), engine.json, encodePairs(engine.text.distinct), ...engine.text.columns);
  }
  return out;
}

/** On the main thread. The engine document is parsed from its stored JSON: one parse instead of a clone. */
export function decodePrepared(strings: readonly string[]): PreparedProduct[] {
  const out: PreparedProduct[] = [];
  for (let at = 0; at < strings.length; at += PER_PRODUCT) {
    const [id, hash, doc, shaped, json] = strings.slice(at, at + 5) as [string, string, string, string, string];
    const text = { distinct: decodePairs(strings[at + 5]!), columns: strings.slice(at + 6, at + PER_PRODUCT) };
    const engineDoc = JSON.parse(json) as EngineDocument;
    engineDoc.version = 0;
    out.push({ id, hash, doc, shaped, engine: { doc: engineDoc, json, text } });
  }
  return out;
}
