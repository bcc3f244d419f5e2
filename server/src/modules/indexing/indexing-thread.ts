import type { StateSource } from "../../db/state-source.ts";
import type { EncodedSlice, PrepareRequest } from "./prepared-batch.ts";

export type ThreadRequest = { type: "open"; source: StateSource } | { type: "prepare"; id: number; request: PrepareRequest };
/** A slice of upserts as encodePrepared made it; of deletions, the ids (in `strings`). */
export type ThreadReply = { id: number; prepared: EncodedSlice } | { id: number; error: string };

/** Raised on the main thread for a slice the indexing thread could not prepare. */
export class PrepareError extends Error {}

/**
 * The main thread's side of the indexing thread: requests are answered in the order sent. The thread starts on
 * first use; if it dies, what was waiting fails (the batch is retried) and the next request starts a new one.
 */
export class IndexingThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (prepared: EncodedSlice) => void; reject: (error: Error) => void }>();

  constructor(private readonly source: StateSource) {}

  prepare(request: PrepareRequest): Promise<EncodedSlice> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({ type: "prepare", id, request } satisfies ThreadRequest);
    });
  }

  close(): void {
    this.worker?.terminate();
    this.worker = null;
    this.failAll(new PrepareError("the indexing thread was stopped"));
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL("./indexing-thread-main.ts", import.meta.url).href);
    worker.onmessage = (event: MessageEvent<ThreadReply>) => {
      const reply = event.data;
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if ("error" in reply) waiter?.reject(new PrepareError(reply.error));
      else waiter?.resolve(reply.prepared);
    };
    worker.onerror = (event) => {
      worker.terminate();
      if (this.worker === worker) this.worker = null;
      this.failAll(new PrepareError(`the indexing thread failed: ${event.message}`));
    };
    worker.postMessage({ type: "open", source: this.source } satisfies ThreadRequest);
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
