import type { Database } from "bun:sqlite";

/*
 * A bulk import writes each product under keys spread over id-keyed indexes (the catalog's, the enrichment queue's,
 * the engine's). Once those outgrow the connection's page cache, each batch of 1,000 products reads a page per key
 * back from the file and, as the cache overflows mid-batch, writes pages to the log twice: at 300,000 products with
 * a 1 MiB cache the serving thread read 4,250 pages per 1,000 products where it read 480 at the start. While
 * batches come, the writing connection's cache is widened so those indexes stay in it; once they stop, it is put
 * back and SQLite frees the pages beyond it, so a store that is not importing keeps its usual memory.
 */
export class BulkCache {
  private readonly ownKib: number;
  private narrowing: Timer | null = null;

  constructor(
    private readonly db: Database,
    /** The cache while batches come (KiB). */
    private readonly bulkKib: number,
    /** How long after the last batch the cache is put back. */
    private readonly idleMs = BULK_IDLE_MS,
  ) {
    // Negative: a size in KiB, as connection.ts sets it.
    this.ownKib = -(db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
  }

  /** Before a batch's write: the wide cache until `idleMs` after the last call. */
  widen(): void {
    if (this.bulkKib <= this.ownKib) return;
    if (this.narrowing) {
      this.narrowing.refresh();
      return;
    }
    this.db.exec(`PRAGMA cache_size = -${this.bulkKib}`);
    this.narrowing = setTimeout(() => this.narrow(), this.idleMs);
    this.narrowing.unref();
  }

  /** Before the connection closes. */
  close(): void {
    if (this.narrowing) clearTimeout(this.narrowing);
    this.narrowing = null;
  }

  private narrow(): void {
    this.narrowing = null;
    this.db.exec(`PRAGMA cache_size = -${this.ownKib}`);
  }
}

/** A bulk's batches come every few milliseconds; a pause this long means it ended (or stalled). */
const BULK_IDLE_MS = 10_000;
