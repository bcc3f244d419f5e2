// Lets the event loop serve requests (searches, task polls) between the steps of a batch.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import type { Database } from "bun:sqlite";
import type { CatalogRepo, CatalogState } from "../../db/catalog-repo.ts";
import type { TaskRow, TasksRepo } from "../../db/tasks-repo.ts";
import { EngineRejectedError } from "../../engine/errors.ts";
import type { EngineDocument, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import { canonicalJson, contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument } from "../catalog/engine-document.ts";
import type { RankingInputs } from "../catalog/ranking-inputs.ts";
import type { Product } from "../catalog/product-schema.ts";
import type { StorageHealth } from "../../db/storage-health.ts";
import { shapeJson, type ShapedProducts } from "../catalog/shaped-products.ts";

/*
 * Applies acknowledged tasks to the catalog and the engine, in batches. Stores take turns: each batch belongs to
 * the store with ready work that was served least recently, and holds that store's oldest tasks in the order they
 * were acknowledged (a bulk task spans several batches; small tasks share one). So a store's large bulk delays
 * another store's task by one batch at most, and a task waiting for a retry holds back only its own store.
 * Per batch: new versions are computed from the catalog, the engine is written (idempotent), then catalog rows
 * and task progress are committed in one transaction. A crash between the two writes leaves the tasks pending;
 * the batch is recomputed from the same catalog state and gives the same versions, so no reader ever sees an
 * item applied twice.
 */

export interface IndexingWorkerOptions {
  db: Database;
  tasks: TasksRepo;
  catalog: CatalogRepo;
  engine: SearchEngine;
  ranking: RankingInputs;
  /** Where committed products' Search product JSON goes, shaped with the store's settings of the moment. */
  shapes: ShapedProducts;
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
}

interface Slice {
  task: TaskRow;
  items: unknown[];
  end: number;
}

/** A product's state as this batch leaves it. */
interface WorkingEntry extends CatalogState {
  changed: boolean;
  /** The product JSON to store (canonical: sorted keys), null for a deletion. */
  doc: string | null;
  product: Product | null;
}

/**
 * Large enough that per-batch costs (task queries, two commits) stay small next to the items; small enough that
 * another store's task waits about a quarter of a second (one batch) behind a bulk.
 */
const DEFAULT_BATCH_SIZE = 1000;

/** Documents per engine write: the embedded engine holds the event loop for about 0.1 ms per document. */
const ENGINE_CHUNK = 250;

const backoffMs = (attempt: number) => Math.min(60_000, 500 * 2 ** (attempt - 1));

export class IndexingWorker {
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly idleMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** Parsed payloads of tasks in progress, so a bulk task is parsed once, not once per batch. */
  private readonly payloads = new Map<number, { storeId: string; items: unknown[] }>();
  /** The turn in which each store with pending work was last served; the least recent goes next. */
  private readonly lastServed = new Map<string, number>();
  private turn = 0;

  constructor(private readonly o: IndexingWorkerOptions) {
    this.batchSize = o.batchSize ?? DEFAULT_BATCH_SIZE;
    this.maxAttempts = o.maxAttempts ?? 8;
    this.idleMs = o.idleMs ?? 1000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
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
    const heads = this.o.tasks.pendingHeads();
    this.forgetIdleStores(heads);
    const ready = heads.filter((head) => head.nextRunAt <= now);
    if (ready.length === 0) {
      const soonest = heads.reduce((at, head) => Math.min(at, head.nextRunAt), now + this.idleMs);
      return soonest - now;
    }
    const served = (head: TaskRow) => this.lastServed.get(head.storeId) ?? 0;
    const next = ready.reduce((a, b) => (served(b) < served(a) || (served(b) === served(a) && b.seq < a.seq) ? b : a));
    this.lastServed.set(next.storeId, ++this.turn);
    await this.applyBatch(next.storeId, now);
    return 0;
  }

  /** Drops what is kept for stores without pending work (their tasks ended, or the store was deleted). */
  private forgetIdleStores(heads: TaskRow[]): void {
    const pending = new Set(heads.map((head) => head.storeId));
    for (const storeId of this.lastServed.keys()) if (!pending.has(storeId)) this.lastServed.delete(storeId);
    for (const [seq, payload] of this.payloads) if (!pending.has(payload.storeId)) this.payloads.delete(seq);
  }

  private async applyBatch(storeId: string, now: number): Promise<void> {
    const slices = this.nextSlices(this.o.tasks.pendingOf(storeId, this.batchSize), now);
    const entries = this.applyInMemory(storeId, slices);
    await yieldToEventLoop();
    try {
      await this.writeEngine(storeId, entries);
    } catch (error) {
      this.recordFailure(slices, error as Error);
      return;
    }
    await yieldToEventLoop();
    const committedAt = this.o.now();
    const shaping = this.o.shapes.shaping(storeId);
    const shaped = new Map<string, { key: string; json: string }>();
    for (const [id, entry] of entries) if (entry.changed && entry.product) shaped.set(id, { key: shaping.key, json: shapeJson(entry.product, shaping) });
    this.o.db.transaction(() => {
      for (const [id, entry] of entries) {
        if (!entry.changed) continue;
        this.o.catalog.put(storeId, id, { ...entry, updatedAt: committedAt });
        this.o.shapes.put(storeId, id, shaped.get(id) ?? null);
      }
      for (const s of slices) this.o.tasks.advance(s.task.seq, s.end, s.task.itemCount, committedAt);
    })();
    for (const s of slices) if (s.end >= s.task.itemCount) this.payloads.delete(s.task.seq);
    this.o.onApplied?.(storeId);
  }

  /** The store's tasks from the oldest, up to the batch size; a task waiting for a retry ends the batch. */
  private nextSlices(tasks: TaskRow[], now: number): Slice[] {
    const slices: Slice[] = [];
    let room = this.batchSize;
    for (const task of tasks) {
      if (room === 0 || task.nextRunAt > now) break;
      let payload = this.payloads.get(task.seq);
      if (!payload) {
        payload = { storeId: task.storeId, items: JSON.parse(this.o.tasks.payload(task.seq)) as unknown[] };
        this.payloads.set(task.seq, payload);
      }
      const end = Math.min(task.itemCount, task.cursor + room);
      slices.push({ task, items: payload.items.slice(task.cursor, end), end });
      room -= end - task.cursor;
    }
    return slices;
  }

  /** Replays the slices over the current catalog state, in order, as the catalog would see them. */
  private applyInMemory(storeId: string, slices: Slice[]): Map<string, WorkingEntry> {
    const ids = slices.flatMap(({ task, items }) => (task.kind === "upsert" ? items.map((item) => (item as Product).id) : (items as string[])));
    const stored = this.o.catalog.states(storeId, ids);
    const entries = new Map<string, WorkingEntry>();
    const entryFor = (id: string): WorkingEntry | null => {
      let entry = entries.get(id);
      if (!entry) {
        const state = stored.get(id);
        if (!state) return null;
        entry = { ...state, changed: false, doc: null, product: null };
        entries.set(id, entry);
      }
      return entry;
    };
    for (const { task, items } of slices) {
      for (const item of items) {
        if (task.kind === "upsert") {
          const product = item as Product;
          const doc = canonicalJson(product);
          const hash = contentHash(doc);
          const current = entryFor(product.id);
          if (current && !current.deleted && current.contentHash === hash) continue;
          entries.set(product.id, { version: (current?.version ?? 0) + 1, contentHash: hash, deleted: false, doc, changed: true, product });
        } else {
          const current = entryFor(item as string);
          if (!current || current.deleted) continue;
          Object.assign(current, { version: current.version + 1, contentHash: null, deleted: true, doc: null, changed: true, product: null });
        }
      }
    }
    return entries;
  }

  private async writeEngine(storeId: string, entries: Map<string, WorkingEntry>): Promise<void> {
    const upserts: [string, WorkingEntry][] = [];
    const removals: string[] = [];
    for (const [id, entry] of entries) {
      if (!entry.changed) continue;
      if (entry.deleted) removals.push(id);
      else upserts.push([id, entry]);
    }
    const context = this.o.ranking.forProducts(storeId, upserts.map(([id]) => id));
    const docs: EngineDocument[] = upserts.map(([id, entry]) => toEngineDocument(entry.product!, entry.version, context(id)));
    for (let start = 0; start < docs.length; start += ENGINE_CHUNK) {
      if (start > 0) await yieldToEventLoop();
      await this.o.engine.upsert(storeId, docs.slice(start, start + ENGINE_CHUNK));
    }
    if (removals.length) await this.o.engine.remove(storeId, removals);
  }

  private recordFailure(slices: Slice[], error: Error): void {
    const now = this.o.now();
    const first = slices[0]!.task;
    const attempts = first.attempts + 1;
    const ownStorage = this.o.storage?.classify(error) != null;
    const permanent = !ownStorage && (error instanceof EngineRejectedError || attempts >= this.maxAttempts);
    this.o.log.warn("indexing batch failed", { taskId: first.id, storeId: first.storeId, attempts, permanent, error: error.message });
    if (!permanent) {
      this.o.tasks.retryLater(first.seq, attempts, now + backoffMs(attempts), error.message, now);
      return;
    }
    // The batch cannot be applied: end every task in it, so the tasks behind them are not held back forever.
    this.o.db.transaction(() => {
      for (const s of slices) this.o.tasks.fail(s.task.seq, `Search engine rejected the update: ${error.message}`, now);
    })();
    for (const s of slices) this.payloads.delete(s.task.seq);
  }
}
