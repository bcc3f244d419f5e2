import type { Logger } from "../../log.ts";
import type { StateSource } from "../../platform/state-source.ts";
import { ThreadChannel } from "../../thread-channel.ts";
import { MeaningModel } from "./meaning-model.ts";
import type { MeaningThreadReply, MeaningThreadRequest } from "./meaning-thread.ts";

/*
 * Each store's learned meaning (semantic-space.ts), trained on a thread of its own from the store's evidence
 * (meaning-evidence.ts, read there) once its catalog has been quiet for SETTLE_MS, and again after it changed, at most every
 * RETRAIN_MS. A search asks for the model it has, never waits for one: until the first training ends, nothing is
 * recovered. Each replica trains its own (the evidence is in the shared database; the vectors stay in memory).
 */

/** Quiet time after a change before training: a bulk's batches are one change. */
const SETTLE_MS = 5_000;
/** A trained store is trained again after a change at most this often. */
const RETRAIN_MS = 30 * 60_000;

interface Held {
  model: MeaningModel | null;
  training: Promise<MeaningModel | null> | null;
  timer: ReturnType<typeof setTimeout> | null;
}

export class MeaningService {
  private readonly stores = new Map<string, Held>();
  /**
   * Reads the evidence and trains, and ends as soon as no training waits: trainings come minutes apart (after a
   * bulk's SETTLE_MS, then at most every RETRAIN_MS), and between them neither the thread's runtime nor what reading
   * and training left in the allocator is worth keeping (at 50,000 products the server's RSS after 35 s idle fell by
   * about 80 MiB with this; a thread starts in about 40 ms).
   */
  private readonly thread: ThreadChannel<MeaningThreadRequest, MeaningThreadReply>;
  private stopped = false;

  constructor(
    private readonly d: {
      /** The state the thread reads a store's evidence from. */
      source: StateSource;
      now: () => number;
      log: Logger;
    },
  ) {
    this.thread = new ThreadChannel({
      url: new URL("../../threads/meaning-thread-main.ts", import.meta.url),
      open: { type: "open", source: d.source } satisfies MeaningThreadRequest,
      failure: (message) => new Error(`the meaning thread failed: ${message}`),
      idleMs: 0,
      unref: true,
    });
  }

  /** The store's model as trained last, or null (none yet). */
  model(storeId: string): MeaningModel | null {
    return this.stores.get(storeId)?.model ?? null;
  }

  /** The store's model, trained now when it has none (and none is on its way); null when the store has no evidence. */
  async ready(storeId: string): Promise<MeaningModel | null> {
    return this.model(storeId) ?? this.train(storeId);
  }

  /**
   * The store's evidence changed (a batch of its catalog, an import of queries): train again once it is quiet, and
   * not sooner than RETRAIN_MS after the last training unless `soon` (an import: rare, and made to be used).
   */
  changed(storeId: string, soon = false): void {
    if (this.stopped) return;
    const held = this.held(storeId);
    if (held.timer) clearTimeout(held.timer);
    const age = held.model ? this.d.now() - held.model.trainedAt : Infinity;
    const wait = soon ? SETTLE_MS : Math.max(SETTLE_MS, RETRAIN_MS - age);
    held.timer = setTimeout(() => {
      held.timer = null;
      if (!held.training) void this.trainNow(storeId);
    }, wait);
    held.timer.unref?.();
  }

  forget(storeId: string): void {
    const held = this.stores.get(storeId);
    if (held?.timer) clearTimeout(held.timer);
    this.stores.delete(storeId);
  }

  /** Stops training: a training under way is abandoned (it is made again at the next start). */
  stop(): void {
    this.stopped = true;
    for (const held of this.stores.values()) if (held.timer) clearTimeout(held.timer);
    this.thread.close();
  }

  private held(storeId: string): Held {
    let held = this.stores.get(storeId);
    if (!held) this.stores.set(storeId, (held = { model: null, training: null, timer: null }));
    return held;
  }

  /** Trains the store's model now (a training under way is the one waited for). */
  train(storeId: string): Promise<MeaningModel | null> {
    return this.held(storeId).training ?? this.trainNow(storeId);
  }

  private trainNow(storeId: string): Promise<MeaningModel | null> {
    const held = this.held(storeId);
    const started = this.d.now();
    const training = (async () => {
      const t = performance.now();
      const reply = await this.thread.ask((id) => ({ type: "train", id, storeId, now: started }));
      if ("error" in reply) throw new Error(reply.error);
      if (!reply.space) return null;
      const model = new MeaningModel(reply.space, started);
      this.d.log.info("meaning trained", { storeId, documents: reply.documents, ...model.size, ms: Math.round(performance.now() - t) });
      return model;
    })();
    held.training = training;
    training.then(
      (model) => {
        if (this.stores.get(storeId) !== held) return;
        if (model) held.model = model;
        held.training = null;
      },
      (error: Error) => {
        held.training = null;
        if (!this.stopped) this.d.log.warn("meaning training failed", { storeId, error: error.message });
      },
    );
    return training;
  }
}
