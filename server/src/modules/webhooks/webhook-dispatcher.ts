import type { AttemptOutcome, AttemptRecord, DeliveryRow, SubscriptionRow, WebhooksRepository } from "./storage/webhooks-repository.ts";
import type { Logger } from "../../log.ts";
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, nextAttemptAfterInterruption, nextAttemptAt } from "./webhook-schedule.ts";
import { sendWebhook, trustedCas, type SendResult } from "./webhook-sender.ts";
import { webhookSignature } from "./verify-webhook.ts";

/*
 * Sends the outbox's deliveries when they are due. Before a call its row is claimed: marked in flight with the
 * attempt's number and time (committed), so one delivery is never sent twice at once, by this process or another
 * replica. A row a killed process left in flight counts as a failed attempt ("interrupted") and the schedule goes
 * on from it: one process alone settles all of them at start; replicas sharing a database settle a row once its
 * lease is over (no live replica's call lasts that long), on every round, since a replica can die at any time. At
 * most PER_SUBSCRIPTION calls are open per subscription. Besides wake(), it looks for due rows every POLL_MS
 * (rows queued by another connection, retries coming due) and sets a timer for the earliest due retry, so the
 * schedule is kept to the millisecond.
 */

/** Open calls per subscription: the spec keeps them under 10. */
export const PER_SUBSCRIPTION = 8;
/** Open calls in all. */
const TOTAL = 64;
export const POLL_MS = 250;
/** Finished deliveries (succeeded, dead) are deleted this long after they finished. */
export const KEEP_FINISHED_MS = 30 * 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface DispatcherOptions {
  repo: WebhooksRepository;
  /**
   * How long a claim holds before another replica may settle it as interrupted; null when this process is the
   * only one (the embedded database): it settles every row in flight when it starts.
   */
  leaseMs: number | null;
  log: Logger;
  /** WEBHOOK_CA_FILE: an extra trusted CA (PEM). */
  caFile: string | null;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS. */
  allowPrivateNetworks: boolean;
  /** WEBHOOK_RETRY_TIME_SCALE: multiplies the retry waits, never the time-out. */
  retryTimeScale: number;
  /** x-service-api-version. */
  apiVersion: string;
  now?: () => number;
}

interface Open {
  subscriptionId: string;
  abort: AbortController;
  done: Promise<void>;
}

interface Unrecorded {
  delivery: DeliveryRow;
  attempt: number;
  record: AttemptRecord;
  outcome: AttemptOutcome;
}

