// Lets the event loop serve requests (searches, task polls) between the steps of a batch.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { CatalogRepository, CatalogState, CommittedProduct } from "../catalog/storage/catalog-repository.ts";
import type { StateSource } from "../../platform/state-source.ts";
import type { TaskKind, TaskRow, TasksRepository } from "./storage/tasks-repository.ts";
import { EngineRejectedError } from "../../engine/errors.ts";
import { documentPreparer } from "../../engine/document-preparers.ts";
import type { DocumentPreparer, PreparedDocument, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import type { StorageHealth } from "../../platform/storage-health.ts";
import { IndexingThread, PrepareError } from "./indexing-thread.ts";
import { decodePrepared, decodeStrings, type EncodedSlice, type PreparedProduct } from "./prepared-batch.ts";
import { StoreWriters } from "./store-writers.ts";
import type { Utf8Text } from "../../utf8-text.ts";

/*
 * Applies acknowledged tasks to the catalog and the engine, in batches. Stores take turns: each batch belongs to
 * the store with ready work that was served least recently, and holds that store's oldest tasks in the order they
 * were acknowledged (a bulk task spans several batches; small tasks share one). So a store's large bulk delays
 * another store's task by one batch at most, and a task waiting for a retry holds back only its own store.
 * Per batch: the items are prepared on the indexing thread (JSON, hashes, engine documents and what the engine's
 * own preparer makes of them; the next batches are prepared ahead while this one is applied), new versions are
 * computed from the catalog, the engine is written (idempotent), then catalog rows and task progress are committed in one transaction. A
 * crash between the two writes leaves the tasks pending; the batch is recomputed from the same catalog state and
 * gives the same versions, so no reader ever sees an item applied twice. For the same reason the commit does not
 * wait for the disk (platform/sqlite/wal-checkpoints.ts). Several replicas on one database apply different stores: a worker
 * takes a store's lease before a batch (store-writers.ts), and a batch whose tasks another replica moved on
 * meanwhile is refused whole at commit time (TasksRepository.commitBatch), so a dead replica's store is taken
 * over and nothing is applied twice.
 */

export interface IndexingWorkerOptions {
  /** Where the indexing thread reads task payloads and ranking inputs. */
  state: StateSource;
  tasks: TasksRepository;
  catalog: CatalogRepository;
  engine: SearchEngine;
  now: () => number;
  log: Logger;
  /** Items (products or deletions) per batch. */
  batchSize?: number;
  /** Engine failures tolerated per task before it ends in `error`. */
  maxAttempts?: number;
  /** Idle poll interval; enqueueing wakes the worker at once. */
  idleMs?: number;
  /**
   * Tells our own storage failing (disk full, a failed write) from engine failures: such a batch is retried until
   * the storage works again and never fails its tasks, which were acknowledged.
   */
  storage?: Pick<StorageHealth, "classify">;
  /** Told after a batch of a store's catalog changes is committed (what is learned from the catalog goes stale). */
  onApplied?: (storeId: string) => void;
  /**
   * A batch runs as its store's only search write, under the store's lease (store-writers.ts); the service
   * shares these with the enrichment sync. Without: the worker's own, with the default lease.
   */
  writers?: StoreWriters;
}

/** Items [start, end) of a task. */
interface Slice {
  task: TaskRow;
  start: number;
  end: number;
}

/**
 * A slice as the indexing thread sent it: kept encoded (in buffers, outside the collected heap) until its batch
 * is applied, then decoded.
 */
interface EncodedPreparedSlice {
  kind: TaskKind;
  encoded: EncodedSlice;
}

/** A slice as its batch applies it. */
type PreparedSlice = { kind: "upsert"; products: PreparedProduct[] } | { kind: "delete"; ids: string[] };

const decoded = ({ kind, encoded }: EncodedPreparedSlice, preparer: DocumentPreparer): PreparedSlice =>
  kind === "upsert" ? { kind, products: decodePrepared(encoded, preparer) } : { kind, ids: decodeStrings(encoded) };

/** A product's state as this batch leaves it. */
interface WorkingEntry extends CatalogState {
  changed: boolean;
  /** The product JSON to store (canonical: sorted keys), null for a deletion. */
  doc: Utf8Text | null;
  prepared: PreparedProduct | null;
}

/**
 * Large enough that per-batch costs (task queries, two commits) stay small next to the items; small enough that
 * another store's task waits about a quarter of a second (one batch) behind a bulk.
 */
const DEFAULT_BATCH_SIZE = 1000;

/**
 * Documents per engine write: the embedded engine holds the event loop for about 0.1 ms per document, and its
 * per-commit cost falls with bigger writes: 500 is about 50 ms.
 */
const ENGINE_CHUNK = 500;

/**
 * Batches of a store prepared ahead of the one being applied. While the main thread is busy (accepting a bulk,
 * committing), the indexing thread prepares batches it will need later instead of waiting: with 2, the main thread
 * still waited 1.5-2.2 s for it over the demo catalog, with 6 0.9-1.3 s. A batch another store waits for is
 * prepared before these (indexing-thread-main.ts).
 */
const PREPARED_AHEAD = 6;

const backoffMs = (attempt: number) => Math.min(60_000, 500 * 2 ** (attempt - 1));

export class IndexingWorker {
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly idleMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** The indexing thread, which also validates POST /products bodies (IndexingService.accept). */
  readonly thread: IndexingThread;
  /** The engine's, as the indexing thread uses it: reads what that thread sends. */
  private readonly preparer: DocumentPreparer;
  private readonly writers: StoreWriters;
  /** Whether the last look at the queue found work ready (or work was acknowledged since). */
  private hasWork = false;
  /** Slices requested from the thread ahead of their batch, by sliceKey. */
  private readonly ahead = new Map<string, { storeId: string; seq: number; start: number; prepared: Promise<EncodedPreparedSlice> }>();
  /** The turn in which each store with pending work was last served; the least recent goes next. */
  private readonly lastServed = new Map<string, number>();
  private turn = 0;

  constructor(private readonly o: IndexingWorkerOptions) {
    this.batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
    this.maxAttempts = o.maxAttempts ?? 8;
    this.idleMs = o.idleMs ?? 1000;
    this.thread = new IndexingThread(o.state, o.engine.kind);
    this.preparer = documentPreparer(o.engine.kind);
    this.writers = o.writers ?? new StoreWriters(o.tasks, o.now);
  }

  /** Whether acknowledged indexing work is waiting here: background work on this process yields to it. */
  busy(): boolean {
    return this.hasWork;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Work was acknowledged. */
  wake(): void {
    this.hasWork = this.running;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.thread.close();
    this.ahead.clear();
  }

  private async run(): Promise<void> {
    while (this.running) {
      let delay = 0;
      try {
        delay = await this.runOnce();
      } catch (error) {
        this.o.storage?.classify(error);
        this.o.log.error("indexing worker failed", { error: (error as Error).message, stack: (error as Error).stack });
        delay = this.idleMs;
      }
      if (delay > 0 && this.running) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wakeUp = null;
      } else {
        await yieldToEventLoop();
      }
    }
  }

  /** Processes one batch. Returns how long to wait before the next (0: more work may be ready). */
  async runOnce(): Promise<number> {
    const now = this.o.now();
    const heads = await this.o.tasks.pendingHeads();
    this.forgetIdleStores(heads);
    const served = (head: TaskRow) => this.lastServed.get(head.storeId) ?? 0;
    const ready = heads.filter((head) => head.nextRunAt <= now).sort((a, b) => served(a) - served(b) || a.seq - b.seq);
    // Set before the awaits below, so that background work never sees a gap in the middle of a bulk.
    this.hasWork = ready.length > 0;
    for (const next of ready) {
      const applied = await this.writers.exclusive(next.storeId, async () => {
        this.lastServed.set(next.storeId, ++this.turn);
        await this.applyBatch(next.storeId, now, ready.length > 1);
        return true;
      });
      // Another replica applying this store's tasks: the next store.
      if (applied) return 0;
    }
    this.hasWork = false;
    const soonest = heads.reduce((at, head) => Math.min(at, head.nextRunAt > now ? head.nextRunAt : now + this.idleMs), now + this.idleMs);
    return soonest - now;
  }

  /** Drops what is kept for stores without pending work (their tasks ended, or the store was deleted). */
  private forgetIdleStores(heads: TaskRow[]): void {
    const pending = new Set(heads.map((head) => head.storeId));
    for (const storeId of this.lastServed.keys()) if (!pending.has(storeId)) this.lastServed.delete(storeId);
    for (const [key, slice] of this.ahead) if (!pending.has(slice.storeId)) this.ahead.delete(key);
  }

  /** `othersReady`: other stores had work ready too (this batch cannot have emptied the queue). */
  private async applyBatch(storeId: string, now: number, othersReady: boolean): Promise<void> {
    const queue = (await this.o.tasks.pendingOf(storeId, this.batchSize)).map((task) => ({ task, cursor: task.cursor }));
    this.dropStale(storeId, queue);
    const slices = this.nextSlices(queue, now);
    const preparing = slices.map((slice) => this.prepared(storeId, slice));
    for (let batch = 0; batch < PREPARED_AHEAD; batch++) {
      for (const slice of this.nextSlices(queue, now)) this.prepareAhead(storeId, slice);
    }
    let entries: Map<string, WorkingEntry>;
    try {
      const prepared = (await Promise.all(preparing)).map((slice) => decoded(slice, this.preparer));
      entries = await this.applyInMemory(storeId, prepared);
      await this.writeEngine(storeId, entries);
    } catch (error) {
      await this.recordFailure(slices, error as Error);
      return;
    }
    await yieldToEventLoop();
    const products: CommittedProduct[] = [];
    for (const [id, e] of entries) {
      if (!e.changed) continue;
      products.push({ id, version: e.version, contentHash: e.contentHash, deleted: e.deleted, doc: e.doc });
    }
    products.sort(byId);
    const advances = slices.map((s) => ({ seq: s.task.seq, from: s.start, to: s.end, itemCount: s.task.itemCount }));
    const committed = await this.o.tasks.commitBatch({ storeId, at: this.o.now(), products, advances });
    if (!committed) {
      // Another replica applied these tasks first (this one's lease had run out): its versions stand.
      this.o.log.warn("indexing batch applied elsewhere first; dropped", { storeId, taskId: slices[0]!.task.id });
      for (const [key, slice] of this.ahead) if (slice.storeId === storeId) this.ahead.delete(key);
      return;
    }
    // The last of the work seen is applied: background work need not wait for the next look at the queue.
    const reached = new Map(slices.map((slice) => [slice.task.seq, slice.end]));
    if (
      !othersReady &&
      queue.length < this.batchSize &&
      queue.every(({ task }) => (reached.get(task.seq) ?? task.cursor) >= task.itemCount)
    )
      this.hasWork = false;
    this.o.onApplied?.(storeId);
  }

  /**
   * The next batch from `queue` (the store's pending tasks, oldest first, each with the cursor to go on from,
   * advanced past what is returned): up to the batch size; a task waiting for a retry ends the batch.
   */
  private nextSlices(queue: { task: TaskRow; cursor: number }[], now: number): Slice[] {
    const slices: Slice[] = [];
    let room = this.batchSize;
    for (const entry of queue) {
      if (room === 0 || entry.task.nextRunAt > now) break;
      if (entry.cursor >= entry.task.itemCount) continue;
      const end = Math.min(entry.task.itemCount, entry.cursor + room);
      slices.push({ task: entry.task, start: entry.cursor, end });
      room -= end - entry.cursor;
      entry.cursor = end;
    }
    return slices;
  }

  private prepared(storeId: string, slice: Slice): Promise<EncodedPreparedSlice> {
    const key = sliceKey(slice);
    const ahead = this.ahead.get(key);
    this.ahead.delete(key);
    return ahead?.prepared ?? this.request(storeId, slice, false);
  }

  private prepareAhead(storeId: string, slice: Slice): void {
    const key = sliceKey(slice);
    if (this.ahead.has(key)) return;
    const prepared = this.request(storeId, slice, true);
    // A slice prepared ahead may never be used (its task failed, the store was deleted): not an unhandled error.
    prepared.catch(() => {});
    this.ahead.set(key, { storeId, seq: slice.task.seq, start: slice.start, prepared });
  }

  /** Forgets slices prepared ahead that will not be asked for: their task ended, or was applied past them. */
  private dropStale(storeId: string, queue: { task: TaskRow }[]): void {
    const cursors = new Map(queue.map(({ task }) => [task.seq, task.cursor]));
    for (const [key, slice] of this.ahead) {
      if (slice.storeId !== storeId) continue;
      const cursor = cursors.get(slice.seq);
      if (cursor === undefined || cursor > slice.start) this.ahead.delete(key);
    }
  }

  private async request(storeId: string, { task, start, end }: Slice, ahead: boolean): Promise<EncodedPreparedSlice> {
    return {
      kind: task.kind,
      encoded: await this.thread.prepare({ storeId, seq: task.seq, taskId: task.id, kind: task.kind, start, end, ahead }),
    };
  }

  /** Replays the prepared slices over the current catalog state, in order, as the catalog would see them. */
  private async applyInMemory(storeId: string, slices: PreparedSlice[]): Promise<Map<string, WorkingEntry>> {
    const ids = slices.flatMap((slice) => (slice.kind === "upsert" ? slice.products.map((p) => p.id) : slice.ids));
    const stored = await this.o.catalog.states(storeId, ids);
    const entries = new Map<string, WorkingEntry>();
    const entryFor = (id: string): WorkingEntry | null => {
      let entry = entries.get(id);
      if (!entry) {
        const state = stored.get(id);
        if (!state) return null;
        entry = { ...state, changed: false, doc: null, prepared: null };
        entries.set(id, entry);
      }
      return entry;
    };
    for (const slice of slices) {
      if (slice.kind === "upsert") {
        for (const prepared of slice.products) {
          const current = entryFor(prepared.id);
          if (current && !current.deleted && current.contentHash === prepared.hash) continue;
          const version = (current?.version ?? 0) + 1;
          entries.set(prepared.id, { version, contentHash: prepared.hash, deleted: false, doc: prepared.doc, changed: true, prepared });
        }
      } else {
        for (const id of slice.ids) {
          const current = entryFor(id);
          if (!current || current.deleted) continue;
          Object.assign(current, {
            version: current.version + 1,
            contentHash: null,
            deleted: true,
            doc: null,
            changed: true,
            prepared: null,
          });
        }
      }
    }
    return entries;
  }

  private async writeEngine(storeId: string, entries: Map<string, WorkingEntry>): Promise<void> {
    const docs: PreparedDocument[] = [];
    const removals: string[] = [];
    for (const [id, entry] of entries) {
      if (!entry.changed) continue;
      if (entry.deleted) removals.push(id);
      else {
        entry.prepared!.engine.version = entry.version;
        docs.push(entry.prepared!.engine);
      }
    }
    for (let start = 0; start < docs.length; start += ENGINE_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      // The batch's last write syncs the ones before with it, before its catalog commit relies on them.
      const synced = start + ENGINE_CHUNK >= docs.length;
      await this.o.engine.upsertPrepared(storeId, docs.slice(start, start + ENGINE_CHUNK), { synced });
    }
    if (removals.length) await this.o.engine.remove(storeId, removals);
  }

  private async recordFailure(slices: Slice[], error: Error): Promise<void> {
    const now = this.o.now();
    const first = slices[0]!.task;
    const attempts = first.attempts + 1;
    const ownStorage = this.o.storage?.classify(error) != null;
    const permanent = !ownStorage && (error instanceof EngineRejectedError || attempts >= this.maxAttempts);
    this.o.log.warn("indexing batch failed", { taskId: first.id, storeId: first.storeId, attempts, permanent, error: error.message });
    if (!permanent) {
      await this.o.tasks.retryLater(first.seq, attempts, now + backoffMs(attempts), error.message, now);
      return;
    }
    // The batch cannot be applied: end every task in it, so the tasks behind them are not held back forever.
    const message =
      error instanceof PrepareError
        ? `The update could not be prepared: ${error.message}`
        : `Search engine rejected the update: ${error.message}`;
    await this.o.tasks.fail(
      slices.map((s) => s.task.seq),
      message,
      now,
    );
  }
}

/**
 * The catalog's and the enrichment queue's rows are keyed by product id, which a bulk sends in any order. Written in
 * key order, the pages of their indexes a batch changes are visited one after another instead of at random over an
 * index larger than the page cache: at 300,000 products the batch commit took 46 instead of 52 ms of the serving
 * thread's CPU per 1,000 products.
 */
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const sliceKey = ({ task, start, end }: Slice) => `${task.seq}:${start}:${end}`;
