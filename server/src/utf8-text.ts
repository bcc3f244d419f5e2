/*
 * Text that is either a string or its UTF-8 bytes. The indexing thread hands product JSON to the main thread as
 * bytes, which SQLite stores as they are (bound as a blob, written `CAST(? AS TEXT)`): decoding a batch's 4 KB per
 * product into strings, only for SQLite to encode them back, cost the main thread about 8 µs per product. A reader
 * that needs a string (PostgreSQL, the Typesense adapter) decodes.
 */
export type Utf8Text = string | Uint8Array;

const decoder = new TextDecoder();

export const textOf = (text: Utf8Text): string => (typeof text === "string" ? text : decoder.decode(text));
