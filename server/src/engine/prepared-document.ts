import { textOf } from "../utf8-text.ts";
import { indexedText } from "./text/field-tokens.ts";
import type { EngineDocument, HeldDocument, IndexableDocument, PreparedDocument } from "./types.ts";

export const heldOf = (doc: EngineDocument): HeldDocument => ({ id: doc.id, identifiers: doc.text.identifiers, facets: doc.facets, numbers: doc.numbers, sortText: doc.sortText });

/** What storing a document costs beyond the document: its JSON and its tokens. */
export function prepareDocument(doc: EngineDocument): PreparedDocument & { json: string } {
  const { version, ...stored } = doc;
  return { id: doc.id, version, json: JSON.stringify(stored), held: heldOf(doc), text: indexedText(doc.text), doc };
}

/**
 * A document prepared elsewhere (the indexing thread), from its parts: the whole document is parsed from its
 * JSON only if something reads it (the embedded engine needs only the held parts and the tokens).
 */
export function preparedFrom(parts: Omit<PreparedDocument, "doc">): PreparedDocument {
  let parsed: EngineDocument | null = null;
  return {
    ...parts,
    get doc() {
      parsed ??= JSON.parse(textOf(this.json)) as EngineDocument;
      parsed.version = this.version;
      return parsed;
    },
  };
}

const isPrepared = (d: IndexableDocument): d is PreparedDocument => "json" in d;

export const documentOf = (d: IndexableDocument): EngineDocument => (isPrepared(d) ? d.doc : d);

export const preparedOf = (d: IndexableDocument): PreparedDocument => (isPrepared(d) ? d : prepareDocument(d));
