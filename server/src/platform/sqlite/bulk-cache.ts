import type { Database } from "bun:sqlite";

/*
 * A bulk import writes each product under keys spread over id-keyed indexes (the catalog's, the enrichment queue's,
 * the engine's). Once those outgrow the connection's page cache, each batch of 1,000 products reads a page per key
 * back from the file and, as the cache overflows mid-batch, writes pages to the log twice: at 300,000 products with
 * a 1 MiB cache the serving thread read 4,250 pages per 1,000 products where it read 480 at the start. While
 * batches come, the writing connection's cache is widened so those indexes stay in it; once they stop, it is put
 * back and SQLite frees the pages beyond it, so a store that is not importing keeps its usual memory.
 *
 * Widened only as far as the file warrants: those indexes are 2–3% of their file (about 85 of 3,700 MiB in
 * service.db at a million products), and a wider cache fills with whatever else a batch touches (its appended
 * rows): at 50,000 products a 128 MiB cache held the server's RSS 161 MiB higher at the end of a bulk, for
 * indexes that fit the usual 8 MiB.
 */
export class BulkCache {
  private readonly ownKib: number;
  /** The file's page size (KiB): set before its log, it stays. */
  private readonly pageKib: number;
  private narrowing: Timer | null = null;
  /** The cache now (KiB). */
  private currentKib: number;

  constructor(
    private readonly db: Database,
    /** The cache while batches come (KiB). */
    private readonly bulkKib: number,
    /** How long after the last batch the cache is put back. */
    private readonly idleMs = BULK_IDLE_MS,
  ) {
    // Negative: a size in KiB, as connection.ts sets it.
    this.ownKib = -(db.query("PRAGMA cache_size").get() as { cache_size: number }).cache_size;
    this.currentKib = this.ownKib;
    this.pageKib = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size / 1024;
  }

  /** Before a batch's write: the cache the file warrants, at most the bulk's, until `idleMs` after the last call. */
  widen(): void {
    if (this.bulkKib <= this.ownKib) return;
    // Checked at every batch: a bulk into a new store grows the file as it goes.
    const wanted = Math.min(this.bulkKib, Math.max(this.ownKib, Math.ceil(this.fileKib() / FILE_SHARE)));
    if (wanted !== this.currentKib) this.resize(wanted);
    if (this.narrowing) this.narrowing.refresh();
    else if (this.currentKib !== this.ownKib) {
      this.narrowing = setTimeout(() => this.narrow(), this.idleMs);
      this.narrowing.unref();
    }
  }

  /** Before the connection closes. */
  close(): void {
    if (this.narrowing) clearTimeout(this.narrowing);
    this.narrowing = null;
  }

  private narrow(): void {
    this.narrowing = null;
    this.resize(this.ownKib);
  }

  private resize(kib: number): void {
    this.db.exec(`PRAGMA cache_size = -${kib}`);
    this.currentKib = kib;
  }

  private fileKib(): number {
    return (this.db.query("PRAGMA page_count").get() as { page_count: number }).page_count * this.pageKib;
  }
}

/** The cache a bulk gets is the file's size over this (the id-keyed indexes with room to spare), at most the bulk's. */
const FILE_SHARE = 24;

/** A bulk's batches come every few milliseconds; a pause this long means it ended (or stalled). */
const BULK_IDLE_MS = 10_000;
