import type { AnalyticsStateRepository, StateKeys } from "./storage/analytics-state-repository.ts";
import type { EventsRepository, StoredEvent } from "../events/storage/events-repository.ts";
import type { Logger } from "../../log.ts";
import { AnalyticsBatch } from "./analytics-batch.ts";
import { CONVERSION_WINDOW_MS, dayOf } from "./event-facts.ts";

/*
 * The analytics worker, on the events thread (events-thread-main.ts): reads the events table in arrival order,
 * after the last event it counted, and hands each event to its consumers (report aggregates, behaviour ranking,
 * shopper profiles). Per batch: the state its
 * events may touch is read (AnalyticsStateRepository.load), the consumers count in memory (AnalyticsBatch), and
 * what they counted commits in one transaction with the progress past the batch, only if the progress is still
 * where the batch started. So after a crash every event is counted exactly once, and of replicas counting at
 * once, one commits each batch.
 */

export type AnalyticsEvent = StoredEvent & { storeId: string };

export interface EventConsumer {
  /** Reads what apply() needs besides the batch's state (products' facts), before the batch is counted. */
  prepare?(batch: readonly AnalyticsEvent[]): Promise<void>;
  apply(event: AnalyticsEvent, state: AnalyticsBatch): void;
  /** Names its working state that is older than `before` (ms), to be dropped with the batch's writes. */
  prune(before: number, state: AnalyticsBatch): void;
  /** The batch committed. */
  committed?(): void;
  /** The batch was not written (its transaction failed, or another replica counted it). */
  discarded?(): void;
}

/**
 * Events per transaction (about 10 ms of counting for 250 events): the events thread this runs on takes in new events
 * between two batches, and the serving thread's writes, which wait at most 100 ms for the lock, wait for one short
 * commit at most, even on a busy machine.
 */
const BATCH = 250;
/** Events a report's catch-up counts at most before it answers. */
const CATCH_UP = 20_000;
const PROGRESS = "analytics";
/** How often old attribution state is dropped, in events processed. */
const PRUNE_EVERY = 50_000;
/** A failed pass (storage busy or full) is tried again after this. */
const RETRY_MS = 5_000;

export class AnalyticsWorker {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  /** Steps run one at a time (the background drain and a report's catch-up): each reads on from the last. */
  private queue: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Events counted since the last prune: the first batch after a start prunes. */
  private sincePrune = Infinity;

  constructor(
    private readonly state: AnalyticsStateRepository,
    private readonly events: EventsRepository,
    private readonly consumers: readonly EventConsumer[],
    private readonly log: Logger,
    /** Events counted between two prunes of the working state. */
    private readonly pruneEvery = PRUNE_EVERY,
  ) {}

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
  async catchUp(maxEvents = CATCH_UP): Promise<number> {
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
    const after = await this.state.lastSeq(PROGRESS);
    const batch = await this.events.after(after, limit);
    if (batch.length === 0) return 0;
    let committed = false;
    try {
      for (const consumer of this.consumers) await consumer.prepare?.(batch);
      const state = new AnalyticsBatch(await this.state.load(keysOf(batch)));
      for (const event of batch) for (const consumer of this.consumers) consumer.apply(event, state);
      const pruning = this.sincePrune + batch.length >= this.pruneEvery;
      if (pruning) {
        const before = batch.at(-1)!.receivedAt - CONVERSION_WINDOW_MS;
        for (const consumer of this.consumers) consumer.prune(before, state);
      }
      committed = await this.state.commit(state.writes(PROGRESS, after, batch.at(-1)!.seq));
      if (committed) this.sincePrune = pruning ? 0 : this.sincePrune + batch.length;
    } finally {
      for (const consumer of this.consumers) (committed ? consumer.committed : consumer.discarded)?.call(consumer);
    }
    // Uncommitted, another replica counted these events first: the next step reads on from where it got to.
    return batch.length;
  }

  private async drainInBackground(): Promise<void> {
    try {
      while (!this.stopped && (await this.step(BATCH)) > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    } catch (error) {
      // The events stay in the table and the progress did not move: a later pass counts them.
      this.log.error("counting analytics events failed; retrying", { error: (error as Error).message });
      if (!this.stopped)
        this.timer = setTimeout(() => {
          this.timer = null;
          this.wake();
        }, RETRY_MS);
    }
  }
}

/** The state a batch's events may touch: their sessions' recent searches, their orders, their shoppers' days. */
function keysOf(batch: readonly AnalyticsEvent[]): StateKeys {
  const sessions = new Map<string, [string, string]>();
  const orders = new Map<string, [string, string]>();
  const actorDays = new Map<string, [string, string, string]>();
  let earliest = Infinity;
  for (const e of batch) {
    earliest = Math.min(earliest, e.receivedAt);
    if (e.sessionId) sessions.set(`${e.storeId}\u0000${e.sessionId}`, [e.storeId, e.sessionId]);
    const actor = e.userId ?? e.sessionId;
    const day = dayOf(e.receivedAt);
    if (actor) actorDays.set(`${e.storeId}\u0000${day}\u0000${actor}`, [e.storeId, day, actor]);
    if ((e.type === "OrderComplete" || e.type === "Purchase") && typeof e.data.orderId === "string")
      orders.set(`${e.storeId}\u0000${e.data.orderId}`, [e.storeId, e.data.orderId]);
  }
  return {
    sessions: [...sessions.values()],
    searchesSince: earliest - CONVERSION_WINDOW_MS,
    orders: [...orders.values()],
    actorDays: [...actorDays.values()],
  };
}
