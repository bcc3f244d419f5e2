import { textOf } from "../../utf8-text.ts";
import type { DocumentPreparer, EncodedDocuments, EngineDocument, PreparedDocument } from "../types.ts";

/*
 * The Typesense adapter makes nothing of a document ahead of its write (the cluster tokenises): its preparer only
 * carries the documents from the indexing thread, as one JSON text.
 */

const utf8 = new TextEncoder();

export const typesensePreparer: DocumentPreparer = {
  encode: (docs: Iterable<EngineDocument>): EncodedDocuments => [utf8.encode(JSON.stringify([...docs]))],
  decode: ([json]: EncodedDocuments): EngineDocument[] => JSON.parse(textOf(json as Uint8Array)) as EngineDocument[],
};

/** Prepared documents as upsertPrepared takes them: another kind's is a wiring fault, never a client's. */
export function ownPrepared(docs: readonly PreparedDocument[]): readonly EngineDocument[] {
  for (const doc of docs) if (!("text" in doc)) throw new Error(`document ${doc.id} was not prepared for Typesense`);
  return docs as readonly EngineDocument[];
}
