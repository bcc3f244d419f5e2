import { prepareDocument, preparedFrom } from "../../engine/prepared-document.ts";
import type { HeldDocument, PreparedDocument } from "../../engine/types.ts";
import type { TaskKind } from "../../db/tasks-repository.ts";
import { canonicalJson, contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument, type RankingContext } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { shapeJson, type Shaping } from "../catalog/shaped-products.ts";

/*
 * What the indexing thread makes of a slice of a task, and how it travels to the main thread. Everything here
 * depends on the products only (and the shaping and ranking inputs of the moment), never on the catalog's state,
 * so a slice can be prepared while the batch before it is still being applied. The reply is two buffers handed
 * over without a copy: the slice's strings as UTF-8, and its token sequences. Structured-cloning nested objects
 * cost the sender 40 µs per product; cloning the strings still cost it 9-16 µs (6 KB per product, copied
 * character by character), against 5 to encode them and 3 on the receiving side to decode.
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

/** Strings per product: id, hash, doc, shaped, engine JSON, held JSON. */
const PER_PRODUCT = 6;

/**
 * A prepared slice as it crosses threads: the strings of each product in turn (of a deletion, the ids), as UTF-8
 * joined by NUL, which none of them holds (ids and text are free of control characters, JSON escapes them, tokens
 * are letters and digits); and every product's token sequence (IndexedText.sequence) in one array, each preceded
 * by its length. Send it with `transferables`. For upserts a last string holds every product's distinct tokens
 * and surfaces as JSON: the strings split from the decoded text share its buffer, and a token kept by the index
 * would keep a whole slice's text (6 MB) alive; JSON.parse makes each token a string of its own.
 */
export interface EncodedSlice {
  text: Uint8Array;
  sequences: Uint32Array;
}

const SEPARATOR = "\u0000";
const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function encodeStrings(strings: readonly string[], sequences = new Uint32Array(0)): EncodedSlice {
  return { text: utf8.encode(strings.join(SEPARATOR)), sequences };
}

export function decodeStrings({ text }: EncodedSlice): string[] {
  return text.length === 0 ? [] : fromUtf8.decode(text).split(SEPARATOR);
}

/** The buffers of a slice, to move rather than copy it to the other thread. */
export const transferables = (slice: EncodedSlice): ArrayBuffer[] => [slice.text.buffer as ArrayBuffer, slice.sequences.buffer as ArrayBuffer];

/** On the indexing thread: products as the slice decodePrepared reads. */
export function encodePrepared(products: readonly Product[], shaping: Shaping, context: (id: string) => RankingContext): EncodedSlice {
  const strings: string[] = [];
  const words: [distinct: string[], surfaces: string][] = [];
  const texts: Uint32Array[] = [];
  let length = 0;
  for (const product of products) {
    const doc = canonicalJson(product);
    const engine = prepareDocument(toEngineDocument(product, 0, context(product.id)));
    strings.push(product.id, contentHash(doc), doc, shapeJson(product, shaping), engine.json, JSON.stringify(engine.held));
    words.push([engine.text.distinct, engine.text.surfaces]);
    texts.push(engine.text.sequence);
    length += engine.text.sequence.length + 1;
  }
  const sequences = new Uint32Array(length);
  let at = 0;
  for (const sequence of texts) {
    sequences[at++] = sequence.length;
    sequences.set(sequence, at);
    at += sequence.length;
  }
  strings.push(JSON.stringify(words));
  return encodeStrings(strings, sequences);
}

/**
 * On the main thread. Of the engine document only the parts an in-memory index holds are parsed (the whole
 * document, text included, only if an engine reads it): one small parse instead of a clone or a full parse.
 */
export function decodePrepared(slice: EncodedSlice): PreparedProduct[] {
  const strings = decodeStrings(slice);
  const words = JSON.parse(strings.pop()!) as [distinct: string[], surfaces: string][];
  const { sequences } = slice;
  const out: PreparedProduct[] = [];
  let next = 0;
  for (let at = 0, product = 0; at < strings.length; at += PER_PRODUCT, product++) {
    const [id, hash, doc, shaped, json, held] = strings.slice(at, at + PER_PRODUCT) as [string, string, string, string, string, string];
    const length = sequences[next]!;
    const sequence = sequences.subarray(next + 1, next + 1 + length);
    next += length + 1;
    const [distinct, surfaces] = words[product]!;
    const text = { distinct, sequence, surfaces };
    out.push({ id, hash, doc, shaped, engine: preparedFrom({ id, version: 0, json, held: JSON.parse(held) as HeldDocument, text }) });
  }
  return out;
}
