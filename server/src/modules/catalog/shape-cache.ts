/*
 * Shaped Search products kept in memory, so that a results page of products shown recently is not read from the
 * database again: that read was a tenth of the server's time per search (30 rows of 1.5 KB, by id). A kept shape
 * is good while its store's shapes epoch (CatalogRepository.shapesEpoch, counted by the database for every
 * writer) and the shaping it was made under are the ones of the request; otherwise it is a miss, and is
 * replaced or falls out. The least recently shown go first once the budget is spent (near enough: see get): on
 * the search bench's mix, 10,000 products (of 50,000) answered 93% of the lookups.
 */

interface Kept {
  json: string;
  shaping: string;
  epoch: number;
  /** The cache's clock when it was kept or last moved to the end. */
  moved: number;
}

/** Characters of JSON kept, all stores together: about 8,000 products of 1.5 KB, 12-24 MB. */
export const DEFAULT_SHAPE_CACHE_CHARS = 12_000_000;
/** A Map entry and its key, in characters' worth. */
const ENTRY_OVERHEAD = 100;

export class ShapeCache {
  /** By store and id, least recently shown first (a hit moves an entry to the end). */
  private readonly kept = new Map<string, Kept>();
  private chars = 0;
  /** Counts entries kept or moved to the end. */
  private clock = 0;

  constructor(private readonly maxChars = DEFAULT_SHAPE_CACHE_CHARS) {}

  get(storeId: string, id: string, shaping: string, epoch: number): string | undefined {
    const key = keyOf(storeId, id);
    const entry = this.kept.get(key);
    if (!entry || entry.shaping !== shaping || entry.epoch !== epoch) return undefined;
    // Only an entry in the older half moves: one moved or kept since is far from eviction, and a results page's
    // hits are mostly such, so most hits cost a lookup instead of a delete and an insert.
    if (this.clock - entry.moved > this.kept.size >> 1) {
      this.kept.delete(key);
      this.kept.set(key, entry);
      entry.moved = ++this.clock;
    }
    return entry.json;
  }

  keep(storeId: string, id: string, shaping: string, epoch: number, json: string): void {
    const key = keyOf(storeId, id);
    this.drop(key);
    const size = json.length + ENTRY_OVERHEAD;
    if (size > this.maxChars) return;
    this.kept.set(key, { json, shaping, epoch, moved: ++this.clock });
    this.chars += size;
    while (this.chars > this.maxChars) this.drop(this.kept.keys().next().value!);
  }

  /** Characters kept now (for tests and metrics). */
  get size(): number {
    return this.chars;
  }

  private drop(key: string): void {
    const entry = this.kept.get(key);
    if (!entry) return;
    this.kept.delete(key);
    this.chars -= entry.json.length + ENTRY_OVERHEAD;
  }
}

/** Store ids are letters, digits, - and _: a NUL cannot be part of one. */
const keyOf = (storeId: string, id: string) => `${storeId}\u0000${id}`;
