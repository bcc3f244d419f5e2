/*
 * Text that is either a string or its UTF-8 bytes. The indexing thread hands product JSON to the main thread as
 * bytes, which SQLite stores as they are (bound as a blob, written `CAST(? AS TEXT)`): decoding a batch's 4 KB per
 * product into strings, only for SQLite to encode them back, cost the main thread about 8 µs per product. A reader
 * that needs a string (PostgreSQL, the Typesense adapter) decodes.
 */
export type Utf8Text = string | Uint8Array;

const decoder = new TextDecoder();

export const textOf = (text: Utf8Text): string => (typeof text === "string" ? text : decoder.decode(text));

const encoder = new TextEncoder();

/**
 * Texts written as UTF-8 one after the other into one buffer, grown when a text does not fit, and where each ends:
 * many texts that cross threads as two buffers.
 */
export class Utf8Texts {
  private bytes: Uint8Array;
  private length = 0;
  readonly ends: Uint32Array;
  private count = 0;

  constructor(texts: number, expectedBytes: number) {
    this.bytes = new Uint8Array(expectedBytes);
    this.ends = new Uint32Array(texts);
  }

  add(text: string): void {
    let { read, written } = encoder.encodeInto(text, this.bytes.subarray(this.length));
    this.length += written;
    while (read < text.length) {
      // UTF-8 takes at most three bytes per UTF-16 unit.
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.length + (text.length - read) * 3));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      const rest = encoder.encodeInto(text.slice(read), this.bytes.subarray(this.length));
      read += rest.read;
      this.length += rest.written;
    }
    this.ends[this.count++] = this.length;
  }

  get written(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

/** The `index`th of texts an Utf8Texts wrote: `bytes` its `written`, `ends` its `ends`. */
export const utf8TextAt = (bytes: Uint8Array, ends: Uint32Array, index: number): Uint8Array =>
  bytes.subarray(index === 0 ? 0 : ends[index - 1]!, ends[index]!);
