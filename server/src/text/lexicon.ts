import { fnv1a, HashIds } from "../lib/hash-ids.ts";
import { arrayBytes, stringsBytes, typedBytes } from "../lib/heap-estimate.ts";

/*
 * Words numbered from 0 in the order first seen, each held once: the embedded engine's text index numbers its
 * tokens here and its typo vocabulary counts the same words by the same numbers. Looked up through a table of
 * hashes (hash-ids.ts) rather than a Map, which cost about 50 bytes a word more.
 */

export class Lexicon {
  private readonly words: string[] = [];
  private readonly byHash = new HashIds();
  /** Word ids in word order, for prefix lookups; rebuilt on the first lookup after a new word. */
  private sorted: Uint32Array | null = null;

  /** Words known: every id is below this. */
  get size(): number {
    return this.words.length;
  }

  id(word: string): number | undefined {
    const id = this.byHash.find(fnv1a(word), (id) => this.words[id] === word);
    return id < 0 ? undefined : id;
  }

  word(id: number): string {
    return this.words[id]!;
  }

  /** The word's id, numbering it when new. */
  intern(word: string): number {
    const hash = fnv1a(word);
    let id = this.byHash.find(hash, (id) => this.words[id] === word);
    if (id < 0) {
      id = this.words.length;
      this.words.push(word);
      this.byHash.add(hash, id);
      this.sorted = null;
    }
    return id;
  }

  /** Ids of the words starting with `prefix`, in word order, at most `limit` of them. */
  startingWith(prefix: string, limit = Infinity): number[] {
    const words = this.words;
    this.sorted ??= Uint32Array.from(words.keys()).sort((a, b) => (words[a]! < words[b]! ? -1 : 1));
    const sorted = this.sorted;
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (words[sorted[mid]!]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: number[] = [];
    for (let i = lo; i < sorted.length && out.length < limit && words[sorted[i]!]!.startsWith(prefix); i++) out.push(sorted[i]!);
    return out;
  }

  /** Estimated heap bytes: the words, their hash table and the sorted view. */
  memoryBytes(): number {
    return stringsBytes(this.words) + arrayBytes(this.words.length) + this.byHash.memoryBytes() + typedBytes(this.sorted ?? undefined);
  }
}
