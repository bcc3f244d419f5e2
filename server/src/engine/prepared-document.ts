import type { Utf8Text } from "../utf8-text.ts";
import { indexedText, type IndexedText } from "./text/field-tokens.ts";
import type { EngineDocument, HeldDocument, IndexableDocument, PreparedDocument } from "./types.ts";

export const heldOf = (doc: EngineDocument): HeldDocument => ({
  id: doc.id,
  identifiers: doc.text.identifiers,
  facets: doc.facets,
  numbers: doc.numbers,
  sortText: doc.sortText,
});

/** What storing a document costs beyond the document: its JSON and its tokens. */
export function prepareDocument(doc: EngineDocument): PreparedDocument & { json: string } {
  const { version, ...stored } = doc;
  return { id: doc.id, version, json: JSON.stringify(stored), held: heldOf(doc), text: indexedText(doc.text), doc };
}

/**
 * A document prepared elsewhere (the indexing thread), from its stored JSON, that JSON parsed (the held parts
 * come from it) and its tokens.
 */
export function preparedFrom(json: Utf8Text, stored: EngineDocument, text: IndexedText): PreparedDocument {
  return {
    id: stored.id,
    version: 0,
    json,
    held: heldOf(stored),
    text,
    get doc() {
      stored.version = this.version;
      return stored;
    },
  };
}

const isPrepared = (d: IndexableDocument): d is PreparedDocument => "json" in d;

export const documentOf = (d: IndexableDocument): EngineDocument => (isPrepared(d) ? d.doc : d);

export const preparedOf = (d: IndexableDocument): PreparedDocument => (isPrepared(d) ? d : prepareDocument(d));
