import type { Database } from "bun:sqlite";
import type { EventsRepository, StoredEvent } from "../../db/events-repository.ts";
import { ReportAggregatesRepo } from "../../db/report-aggregates-repo.ts";
import type { Logger } from "../../log.ts";
import { CONVERSION_WINDOW_MS } from "./event-facts.ts";

/*
 * The analytics worker: reads the events table in arrival order, after the last event it counted, and hands
 * each event to its consumers (report aggregates, behaviour ranking, shopper profiles). A batch and the
 * progress past it commit in one transaction, so after a crash every event is counted exactly once.
 */

export type AnalyticsEvent = StoredEvent & { storeId: string };

export interface EventConsumer {
  apply(event: AnalyticsEvent): void;
  /** Writes what apply() summed in memory; runs inside the batch's transaction. */
  flush(): void;
  /** The batch's transaction failed: forget what apply() summed. */
  discard(): void;
  /** Drops working state for events before `before` (ms). */
  prune(before: number): void;
}

/** Events per transaction when a report catches up (it answers after them anyway). */
const BATCH = 2_000;
/**
 * Events per transaction in the background: each batch holds the event loop (about 20 ms for 500 events), so a
 * backlog after an upgrade or an outage drains without holding up searches for long.
 */
const BACKGROUND_BATCH = 500;
const PROGRESS = "analytics";
/** How often old attribution state is dropped, in events processed. */
const PRUNE_EVERY = 50_000;
/** A failed pass (storage busy or full) is tried again after this. */
const RETRY_MS = 5_000;

export class AnalyticsWorker {
  private readonly progress: ReportAggregatesRepo;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  /** Steps run one at a time (the background drain and a report's catch-up): each reads on from the last. */
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private sincePrune = PRUNE_EVERY;
  private readonly listeners: ((storeIds: Set<string>) => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly events: EventsRepository,
    private readonly consumers: readonly EventConsumer[],
    private readonly log: Logger,
  ) {
    this.progress = new ReportAggregatesRepo(db);
  }

  /** Called with the stores a committed batch touched (ranking drops its caches for them). */
  onCounted(listener: (storeIds: Set<string>) => void): void {
    this.listeners.push(listener);
  }

  /** New events were committed: count them soon. */
  wake(): void {
    if (this.stopped || this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.drainInBackground().finally(() => (this.running = null));
    }, 0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /**
   * Counts up to `maxEvents` waiting events now: reports call it first, so what was acknowledged is in them.
   * Returns how many were counted.
   */
  async catchUp(maxEvents = 10 * BATCH): Promise<number> {
    let total = 0;
    while (total < maxEvents) {
      const n = await this.step(Math.min(BATCH, maxEvents - total));
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  /** Counts one batch of up to `limit` events; returns how many. */
  step(limit = BATCH): Promise<number> {
    const run = this.queue.then(() => this.stepNow(limit));
    this.queue = run.catch(() => {});
    return run;
  }

  private async stepNow(limit: number): Promise<number> {
    const after = this.progress.lastSeq(PROGRESS);
    const batch = await this.events.after(after, limit);
    if (batch.length === 0) return 0;
    const stores = new Set<string>();
    try {
      this.db.transaction(() => {
        for (const event of batch) {
          stores.add(event.storeId);
          for (const consumer of this.consumers) consumer.apply(event);
        }
        for (const consumer of this.consumers) consumer.flush();
        this.sincePrune += batch.length;
        if (this.sincePrune >= PRUNE_EVERY) {
          this.sincePrune = 0;
          const before = batch.at(-1)!.receivedAt - CONVERSION_WINDOW_MS;
          for (const consumer of this.consumers) consumer.prune(before);
        }
        this.progress.setLastSeq(PROGRESS, batch.at(-1)!.seq);
      })();
    } catch (error) {
      for (const consumer of this.consumers) consumer.discard();
      throw error;
    }
    for (const listener of this.listeners) listener(stores);
    return batch.length;
  }

  private async drainInBackground(): Promise<void> {
    try {
      while (!this.stopped && (await this.step(BACKGROUND_BATCH)) > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    } catch (error) {
      // The events stay in the table and the progress did not move: a later pass counts them.
      this.log.error("counting analytics events failed; retrying", { error: (error as Error).message });
      if (!this.stopped) this.timer = setTimeout(() => {
        this.timer = null;
        this.wake();
      }, RETRY_MS);
    }
  }
}
