import type { Database } from "bun:sqlite";
import type { CatalogEntry, CatalogRepo } from "../../db/catalog-repo.ts";
import type { TaskRow, TasksRepo } from "../../db/tasks-repo.ts";
import { EngineRejectedError } from "../../engine/errors.ts";
import type { EngineDocument, SearchEngine } from "../../engine/types.ts";
import type { Logger } from "../../log.ts";
import { contentHash } from "../catalog/content-hash.ts";
import { toEngineDocument } from "../catalog/engine-document.ts";
import type { RankingInputs } from "../catalog/ranking-inputs.ts";
import type { Product } from "../catalog/product-schema.ts";

/*
 * Applies acknowledged tasks, oldest first, to the catalog and the engine, in batches of items that may span
 * several tasks. Per batch: new versions are computed from the catalog, the engine is written (idempotent),
 * then catalog rows and task progress are committed in one transaction. A crash between the two writes
 * leaves the tasks pending; the batch is recomputed from the same catalog state and gives the same versions,
 * so no reader ever sees an item applied twice.
 */

export interface IndexingWorkerOptions {
  db: Database;
  tasks: TasksRepo;
  catalog: CatalogRepo;
  engine: SearchEngine;
  ranking: RankingInputs;
  now: () => number;
  log: Logger;
  /** Items (products or deletions) per batch. */
  batchSize?: number;
  /** Engine failures tolerated per task before it ends in `error`. */
  maxAttempts?: number;
  /** Idle poll interval; enqueueing wakes the worker at once. */
  idleMs?: number;
}

interface Slice {
  task: TaskRow;
  items: unknown[];
  end: number;
}

interface WorkingEntry extends CatalogEntry {
  changed: boolean;
  product: Product | null;
}

const backoffMs = (attempt: number) => Math.min(60_000, 500 * 2 ** (attempt - 1));

export class IndexingWorker {
  private readonly batchSize: number;
  private readonly maxAttempts: number;
  private readonly idleMs: number;
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  /** Parsed payloads of tasks in progress, so a bulk task is parsed once, not once per chunk. */
  private readonly payloads = new Map<number, unknown[]>();

  constructor(private readonly o: IndexingWorkerOptions) {
    this.batchSize = o.batchSize ?? 500;
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
        // Let HTTP requests in between batches of a large bulk.
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  /** Processes one batch. Returns how long to wait before the next (0: more work is ready). */
  async runOnce(): Promise<number> {
    const now = this.o.now();
    const head = this.o.tasks.pendingHead(64);
    if (head.length === 0) return this.idleMs;
    // Order matters more than throughput: a task waiting for a retry holds back the ones behind it.
    if (head[0]!.nextRunAt > now) return Math.min(this.idleMs, head[0]!.nextRunAt - now);

    const slices = this.nextSlices(head, now);
    const entries = this.applyInMemory(slices);
    try {
      await this.writeEngine(entries);
    } catch (error) {
      this.recordFailure(slices, error as Error);
      return 0;
    }
    const committedAt = this.o.now();
    this.o.db.transaction(() => {
      for (const [key, entry] of entries) {
        if (!entry.changed) continue;
        const [storeId, id] = splitKey(key);
        this.o.catalog.put(storeId, id, { ...entry, updatedAt: committedAt });
      }
      for (const s of slices) this.o.tasks.advance(s.task.seq, s.end, s.task.itemCount, committedAt);
    })();
    for (const s of slices) if (s.end >= s.task.itemCount) this.payloads.delete(s.task.seq);
    return 0;
  }

  private nextSlices(head: TaskRow[], now: number): Slice[] {
    const slices: Slice[] = [];
    let room = this.batchSize;
    for (const task of head) {
      if (room === 0 || task.nextRunAt > now) break;
      let payload = this.payloads.get(task.seq);
      if (!payload) {
        payload = JSON.parse(this.o.tasks.payload(task.seq)) as unknown[];
        this.payloads.set(task.seq, payload);
      }
      const end = Math.min(task.itemCount, task.cursor + room);
      slices.push({ task, items: payload.slice(task.cursor, end), end });
      room -= end - task.cursor;
    }
    return slices;
  }

  /** Replays the slices over the current catalog state, in order, as the catalog would see them. */
  private applyInMemory(slices: Slice[]): Map<string, WorkingEntry> {
    const entries = new Map<string, WorkingEntry>();
    const entryFor = (storeId: string, id: string): WorkingEntry | null => {
      const key = joinKey(storeId, id);
      let entry = entries.get(key);
      if (!entry) {
        const stored = this.o.catalog.get(storeId, id);
        if (!stored) return null;
        entry = { ...stored, changed: false, product: null };
        entries.set(key, entry);
      }
      return entry;
    };
    for (const { task, items } of slices) {
      for (const item of items) {
        if (task.kind === "upsert") {
          const product = item as Product;
          const hash = contentHash(product);
          const current = entryFor(task.storeId, product.id);
          if (current && !current.deleted && current.contentHash === hash) continue;
          entries.set(joinKey(task.storeId, product.id), {
            version: (current?.version ?? 0) + 1,
            contentHash: hash,
            deleted: false,
            doc: JSON.stringify(product),
            updatedAt: 0,
            changed: true,
            product,
          });
        } else {
          const id = item as string;
          const current = entryFor(task.storeId, id);
          if (!current || current.deleted) continue;
          Object.assign(current, { version: current.version + 1, contentHash: null, deleted: true, doc: null, changed: true, product: null });
        }
      }
    }
    return entries;
  }

  private async writeEngine(entries: Map<string, WorkingEntry>): Promise<void> {
    const byStore = new Map<string, { upserts: [string, WorkingEntry][]; removals: string[] }>();
    for (const [key, entry] of entries) {
      if (!entry.changed) continue;
      const [storeId, id] = splitKey(key);
      let work = byStore.get(storeId);
      if (!work) byStore.set(storeId, (work = { upserts: [], removals: [] }));
      if (entry.deleted) work.removals.push(id);
      else work.upserts.push([id, entry]);
    }
    for (const [storeId, work] of byStore) {
      const context = this.o.ranking.forProducts(storeId, work.upserts.map(([id]) => id));
      const docs: EngineDocument[] = work.upserts.map(([id, entry]) => toEngineDocument(entry.product!, entry.version, context(id)));
      if (docs.length) await this.o.engine.upsert(storeId, docs);
      if (work.removals.length) await this.o.engine.remove(storeId, work.removals);
    }
  }

  private recordFailure(slices: Slice[], error: Error): void {
    const now = this.o.now();
    const first = slices[0]!.task;
    const attempts = first.attempts + 1;
    const permanent = error instanceof EngineRejectedError || attempts >= this.maxAttempts;
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

const joinKey = (storeId: string, id: string) => `${storeId}\u0000${id}`;
const splitKey = (key: string) => key.split("\u0000") as [string, string];
