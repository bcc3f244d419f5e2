import type { Logger } from "../../log.ts";
import { gatherEvidence, type EvidenceSources } from "./meaning-evidence.ts";
import { MeaningModel } from "./meaning-model.ts";
import type { TrainedSpace, TrainingDocument } from "./semantic-space.ts";

/*
 * Each store's learned meaning (semantic-space.ts), trained on a thread of its own from the store's evidence
 * (meaning-evidence.ts) once its catalog has been quiet for SETTLE_MS, and again after it changed, at most every
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
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, { resolve(space: TrainedSpace): void; reject(error: Error): void }>();
  private nextId = 0;
  private stopped = false;

  constructor(
    private readonly d: {
      sources: EvidenceSources;
      log: Logger;
    },
  ) {}

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
    const age = held.model ? this.d.sources.now() - held.model.trainedAt : Infinity;
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
    this.worker?.terminate();
    this.worker = null;
    for (const waiter of this.waiting.values()) waiter.reject(new Error("the service is stopping"));
    this.waiting.clear();
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
    const started = this.d.sources.now();
    const training = (async () => {
      const documents = await gatherEvidence(this.d.sources, storeId);
      if (!documents.some((doc) => doc.productId !== undefined)) return null;
      const t = performance.now();
      const space = await this.onThread(documents);
      const model = new MeaningModel(space, started);
      this.d.log.info("meaning trained", { storeId, documents: documents.length, ...model.size, ms: Math.round(performance.now() - t) });
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

  private onThread(documents: TrainingDocument[]): Promise<TrainedSpace> {
    const worker = this.started();
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ id, documents });
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./meaning-thread-main.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<{ id: number; space?: TrainedSpace; error?: string }>) => {
      const waiter = this.waiting.get(event.data.id);
      this.waiting.delete(event.data.id);
      if (event.data.space) waiter?.resolve(event.data.space);
      else waiter?.reject(new Error(event.data.error ?? "no answer"));
    };
    worker.onerror = (event) => {
      worker.terminate();
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(new Error(`the meaning thread failed: ${event.message}`));
      this.waiting.clear();
    };
    // The thread must not keep a process alive that has nothing else to do.
    (worker as unknown as { unref?: () => void }).unref?.();
    this.worker = worker;
    return worker;
  }
}
