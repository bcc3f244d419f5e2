import { fieldTokens, indexedText } from "./text/field-tokens.ts";
import type { EngineDocument, IndexableDocument, PreparedDocument } from "./types.ts";

/** What storing a document costs beyond the document: its JSON and its tokens. */
export function prepareDocument(doc: EngineDocument): PreparedDocument {
  const { version: _version, ...stored } = doc;
  return { doc, json: JSON.stringify(stored), text: indexedText(fieldTokens(doc.text)) };
}

const isPrepared = (d: IndexableDocument): d is PreparedDocument => "doc" in d;

export const documentOf = (d: IndexableDocument): EngineDocument => (isPrepared(d) ? d.doc : d);

export const preparedOf = (d: IndexableDocument): PreparedDocument => (isPrepared(d) ? d : prepareDocument(d));
