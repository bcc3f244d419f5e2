import type { StateSource } from "../../db/state-source.ts";
import { InvalidJsonError, ValidationError, type ErrorDetail } from "../../errors.ts";
import type { AcceptedBulk } from "./accepted-bulk.ts";
import type { EncodedSlice, PrepareRequest } from "./prepared-batch.ts";

export type ThreadRequest =
  | { type: "open"; source: StateSource }
  | { type: "prepare"; id: number; request: PrepareRequest }
  /** A POST /products body to validate (accepted-bulk.ts), for the task `taskId` if it is accepted. */
  | { type: "accept"; id: number; body: Uint8Array; taskId: string };

/** Why a body was refused: the error the request answers with. */
export interface Refusal {
  invalidJson: boolean;
  message: string;
  details?: ErrorDetail[];
}

/**
 * An answer: a prepared slice (of upserts as encodePrepared made it; of deletions, the ids in `strings`), a body
 * validated or refused, or a failure.
 */
export type ThreadReply =
  | { id: number; prepared: EncodedSlice }
  | { id: number; accepted: AcceptedBulk }
  | { id: number; refused: Refusal }
  | { id: number; error: string };

/** Raised on the main thread for a request the indexing thread could not answer. */
export class PrepareError extends Error {}

/**
 * The main thread's side of the indexing thread. The thread starts on first use; if it dies, what was waiting
 * fails (a batch is retried) and the next request starts a new one.
 */
export class IndexingThread {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (reply: ThreadReply) => void; reject: (error: Error) => void }>();

  constructor(private readonly source: StateSource) {}

  async prepare(request: PrepareRequest): Promise<EncodedSlice> {
    const reply = await this.ask((id) => ({ type: "prepare", id, request }));
    if ("prepared" in reply) return reply.prepared;
    throw new PrepareError("the indexing thread answered a slice with something else");
  }

  /**
   * Validates a POST /products body on the indexing thread, so a bulk's parse and checks (25 µs per product) do
   * not hold up the main thread's requests. The body's buffer is moved there, and comes back as the payload when
   * it is kept as sent. The products are kept there for preparing the task `taskId` that will hold them.
   */
  async accept(body: Uint8Array, taskId: string): Promise<AcceptedBulk> {
    const own = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? body : body.slice();
    const reply = await this.ask((id) => ({ type: "accept", id, body: own, taskId }), [own.buffer as ArrayBuffer]);
    if ("accepted" in reply) return reply.accepted;
    if ("refused" in reply) {
      const { invalidJson, message, details } = reply.refused;
      throw invalidJson ? new InvalidJsonError(message, details) : new ValidationError(message, details);
    }
    throw new PrepareError("the indexing thread answered a body with something else");
  }

  private ask(request: (id: number) => ThreadRequest, transfer: ArrayBuffer[] = []): Promise<ThreadReply> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.postMessage(request(id), transfer);
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
      else waiter?.resolve(reply);
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
