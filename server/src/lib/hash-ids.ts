import { typedBytes } from "./heap-estimate.ts";

/*
 * Ids filed under 32-bit hashes, in two flat typed arrays (open addressing, linear probing). A JS Map costs
 * about 50 bytes an entry and an object per key; an entry here costs 8 bytes over the table's room. The caller
 * keeps what was hashed (a word by its id) and checks candidates against it: two keys sharing a hash only
 * bring an extra candidate. One hash may hold many ids.
 */

const EMPTY = -1;
/** The table doubles past this share of its room: probes stay short and the room per entry stays under 16 bytes. */
const MAX_LOAD = 0.75;

/** 32-bit FNV-1a of `text` without its characters at `skipA` and `skipB` (-1: none). */
export function fnv1a(text: string, skipA = -1, skipB = -1): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    if (i === skipA || i === skipB) continue;
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

export class HashIds {
  private hashes: Uint32Array;
  private ids: Int32Array;
  private bits: number;
  private count = 0;

  constructor(bits = 10) {
    this.bits = bits;
    this.hashes = new Uint32Array(1 << bits);
    this.ids = new Int32Array(1 << bits).fill(EMPTY);
  }

  get size(): number {
    return this.count;
  }

  /** Where a hash's probe starts: its bits mixed (FNV's low bits alone cluster) and cut to the table's. */
  private home(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> (32 - this.bits);
  }

  /** Files `id` (0 or more) under `hash`; a pair filed twice is held twice. */
  add(hash: number, id: number): void {
    if (this.count + 1 > this.ids.length * MAX_LOAD) this.grow();
    const mask = this.ids.length - 1;
    let at = this.home(hash);
    while (this.ids[at] !== EMPTY) at = (at + 1) & mask;
    this.hashes[at] = hash;
    this.ids[at] = id;
    this.count++;
  }

  /** The first id filed under `hash` that `accept` takes, or -1. */
  find(hash: number, accept: (id: number) => boolean): number {
    const mask = this.ids.length - 1;
    for (let at = this.home(hash); this.ids[at] !== EMPTY; at = (at + 1) & mask) {
      if (this.hashes[at] === hash && accept(this.ids[at]!)) return this.ids[at]!;
    }
    return -1;
  }

  /** Calls `visit` with every id filed under `hash`. */
  forEach(hash: number, visit: (id: number) => void): void {
    const mask = this.ids.length - 1;
    for (let at = this.home(hash); this.ids[at] !== EMPTY; at = (at + 1) & mask) if (this.hashes[at] === hash) visit(this.ids[at]!);
  }

  /** Takes one filing of `id` under `hash` out; returns whether there was one. */
  remove(hash: number, id: number): boolean {
    const mask = this.ids.length - 1;
    let at = this.home(hash);
    while (this.ids[at] !== EMPTY && (this.hashes[at] !== hash || this.ids[at] !== id)) at = (at + 1) & mask;
    if (this.ids[at] === EMPTY) return false;
    // Entries after the gap that probed past it move back into it, so that every probe still reaches its entry.
    let gap = at;
    for (let next = (at + 1) & mask; this.ids[next] !== EMPTY; next = (next + 1) & mask) {
      const home = this.home(this.hashes[next]!);
      // Movable when its home is not cyclically within (gap, next].
      if (((next - home) & mask) >= ((next - gap) & mask)) {
        this.hashes[gap] = this.hashes[next]!;
        this.ids[gap] = this.ids[next]!;
        gap = next;
      }
    }
    this.ids[gap] = EMPTY;
    this.count--;
    return true;
  }

  private grow(): void {
    const { hashes, ids } = this;
    this.bits++;
    this.hashes = new Uint32Array(1 << this.bits);
    this.ids = new Int32Array(1 << this.bits).fill(EMPTY);
    this.count = 0;
    for (let at = 0; at < ids.length; at++) if (ids[at] !== EMPTY) this.add(hashes[at]!, ids[at]!);
  }

  /** Heap bytes of the table's arrays. */
  memoryBytes(): number {
    return typedBytes(this.hashes) + typedBytes(this.ids);
  }
}
