import type { TrackingEvent } from "@storefront-search/contract";
import { browserScheduler, type Scheduler } from "../core/scheduler.ts";
import type { Identity } from "./identity.ts";

/*
 * Shopper events, batched: sent every few seconds with a keepalive fetch, and with sendBeacon when the page is
 * hidden or left (the last moment a page can reliably send). Sending never blocks the shopper and never throws;
 * a batch the service did not take (fetch not ok, sendBeacon refused) is tried once more, then dropped.
 */

export type Transport = "fetch" | "beacon";
export type SendEvents = (events: TrackingEvent[], transport: Transport) => Promise<boolean>;

export interface TrackerOptions {
  storeId: string;
  identity: Identity;
  send: SendEvents;
  scheduler?: Scheduler;
  /** How often queued events are sent while the page is open. */
  intervalMs?: number;
  /** Most events per request (the service takes up to 500). */
  maxBatch?: number;
  /** Largest body per request: beacons and keepalive fetches share a 64 KiB budget. */
  maxBytes?: number;
}

interface Queued {
  event: TrackingEvent;
  bytes: number;
  /** Failed sends so far. */
  failures: number;
}

/** The page events the tracker listens to; `window` and `document` in a browser. */
export interface PageLifecycle {
  window: Pick<Window, "addEventListener" | "removeEventListener">;
  document: Pick<Document, "addEventListener" | "removeEventListener" | "visibilityState">;
}

export class Tracker {
  private queue: Queued[] = [];
  private readonly scheduler: Scheduler;
  private readonly intervalMs: number;
  private readonly maxBatch: number;
  private readonly maxBytes: number;
  private timer: unknown = null;
  private sending = false;
  private detach: (() => void) | null = null;

  constructor(private readonly options: TrackerOptions) {
    this.scheduler = options.scheduler ?? browserScheduler;
    this.intervalMs = options.intervalMs ?? 5000;
    this.maxBatch = options.maxBatch ?? 100;
    this.maxBytes = options.maxBytes ?? 60_000;
  }

  /** Queues one event; `data` goes as given (the caller builds it with the spec's fields for `type`). */
  track(type: string, data: object): void {
    const event: TrackingEvent = {
      type,
      data: { ...(data as Record<string, unknown>) },
      userId: this.options.identity.userId,
      sessionId: this.options.identity.sessionId(),
      storeId: this.options.storeId,
    };
    let bytes: number;
    try {
      bytes = JSON.stringify(event).length;
    } catch {
      return; // not serialisable (a cycle): nothing a server could read
    }
    if (bytes > this.maxBytes) return;
    this.queue.push({ event, bytes, failures: 0 });
  }

  get pending(): readonly TrackingEvent[] {
    return this.queue.map((q) => q.event);
  }

  /** Starts the periodic sending and the page-hide beacon. */
  start(page: PageLifecycle): void {
    if (this.detach) return;
    const onHide = () => this.flushOnHide();
    const onVisibility = () => {
      if (page.document.visibilityState === "hidden") onHide();
    };
    page.document.addEventListener("visibilitychange", onVisibility);
    page.window.addEventListener("pagehide", onHide);
    this.timer = this.scheduler.setInterval(() => void this.flush(), this.intervalMs);
    this.detach = () => {
      page.document.removeEventListener("visibilitychange", onVisibility);
      page.window.removeEventListener("pagehide", onHide);
      this.scheduler.clearInterval(this.timer);
    };
  }

  stop(): void {
    this.detach?.();
    this.detach = null;
  }

  /** Sends what is queued with keepalive fetches; failed batches return to the queue once. */
  async flush(): Promise<void> {
    if (this.sending || this.queue.length === 0) return;
    this.sending = true;
    try {
      for (const batch of this.takeBatches()) {
        const ok = await this.send(batch, "fetch");
        if (!ok) this.requeue(batch);
      }
    } finally {
      this.sending = false;
    }
  }

  /** The page is going away: everything goes by beacon now; a refused beacon is retried once by keepalive fetch. */
  flushOnHide(): void {
    for (const batch of this.takeBatches()) {
      void this.send(batch, "beacon").then((ok) => {
        if (ok) return;
        const retry = batch.filter((q) => q.failures === 0);
        if (retry.length) void this.send(retry, "fetch");
      });
    }
  }

  private async send(batch: Queued[], transport: Transport): Promise<boolean> {
    try {
      return await this.options.send(
        batch.map((q) => q.event),
        transport,
      );
    } catch {
      return false;
    }
  }

  private requeue(batch: Queued[]): void {
    const again = batch.filter((q) => q.failures === 0).map((q) => ({ ...q, failures: 1 }));
    this.queue = [...again, ...this.queue];
  }

  private takeBatches(): Queued[][] {
    const batches: Queued[][] = [];
    let batch: Queued[] = [];
    let bytes = 2;
    for (const q of this.queue) {
      if (batch.length && (batch.length >= this.maxBatch || bytes + q.bytes + 1 > this.maxBytes)) {
        batches.push(batch);
        batch = [];
        bytes = 2;
      }
      batch.push(q);
      bytes += q.bytes + 1;
    }
    if (batch.length) batches.push(batch);
    this.queue = [];
    return batches;
  }
}
