import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { SQLITE_CACHE_MB, SQLITE_MMAP_MB } from "../../config.ts";
import { MIGRATIONS } from "./schema.ts";

export interface OpenOptions {
  synchronous: "FULL" | "NORMAL";
  /**
   * How long a write waits for a lock another process holds. SQLite waits synchronously, so the server keeps it
   * short (its requests answer 503 instead of freezing the event loop); command-line tools may wait longer.
   */
  busyTimeoutMs?: number;
  /** How much of the file reads map (MMAP_BYTES, SQLITE_MMAP_MB's default, when not given; 0: none). */
  mmapBytes?: number;
  /** Page cache in KiB (SQLITE_CACHE_MB's default when not given). */
  cacheKib?: number;
}

/** The server's wait for a lock held by another process (a CLI command, a backup) before answering 503. */
export const SERVER_BUSY_TIMEOUT_MS = 100;

/**
 * Pages of a new database file. Rows here are JSON of 1-2 KB (a product, its Search product, its engine document):
 * at SQLite's default 4 KB a bulk of the demo catalog took 11 write calls per product into the log and 6 reads
 * back; at 16 KB it takes 2 and 1, for about a tenth of the indexing CPU. A file keeps the size it was made with.
 */
const PAGE_SIZE = 16_384;
/** Page cache per connection (KiB): one indexing batch's pages, so a batch does not spill to the log mid-way. */
const CACHE_KIB = SQLITE_CACHE_MB * 1024;
/**
 * Reads copy pages with a system call each unless SQLITE_MMAP_MB maps the file. Mapped, a results page's 30 stored
 * Search products took 0.10-0.12 ms instead of 0.25 (50k products, more than the page cache holds), but every page
 * a mapped connection has read stays in the process's resident memory until it closes (clean pages, which the
 * kernel drops first under pressure): after 30 s of searches, similar products and looks at 50k products, 118 MiB
 * more (2.4 KB per product) for a median no slower than 0.3 ms (mmap-bench.ts). Past the size mapped, the rest of a
 * file is read as before; writes go through the log either way. Reads of a whole table never map (readUnmapped).
 */
const MMAP_BYTES = SQLITE_MMAP_MB * 1024 ** 2;

/**
 * WAL lets readers (search, task polls) proceed while the worker writes; the synchronous level decides whether a
 * commit waits for the disk (FULL: survives power loss) or only for the OS (NORMAL: survives a process crash).
 */
export function openDatabase(path: string, opts: OpenOptions): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { create: true, strict: true });
  // First: switching to the log takes a lock, which a connection closing elsewhere (the last one checkpoints and
  // removes the log under an exclusive lock) may hold for a moment; without a time-out the open fails at once.
  db.exec(`PRAGMA busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
  // Before the log is set up: the size of an empty file can still change then, and never after.
  db.exec(`PRAGMA page_size = ${PAGE_SIZE}`);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec(`PRAGMA cache_size = -${opts.cacheKib ?? CACHE_KIB}`);
  db.exec(`PRAGMA mmap_size = ${opts.mmapBytes ?? MMAP_BYTES}`);
  db.exec(`PRAGMA synchronous = ${opts.synchronous}`);
  db.exec("PRAGMA foreign_keys = ON");
  return db;
}

/**
 * `read` through a read-only connection of its own that does not map the file, closed after (about 0.3 ms to open
 * and close): for reads of a whole table a page at a time (the product-page models' build, a store's load into
 * the engine). Through `db`, mapped, every page of the table would stay in the process's resident memory while
 * `db` lives; through this one the pages pass through a page cache that closes with it. A `db` that maps nothing
 * (SQLITE_MMAP_MB=0, the default) reads through `read()` already, and an in-memory database has no file to open
 * again: both are read through `db`.
 */
export function readUnmapped<T>(db: Database, read: (reader: Database) => T): T {
  if (!db.filename || db.filename === ":memory:" || (db.query("PRAGMA mmap_size").get() as { mmap_size: number }).mmap_size === 0)
    return read(db);
  const reader = new Database(db.filename, { readonly: true, strict: true });
  try {
    reader.exec(`PRAGMA busy_timeout = ${SERVER_BUSY_TIMEOUT_MS}`);
    reader.exec("PRAGMA mmap_size = 0");
    return read(reader);
  } finally {
    reader.close();
  }
}

/**
 * `fn` as one write transaction that takes the write lock before it reads (BEGIN IMMEDIATE). The service's file has
 * two writers in one process (the serving thread and the events thread, besides command-line tools): a deferred
 * transaction that read first would fail at once with SQLITE_BUSY when the other wrote meanwhile, where this one
 * waits out its busy time-out for the lock.
 */
export function writeTransaction<T>(db: Database, fn: () => T): () => T {
  const tx = db.transaction(fn);
  return () => tx.immediate();
}

/** Applies numbered migrations once each, tracked by PRAGMA user_version. */
export function migrate(db: Database, migrations: readonly string[]): void {
  const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
  for (let i = current; i < migrations.length; i++) {
    db.transaction(() => {
      db.exec(migrations[i]!);
      db.exec(`PRAGMA user_version = ${i + 1}`);
    })();
  }
}

/** The service's own database (stores, keys, catalog, tasks, events) in DATA_DIR, migrated to the current schema. */
export function openServiceDatabase(dataDir: string, opts: OpenOptions): Database {
  const db = openDatabase(join(dataDir, "service.db"), opts);
  migrate(db, MIGRATIONS);
  return db;
}
