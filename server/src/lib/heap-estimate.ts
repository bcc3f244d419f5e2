/*
 * Estimated heap bytes of the containers the in-memory indexes are made of, for their memoryReport(): typed arrays
 * exactly (their buffers), JS containers by JavaScriptCore's layout on 64-bit (an 8-byte value per array element, a
 * hash table entry of about 48 bytes with its bucket, a string's ~40-byte header). The memory bench prints their sum
 * beside the heap the whole index was measured to hold, so the estimates are checked in every run.
 */

const ARRAY_HEADER = 32;
const VALUE = 8;
const TYPED_ARRAY_HEADER = 64;
const MAP_ENTRY = 48;
const STRING_HEADER = 40;

export const typedBytes = (array: ArrayBufferView | undefined): number => (array === undefined ? 0 : TYPED_ARRAY_HEADER + array.byteLength);

export const arrayBytes = (length: number): number => ARRAY_HEADER + VALUE * length;

export const mapBytes = (entries: number): number => ARRAY_HEADER + MAP_ENTRY * entries;

/** A string's bytes: one per character when all are Latin-1 (most catalog words), else two. */
export const stringBytes = (s: string): number => STRING_HEADER + (/[^\u0000-\u00ff]/.test(s) ? 2 * s.length : s.length);

export function stringsBytes(strings: Iterable<string>): number {
  let bytes = 0;
  for (const s of strings) bytes += stringBytes(s);
  return bytes;
}
