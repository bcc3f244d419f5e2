import { prepareDocument, preparedFrom } from "../../engine/prepared-document.ts";
import type { EngineDocument, PreparedDocument } from "../../engine/types.ts";
import type { TaskKind } from "./storage/tasks-repository.ts";
import { canonicalJson, contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument, type RankingContext } from "../catalog/engine-document.ts";
import type { Product } from "../catalog/product-schema.ts";
import { textOf, type Utf8Text } from "../../utf8-text.ts";

/*
 * What the indexing thread makes of a slice of a task, and how it travels to the main thread. Everything here
 * depends on the products only (and the ranking inputs of the moment), never on the catalog's state,
 * so a slice can be prepared while the batch before it is still being applied. The reply is buffers handed over
 * without a copy. Structured-cloning nested objects cost the sender 40 µs per product; cloning the strings still
 * cost it 9-16 µs (6 KB per product, copied character by character). The two JSON texts that are only stored
 * (catalog, engine document: 2.9 KB per product) stay UTF-8 on the main thread (utf8-text.ts).
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

/** Stored texts per product: catalog JSON, engine JSON. */
const TEXTS_PER_PRODUCT = 2;
/** Room first made for a product's stored texts (2.9 KB on average in the demo catalog). */
const BYTES_PER_PRODUCT = 4096;

/**
 * A prepared slice as it crosses threads. `strings`: of a deletion, the ids as UTF-8 joined by NUL, which none
 * holds (ids are free of control characters); of upserts, one JSON text of every product's distinct tokens and
 * surfaces: strings split from one decoded text share its buffer, and a token kept by the index would keep a whole
 * slice's text alive, while JSON.parse makes each token a string of its own. `texts`: each product's stored
 * texts, back to back as UTF-8, and where each ends. `sequences`: every product's token sequence
 * (IndexedText.sequence), each preceded by its length. Send it with `transferables`.
 */
export interface EncodedSlice {
  strings: Uint8Array;
  texts: Uint8Array;
  textEnds: Uint32Array;
  sequences: Uint32Array;
}

const SEPARATOR = "\u0000";
const utf8 = new TextEncoder();

export function encodeStrings(strings: readonly string[]): EncodedSlice {
  return {
    strings: utf8.encode(strings.join(SEPARATOR)),
    texts: new Uint8Array(0),
    textEnds: new Uint32Array(0),
    sequences: new Uint32Array(0),
  };
}

export function decodeStrings({ strings }: EncodedSlice): string[] {
  return strings.length === 0 ? [] : textOf(strings).split(SEPARATOR);
}

/** The buffers of a slice, to move rather than copy it to the other thread. */
export const transferables = (slice: EncodedSlice): ArrayBuffer[] =>
  [slice.strings.buffer, slice.texts.buffer, slice.textEnds.buffer, slice.sequences.buffer] as ArrayBuffer[];

/** Texts written as UTF-8 one after the other into one buffer, grown when a text does not fit. */
class Utf8Texts {
  private bytes: Uint8Array;
  private length = 0;
  readonly ends: Uint32Array;
  private count = 0;

  constructor(texts: number, expectedBytes: number) {
    this.bytes = new Uint8Array(expectedBytes);
    this.ends = new Uint32Array(texts);
  }

  add(text: string): void {
    let { read, written } = utf8.encodeInto(text, this.bytes.subarray(this.length));
    this.length += written;
    while (read < text.length) {
      // UTF-8 takes at most three bytes per UTF-16 unit.
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + (text.length - read) * 3));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      const rest = utf8.encodeInto(text.slice(read), this.bytes.subarray(this.length));
      read += rest.read;
      this.length += rest.written;
    }
    this.ends[this.count++] = this.length;
  }

  get written(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** On the indexing thread: products as the slice decodePrepared reads. */
export function encodePrepared(products: readonly Product[], context: (id: string) => RankingContext): EncodedSlice {
  const texts = new Utf8Texts(products.length * TEXTS_PER_PRODUCT, products.length * BYTES_PER_PRODUCT);
  const words: [distinct: string[], surfaces: string][] = [];
  const sequenceOf: Uint32Array[] = [];
  let length = 0;
  for (const product of products) {
    const engine = prepareDocument(toEngineDocument(product, 0, context(product.id)));
    texts.add(canonicalJson(product));
    texts.add(engine.json);
    words.push([engine.text.distinct, engine.text.surfaces]);
    sequenceOf.push(engine.text.sequence);
    length += engine.text.sequence.length + 1;
  }
  const sequences = new Uint32Array(length);
  let at = 0;
  for (const sequence of sequenceOf) {
    sequences[at++] = sequence.length;
    sequences.set(sequence, at);
    at += sequence.length;
  }
  return { ...encodeStrings([JSON.stringify(words)]), texts: texts.written, textEnds: texts.ends, sequences };
}

/**
 * On the main thread. The content hash is taken of the catalog JSON's bytes, and the parts an in-memory index
 * holds are read from the engine document's JSON: both cost the main thread less than they cost the indexing
 * thread to send, and the indexing thread is the one a bulk waits for.
 */
export function decodePrepared(slice: EncodedSlice): PreparedProduct[] {
  const [wordsJson] = decodeStrings(slice);
  const words = JSON.parse(wordsJson!) as [distinct: string[], surfaces: string][];
  const { sequences, texts, textEnds } = slice;
  const text = (index: number) => texts.subarray(index === 0 ? 0 : textEnds[index - 1]!, textEnds[index]!);
  const out: PreparedProduct[] = [];
  let next = 0;
  for (let product = 0; product < words.length; product++) {
    const length = sequences[next]!;
    const sequence = sequences.subarray(next + 1, next + 1 + length);
    next += length + 1;
    const [distinct, surfaces] = words[product]!;
    const first = product * TEXTS_PER_PRODUCT;
    const doc = text(first);
    const json = text(first + 1);
    const engine = preparedFrom(json, JSON.parse(textOf(json)) as EngineDocument, { distinct, sequence, surfaces });
    out.push({ id: engine.id, hash: contentHash(doc), doc, engine });
  }
  return out;
}
