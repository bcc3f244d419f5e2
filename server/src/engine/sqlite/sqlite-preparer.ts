import { textOf, Utf8Texts, utf8TextAt, type Utf8Text } from "../../utf8-text.ts";
import type { DocumentPreparer, EncodedDocuments, EngineDocument, PreparedDocument } from "../types.ts";
import { indexedText, type IndexedText } from "./field-tokens.ts";
import type { HeldDocument } from "./store-index.ts";

/*
 * What the embedded engine writes of a document besides the document: the JSON it stores, the parts its in-memory
 * index holds and the document's tokens. The indexing thread makes them (sqlitePreparer), so that the serving
 * thread's write only numbers the tokens, stores and indexes.
 */

export class SqlitePrepared implements PreparedDocument {
  constructor(
    readonly id: string,
    public version: number,
    /** The document as stored: without its version, which is stored beside it. */
    readonly json: Utf8Text,
    readonly held: HeldDocument,
    readonly text: IndexedText,
  ) {}
}

export const heldOf = (doc: Omit<EngineDocument, "version">): HeldDocument => ({
  id: doc.id,
  identifiers: doc.text.identifiers,
  facets: doc.facets,
  numbers: doc.numbers,
  sortText: doc.sortText,
});

/** A document prepared where it is written (upsert). */
export function prepareDocument(doc: EngineDocument): SqlitePrepared {
  const { version, ...stored } = doc;
  return new SqlitePrepared(doc.id, version, JSON.stringify(stored), heldOf(doc), indexedText(doc.text));
}

/** Prepared documents as upsertPrepared takes them: another kind's is a wiring fault, never a client's. */
export function ownPrepared(docs: readonly PreparedDocument[]): readonly SqlitePrepared[] {
  for (const doc of docs) {
    if (!(doc instanceof SqlitePrepared)) throw new Error(`document ${doc.id} was not prepared for the embedded engine`);
  }
  return docs as readonly SqlitePrepared[];
}

/** Room first made for a document's stored JSON. */
const BYTES_PER_DOCUMENT = 2048;
const utf8 = new TextEncoder();

type Encoded = [words: Uint8Array, texts: Uint8Array, textEnds: Uint32Array, sequences: Uint32Array];

/**
 * Documents cross threads as: one JSON text of every document's distinct tokens and surfaces (strings split from
 * one decoded text share its buffer, and a token kept by the index would keep a whole slice's text alive, while
 * JSON.parse makes each token a string of its own); the stored JSON texts, back to back as UTF-8, and where each
 * ends; every document's token sequence (IndexedText.sequence), each preceded by its length. The writing thread
 * reads the held parts from the stored JSON: that costs it less than sending them costs the indexing thread,
 * which is the one a bulk waits for. The JSON stays UTF-8 bytes, which SQLite stores as they are (utf8-text.ts).
 */
export const sqlitePreparer = {
  encode(docs: Iterable<EngineDocument>, count: number): EncodedDocuments {
    const texts = new Utf8Texts(count, count * BYTES_PER_DOCUMENT);
    const words: [distinct: string[], surfaces: string][] = [];
    const sequenceOf: Uint32Array[] = [];
    let length = 0;
    for (const doc of docs) {
      const { version: _, ...stored } = doc;
      const text = indexedText(doc.text);
      texts.add(JSON.stringify(stored));
      words.push([text.distinct, text.surfaces]);
      sequenceOf.push(text.sequence);
      length += text.sequence.length + 1;
    }
    const sequences = new Uint32Array(length);
    let at = 0;
    for (const sequence of sequenceOf) {
      sequences[at++] = sequence.length;
      sequences.set(sequence, at);
      at += sequence.length;
    }
    return [utf8.encode(JSON.stringify(words)), texts.written, texts.ends, sequences] satisfies Encoded;
  },

  decode(encoded: EncodedDocuments): SqlitePrepared[] {
    const [wordsJson, texts, textEnds, sequences] = encoded as Encoded;
    const words = JSON.parse(textOf(wordsJson)) as [distinct: string[], surfaces: string][];
    const out: SqlitePrepared[] = [];
    let next = 0;
    for (let k = 0; k < words.length; k++) {
      const length = sequences[next]!;
      const sequence = sequences.subarray(next + 1, next + 1 + length);
      next += length + 1;
      const [distinct, surfaces] = words[k]!;
      const json = utf8TextAt(texts, textEnds, k);
      const held = heldOf(JSON.parse(textOf(json)) as Omit<EngineDocument, "version">);
      out.push(new SqlitePrepared(held.id, 0, json, held, { distinct, sequence, surfaces }));
    }
    return out;
  },
} satisfies DocumentPreparer;
