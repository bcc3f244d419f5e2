import type { EngineKind } from "../../engine/types.ts";
import type { StateSource } from "../../platform/state-source.ts";
import { movableCopy, refusalError, ThreadChannel, type Refusal } from "../../thread-channel.ts";
import type { AcceptedBulk } from "./accepted-bulk.ts";
import type { EncodedSlice, PrepareRequest } from "./prepared-batch.ts";

export type ThreadRequest =
  /** `engine`: whose DocumentPreparer makes the engine documents. */
  | { type: "open"; source: StateSource; engine: EngineKind }
  | { type: "prepare"; id: number; request: PrepareRequest }
  /** A POST /products body to validate (accepted-bulk.ts), for the task `taskId` if it is accepted. */
  | { type: "accept"; id: number; body: Uint8Array; taskId: string };

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
 * How long the indexing thread stays without a request before it ends; the next request starts it again, which
 * costs that request 0.1-0.3 s (the thread's modules loaded, its connection opened). Past a bulk, the thread's
 * runtime and what its heap kept of the bulk held about 30 MiB (0.6 KB per product at 50,000 products).
 */
const IDLE_MS = 30_000;

/**
 * The main thread's side of the indexing thread. The thread starts on first use and ends when idle; if it dies,
 * what was waiting fails (a batch is retried) and the next request starts a new one.
 */
export class IndexingThread {
  private readonly channel: ThreadChannel<ThreadRequest, ThreadReply>;

  constructor(source: StateSource, engine: EngineKind, idleMs = IDLE_MS) {
    this.channel = new ThreadChannel({
      url: new URL("../../threads/indexing-thread-main.ts", import.meta.url),
      open: { type: "open", source, engine } satisfies ThreadRequest,
      failure: (message) => new PrepareError(`indexing: ${message}`),
      idleMs,
    });
  }

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
    const own = movableCopy(body);
    const reply = await this.ask((id) => ({ type: "accept", id, body: own, taskId }), [own.buffer as ArrayBuffer]);
    if ("accepted" in reply) return reply.accepted;
    if ("refused" in reply) throw refusalError(reply.refused);
    throw new PrepareError("the indexing thread answered a body with something else");
  }

  private async ask(request: (id: number) => ThreadRequest, transfer: ArrayBuffer[] = []): Promise<ThreadReply> {
    const reply = await this.channel.ask(request, transfer);
    if ("error" in reply) throw new PrepareError(reply.error);
    return reply;
  }

  close(): void {
    this.channel.close();
  }
}
