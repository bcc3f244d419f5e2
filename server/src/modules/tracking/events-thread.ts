import type { StateSource } from "../../platform/state-source.ts";
import type { LogLevel } from "../../config.ts";
import { movableCopy, refusalError, ThreadChannel, type Refusal } from "../../thread-channel.ts";

/*
 * Shopper events are taken in and counted on a thread of their own (events-thread-main.ts): parsing and checking a
 * request's events, committing them, and counting them into reports and ranking evidence. A client that keeps
 * many large batches in flight then costs the serving thread only the reading of its bodies, so it cannot slow
 * other stores' searches; what the thread writes, search hears of through notices.
 */

export type EventsThreadRequest =
  | { type: "open"; source: StateSource; synchronous: "FULL" | "NORMAL"; logLevel: LogLevel }
  /** A POST /tracking body: parsed and checked, and kept on the thread until "commit" or "drop" names its id. */
  | { type: "check"; id: number; storeId: string; apiVersion: string; body: Uint8Array; receivedAt: number }
  | { type: "commit"; id: number; checked: number }
  | { type: "drop"; checked: number }
  /** Counts what is waiting now (a report or an erasure is about to read the counts). */
  | { type: "catchUp"; id: number }
  /** The store's catalog changed: the facts personalisation learns from are read again. */
  | { type: "catalogChanged"; storeId: string }
  /** Finishes what is under way and closes the thread's storage. */
  | { type: "stop"; id: number };

/** A failure on the thread, as the error the main thread raises (storage errors keep their name and code). */
export interface ThreadFailure {
  name: string;
  code?: string;
  message: string;
}

export type EventsThreadReply =
  | { id: number; checked: number }
  | { id: number; refused: Refusal }
  | { id: number; done: number }
  | { id: number; failed: ThreadFailure };

export type EventsThreadNotice =
  /** Committed orders changed these products' purchase counts. */
  | { type: "purchases"; storeId: string; productIds: string[] }
  /**
   * Ranking evidence was written for these (query "" is a product's own) and affinities for these shoppers
   * ("u:…", "s:…"), or old evidence was pruned.
   */
  | { type: "evidence"; storeId: string; keys: { query: string; productId: string }[]; shoppers: string[] }
  | { type: "evidencePruned" };

export interface EventsThreadOptions {
  source: StateSource;
  synchronous: "FULL" | "NORMAL";
  logLevel: LogLevel;
  onPurchases: (storeId: string, productIds: string[]) => void;
  evidence: {
    written(storeId: string, keys: Iterable<{ query: string; productId: string }>, shoppers: readonly string[]): void;
    clear(): void;
  };
}

class EventsThreadError extends Error {}

function raised(failure: ThreadFailure): Error {
  return Object.assign(new Error(failure.message), { name: failure.name, ...(failure.code ? { code: failure.code } : {}) });
}

export class EventsThread {
  private readonly channel: ThreadChannel<EventsThreadRequest, EventsThreadReply, EventsThreadNotice>;

  constructor(o: EventsThreadOptions) {
    this.channel = new ThreadChannel({
      url: new URL("../../threads/events-thread-main.ts", import.meta.url),
      open: { type: "open", source: o.source, synchronous: o.synchronous, logLevel: o.logLevel } satisfies EventsThreadRequest,
      failure: (message) => new EventsThreadError(`events: ${message}`),
      onNotice: (notice) => {
        if (notice.type === "purchases") o.onPurchases(notice.storeId, notice.productIds);
        else if (notice.type === "evidence") o.evidence.written(notice.storeId, notice.keys, notice.shoppers);
        else o.evidence.clear();
      },
    });
  }

  /** Starts the thread, which first counts what was acknowledged but not yet counted (before a stop or a crash). */
  start(): void {
    this.channel.start();
  }

  /**
   * Checks a body's events on the thread, lets `charge` refuse them by their number (it throws), and resolves with
   * that number once they are committed.
   */
  async ingest(
    storeId: string,
    apiVersion: string,
    body: Uint8Array,
    receivedAt: number,
    charge: (count: number) => void,
  ): Promise<number> {
    const own = movableCopy(body);
    const checked = await this.ask(
      (id) => ({ type: "check", id, storeId, apiVersion, body: own, receivedAt }),
      [own.buffer as ArrayBuffer],
    );
    if (!("checked" in checked)) throw new EventsThreadError("the events thread answered a body with something else");
    try {
      charge(checked.checked);
    } catch (error) {
      this.channel.tell({ type: "drop", checked: checked.id });
      throw error;
    }
    return this.done((id) => ({ type: "commit", id, checked: checked.id }));
  }

  /** Counts the events waiting; resolves with how many. */
  catchUp(): Promise<number> {
    return this.done((id) => ({ type: "catchUp", id }));
  }

  catalogChanged(storeId: string): void {
    this.channel.tell({ type: "catalogChanged", storeId });
  }

  async stop(): Promise<void> {
    try {
      await this.done((id) => ({ type: "stop", id }));
    } finally {
      this.channel.close();
    }
  }

  private async done(request: (id: number) => EventsThreadRequest): Promise<number> {
    const reply = await this.ask(request);
    if ("done" in reply) return reply.done;
    throw new EventsThreadError("the events thread answered with something else");
  }

  private async ask(request: (id: number) => EventsThreadRequest, transfer: ArrayBuffer[] = []): Promise<EventsThreadReply> {
    const reply = await this.channel.ask(request, transfer);
    if ("refused" in reply) throw refusalError(reply.refused);
    if ("failed" in reply) throw raised(reply.failed);
    return reply;
  }
}