export class WebhookDispatcher {
  private readonly repo: WebhooksRepository;
  private readonly now: () => number;
  private readonly ca: string[] | undefined;
  private readonly open = new Map<string, Open>();
  /** Attempts whose result could not be written (storage busy or full): written again on later rounds. */
  private readonly unrecorded: Unrecorded[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = Infinity;
  private started = false;
  private stopped = false;
  /** Whether this start's settling of rows left in flight has run (a round does it first). */
  private settled = false;
  private lastPrune = 0;
  /** The round under way: rounds never overlap; one asked for meanwhile runs right after. */
  private running: Promise<void> | null = null;
  private again = false;

  constructor(private readonly o: DispatcherOptions) {
    this.repo = o.repo;
    this.now = o.now ?? Date.now;
    this.ca = trustedCas(o.caFile);
  }

  /** Starts sending; the first round settles what a stopped or killed process left in flight. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    this.settled = false;
    this.schedule(0);
  }

  /** New deliveries are due now. */
  wake(): void {
    if (this.started && !this.stopped) this.schedule(0);
  }

  /** Stops sending; calls still open are cut short and recorded as interrupted (the schedule resumes after a start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    await this.running;
    const open = [...this.open.values()];
    for (const o of open) o.abort.abort();
    await Promise.allSettled(open.map((o) => o.done));
    try {
      await this.flushUnrecorded();
    } catch (error) {
      // Left in flight: the next start settles them as interrupted.
      this.o.log.error("webhooks: recording attempts at stop failed", { error: (error as Error).message });
    }
  }

  /** Calls open now (tests, metrics). */
  openCalls(): number {
    return this.open.size;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    const at = this.now() + Math.max(0, delayMs);
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Infinity;
        this.runRound();
      },
      Math.max(0, delayMs),
    );
  }

  private runRound(): void {
    if (this.running !== null) {
      this.again = true;
      return;
    }
    this.running = this.round().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      }
    });
  }

  /** Settles rows left in flight: by the last process at start (alone), or past their lease (replicas). */
  private async settleInterrupted(): Promise<void> {
    if (this.o.leaseMs === null && this.settled) return;
    await this.recoverInterrupted(this.o.leaseMs === null ? Infinity : this.now() - this.o.leaseMs);
    this.settled = true;
  }

  private async recoverInterrupted(startedBefore: number): Promise<void> {
    const scale = this.o.retryTimeScale;
    for (const d of await this.repo.inFlight(startedBefore)) {
      if (this.open.has(d.id)) continue;
      const attempt = d.inFlight!;
      const startedAt = d.inFlightAt ?? this.now();
      const next = nextAttemptAfterInterruption(attempt, startedAt, scale);
      const record: AttemptRecord = {
        at: startedAt,
        status: null,
        durationMs: null,
        error: "interrupted: the service stopped before the receiver answered",
      };
      const outcome: AttemptOutcome =
        next === null
          ? { status: "dead", nextAttemptAt: null, finishedAt: this.now() }
          : { status: "failed", nextAttemptAt: next, finishedAt: null };
      if (await this.repo.finishAttempt(d.id, attempt, record, outcome)) {
        this.o.log.warn("webhook attempt interrupted by a stop; it counts as failed", {
          storeId: d.storeId,
          webhookId: d.subscriptionId,
          deliveryId: d.id,
          attempt,
          nextAttemptAt: next === null ? null : new Date(next).toISOString(),
        });
      }
    }
  }

  private async round(): Promise<void> {
    if (this.stopped) return;
    let nextDue = Infinity;
    const now = this.now();
    try {
      await this.settleInterrupted();
      await this.flushUnrecorded();
      const perSubscription = new Map<string, number>();
      for (const o of this.open.values()) perSubscription.set(o.subscriptionId, (perSubscription.get(o.subscriptionId) ?? 0) + 1);
      for (const sub of await this.repo.activeSubscriptions()) {
        const free = Math.min(PER_SUBSCRIPTION - (perSubscription.get(sub.id) ?? 0), TOTAL - this.open.size);
        // A subscription at its limit is looked at again when one of its calls ends; after stop() none is claimed.
        if (free <= 0 || this.stopped) continue;
        for (const d of await this.repo.claimDue(sub.id, now, free)) {
          this.launch(sub, d, d.inFlight!, now);
          perSubscription.set(sub.id, (perSubscription.get(sub.id) ?? 0) + 1);
        }
        if ((perSubscription.get(sub.id) ?? 0) < PER_SUBSCRIPTION && this.open.size < TOTAL) {
          const earliest = await this.repo.earliestDue(sub.id);
          if (earliest !== null) nextDue = Math.min(nextDue, earliest);
        }
      }
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        const pruned = await this.repo.pruneFinished(now - KEEP_FINISHED_MS, 5_000);
        if (pruned) this.o.log.info("webhooks: deleted finished deliveries", { count: pruned });
      }
    } catch (error) {
      this.o.log.error("webhooks: a dispatch round failed; retrying", { error: (error as Error).message });
    }
    // A row that was due in this round but not claimed (taken by another process) is looked at on the next poll;
    // a subscription at its limit is looked at again when one of its calls ends.
    const wait = nextDue > now && Number.isFinite(nextDue) ? Math.min(POLL_MS, Math.max(1, nextDue - this.now())) : POLL_MS;
    this.schedule(wait);
  }

  private launch(sub: SubscriptionRow, d: DeliveryRow, attempt: number, startedAt: number): void {
    const abort = new AbortController();
    const done = this.attempt(sub, d, attempt, startedAt, abort.signal).finally(() => {
      this.open.delete(d.id);
      this.wake();
    });
    this.open.set(d.id, { subscriptionId: sub.id, abort, done });
  }

  private async attempt(sub: SubscriptionRow, d: DeliveryRow, attempt: number, startedAt: number, signal: AbortSignal): Promise<void> {
    const ts = String(this.now());
    const headers: Record<string, string> = {
      "x-service-topic": sub.topic,
      "x-service-store-id": sub.storeId,
      "x-service-ts": ts,
      "x-service-api-version": this.o.apiVersion,
      "x-service-webhook-id": sub.id,
      "x-service-delivery-id": d.id,
      "x-service-hmac-sha256": webhookSignature(sub.secret, { storeId: sub.storeId, ts, topic: sub.topic, webhookId: sub.id }, d.body),
      "user-agent": "storefront-search-webhooks/1",
    };
    let result: SendResult;
    try {
      result = await sendWebhook({
        url: new URL(sub.url),
        headers,
        body: d.body,
        ca: this.ca,
        allowPrivateNetworks: this.o.allowPrivateNetworks,
        timeoutMs: ATTEMPT_TIMEOUT_MS,
        signal,
      });
    } catch (error) {
      result = {
        ok: false,
        status: null,
        durationMs: this.now() - startedAt,
        error: `internal: ${(error as Error).message}`,
        interrupted: false,
      };
    }
    const endedAt = this.now();
    const record: AttemptRecord = { at: startedAt, status: result.status, durationMs: result.durationMs, error: result.error };
    let outcome: AttemptOutcome;
    if (result.ok) {
      outcome = { status: "succeeded", nextAttemptAt: null, finishedAt: endedAt };
    } else {
      const next = result.interrupted
        ? nextAttemptAfterInterruption(attempt, startedAt, this.o.retryTimeScale)
        : nextAttemptAt(attempt, endedAt, this.o.retryTimeScale);
      outcome =
        next === null
          ? { status: "dead", nextAttemptAt: null, finishedAt: endedAt }
          : { status: "failed", nextAttemptAt: next, finishedAt: null };
    }
    const fields = {
      storeId: sub.storeId,
      webhookId: sub.id,
      deliveryId: d.id,
      productId: d.productId,
      attempt,
      status: result.status,
      ms: result.durationMs,
    };
    if (result.ok) this.o.log.info("webhook delivered", fields);
    else if (outcome.status === "dead")
      this.o.log.warn("webhook delivery dead: no more retries", { ...fields, attempts: MAX_ATTEMPTS, error: result.error });
    else
      this.o.log.info("webhook attempt failed", {
        ...fields,
        error: result.error,
        nextAttemptAt: new Date(outcome.nextAttemptAt!).toISOString(),
      });
    await this.record({ delivery: d, attempt, record, outcome });
  }

  private async record(u: Unrecorded): Promise<void> {
    try {
      await this.repo.finishAttempt(u.delivery.id, u.attempt, u.record, u.outcome);
    } catch (error) {
      // The row stays in flight (never sent again meanwhile); a later round, or the next start, records it.
      this.o.log.error("webhooks: recording an attempt failed; retrying", { deliveryId: u.delivery.id, error: (error as Error).message });
      this.unrecorded.push(u);
    }
  }

  private async flushUnrecorded(): Promise<void> {
    while (this.unrecorded.length) {
      const u = this.unrecorded[0]!;
      await this.repo.finishAttempt(u.delivery.id, u.attempt, u.record, u.outcome);
      this.unrecorded.shift();
    }
  }
}
