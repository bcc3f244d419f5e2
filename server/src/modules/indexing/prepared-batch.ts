import type { DocumentPreparer, EncodedDocuments, PreparedDocument } from "../../engine/types.ts";
import type { TaskKind } from "./storage/tasks-repository.ts";
import { canonicalJson, contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument, type RankingContext } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { textOf, Utf8Texts, utf8TextAt, type Utf8Text } from "../../utf8-text.ts";

/*
 * What the indexing thread makes of a slice of a task, and how it travels to the main thread. Everything here
 * depends on the products only (and the ranking inputs of the moment), never on the catalog's state,
 * so a slice can be prepared while the batch before it is still being applied. The reply is buffers handed over
 * without a copy. Structured-cloning nested objects cost the sender 40 µs per product; cloning the strings still
 * cost it 9-16 µs (6 KB per product, copied character by character). The catalog JSON, which is only stored, stays
 * UTF-8 on the main thread (utf8-text.ts); the engine documents cross as the engine's preparer encodes them.
 */

export interface PrepareRequest {
  storeId: string;
  /** The task (tasks.seq, and its id) whose items [start, end) are prepared. */
  seq: number;
  taskId: string;
  kind: TaskKind;
  start: number;
  end: number;
  /** Requested ahead of the batch that needs it: prepared after any slice a batch waits for. */
  ahead: boolean;
}

/** A product ready to be committed: its catalog JSON and hash, its engine document. */
export interface PreparedProduct {
  id: string;
  hash: string;
  /** Canonical JSON (catalog-repo's doc). */
  doc: Utf8Text;
  /** Its version is set when the batch assigns one. */
  engine: PreparedDocument;
}

/** Room first made for a product's catalog JSON. */
const BYTES_PER_PRODUCT = 2048;

/**
 * A prepared slice as it crosses threads. `strings`: of a deletion, the ids as UTF-8 joined by NUL, which none
 * holds (ids are free of control characters). Of upserts, `texts`: each product's catalog JSON, back to back as
 * UTF-8, and where each ends; `documents`: the products' engine documents, as the engine's DocumentPreparer
 * encoded them. Send it with `transferables`.
 */
export interface EncodedSlice {
  strings: Uint8Array;
  texts: Uint8Array;
  textEnds: Uint32Array;
  documents: EncodedDocuments;
}

const SEPARATOR = "\u0000";
const utf8 = new TextEncoder();

export function encodeStrings(strings: readonly string[]): EncodedSlice {
  return { strings: utf8.encode(strings.join(SEPARATOR)), texts: new Uint8Array(0), textEnds: new Uint32Array(0), documents: [] };
}

export function decodeStrings({ strings }: EncodedSlice): string[] {
  return strings.length === 0 ? [] : textOf(strings).split(SEPARATOR);
}

/** The buffers of a slice, to move rather than copy it to the other thread. */
export const transferables = (slice: EncodedSlice): ArrayBuffer[] =>
  [slice.strings, slice.texts, slice.textEnds, ...slice.documents].map((part) => part.buffer as ArrayBuffer);

/** On the indexing thread: products as the slice decodePrepared reads, their engine documents by `preparer`. */
export function encodePrepared(
  products: readonly Product[],
  context: (id: string) => RankingContext,
  preparer: DocumentPreparer,
): EncodedSlice {
  const texts = new Utf8Texts(products.length, products.length * BYTES_PER_PRODUCT);
  function* engineDocuments() {
    for (const product of products) {
      texts.add(canonicalJson(product));
      yield toEngineDocument(product, 0, context(product.id));
    }
  }
  const documents = preparer.encode(engineDocuments(), products.length);
  return { strings: new Uint8Array(0), texts: texts.written, textEnds: texts.ends, documents };
}

/**
 * On the main thread, with the preparer that encoded the slice. The content hash is taken of the catalog JSON's
 * bytes: that costs the main thread less than it costs the indexing thread to send, and the indexing thread is the
 * one a bulk waits for.
 */
export function decodePrepared(slice: EncodedSlice, preparer: DocumentPreparer): PreparedProduct[] {
  return preparer.decode(slice.documents).map((engine, k) => {
    const doc = utf8TextAt(slice.texts, slice.textEnds, k);
    return { id: engine.id, hash: contentHash(doc), doc, engine };
  });
}
