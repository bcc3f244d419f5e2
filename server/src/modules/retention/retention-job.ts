import type { EventsRepository } from "../events/storage/events-repository.ts";
import type { SearchLogRepository } from "../search-log/storage/search-log-repository.ts";
import type { StoresRepository } from "../stores/storage/stores-repository.ts";
import type { Logger } from "../../log.ts";

/*
 * Data retention: raw shopper events and search log rows older than RETENTION_DAYS are deleted, once shortly
 * after start and then daily. The aggregates that ranking and suggestions read (query_stats, product_signals,
 * counted_orders) are kept: they are what the raw rows were counted into.
 *
 * Deletes run in chunks, one short transaction each, with a pause between them: the event loop serves requests
 * and other writers take the write lock in between, however much has piled up (measured: 2,000 rows in
 * 10-20 ms on a loaded 2-core machine with synchronous=FULL).
 */

const DAY_MS = 86_400_000;
export const RETENTION_CHUNK_ROWS = 2_000;
const PAUSE_BETWEEN_CHUNKS_MS = 10;
/** Late enough not to compete with start-up work, early enough that a server restarted often still runs passes. */
const FIRST_PASS_DELAY_MS = 1_000;
const PASS_INTERVAL_MS = DAY_MS;
/**
 * A chunk that failed (the database held by another writer: the events thread counting a backlog, a backup) is
 * tried again this many times, after a pause each; a pass that still fails is tried again a minute later.
 */
const CHUNK_TRIES = 10;
const PAUSE_AFTER_FAILED_CHUNK_MS = 200;
const RETRY_FAILED_PASS_MS = 60_000;

export interface RetentionDeps {
  stores: StoresRepository;
  events: EventsRepository;
  searchLog: SearchLogRepository;
  retentionDays: number;
  now: () => number;
  log: Logger;
}

export interface RetentionResult {
  events: number;
  searchLog: number;
}

export class RetentionJob {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private pass: Promise<void> | null = null;
  private stopping = false;

  constructor(private readonly deps: RetentionDeps) {}

  start(): void {
    this.schedule(FIRST_PASS_DELAY_MS);
  }

  /** Cancels the next pass and lets a running one end after its current chunk. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.pass;
  }

  /** Deletes every raw row older than the retention period; stops early, between chunks, when the job stops. */
  private async runOnce(): Promise<RetentionResult> {
    const before = this.deps.now() - this.deps.retentionDays * DAY_MS;
    const deleted: RetentionResult = { events: 0, searchLog: 0 };
    for (const store of await this.deps.stores.list()) {
      deleted.events += await this.inChunks((limit) => this.deps.events.deleteReceivedBefore(store.id, before, limit));
      deleted.searchLog += await this.inChunks((limit) => this.deps.searchLog.deleteBefore(store.id, before, limit));
    }
    return deleted;
  }

  private async inChunks(deleteChunk: (limit: number) => number | Promise<number>): Promise<number> {
    let total = 0;
    while (!this.stopping) {
      const n = await this.tried(() => deleteChunk(RETENTION_CHUNK_ROWS));
      total += n;
      if (n < RETENTION_CHUNK_ROWS) break;
      await Bun.sleep(PAUSE_BETWEEN_CHUNKS_MS);
    }
    return total;
  }

  private async tried(deleteChunk: () => number | Promise<number>): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deleteChunk();
      } catch (error) {
        if (attempt >= CHUNK_TRIES || this.stopping) throw error;
        await Bun.sleep(PAUSE_AFTER_FAILED_CHUNK_MS);
      }
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      let ok = false;
      this.pass = this.logged()
        .then((done) => {
          ok = done;
        })
        .finally(() => {
          this.pass = null;
          this.schedule(ok ? PASS_INTERVAL_MS : RETRY_FAILED_PASS_MS);
        });
    }, delayMs);
    // A pending pass alone does not keep the process alive.
    this.timer.unref();
  }

  /** Runs a pass and logs what it did; false when it failed. */
  private async logged(): Promise<boolean> {
    const started = performance.now();
    try {
      const deleted = await this.runOnce();
      this.deps.log.info("retention pass", {
        retentionDays: this.deps.retentionDays,
        deletedEvents: deleted.events,
        deletedSearchLogRows: deleted.searchLog,
        ms: Math.round(performance.now() - started),
      });
      return true;
    } catch (error) {
      // Nothing is lost by waiting: a later pass deletes what this one could not (a busy or full disk).
      this.deps.log.warn("retention pass failed; tried again in a minute", { error: (error as Error).message });
      return false;
    }
  }
}
